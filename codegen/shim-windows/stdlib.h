/* The Windows view of codegen (headers.rs, View::Windows) reads NVIDIA's headers for
 * x86_64-pc-windows-msvc with clang's freestanding headers only: this machine has no MSVC C
 * runtime headers. nvrtc.h and nvJitLink.h include <stdlib.h> for size_t alone. */
#include <stddef.h>
