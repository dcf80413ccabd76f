/* A native extension as README's Python recipe builds it: linked against the NVRTC stub from
 * the cuda-stubs wheel, loaded with ctypes by scripts/test-packaging.sh. */
#include <nvrtc.h>

int ext_nvrtc_version(int *major, int *minor) { return (int)nvrtcVersion(major, minor); }
