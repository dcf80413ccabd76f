/* codegen shim: only the EGL types cudaEGL.h / cuda_egl_interop.h use (Khronos ABI). */
#ifndef __egl_h_
#define __egl_h_
#include <stdint.h>
typedef int32_t EGLint;
typedef void *EGLImage;
typedef void *EGLSync;
#endif
