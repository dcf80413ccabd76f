/* A consumer of the NVRTC stub, as packaged: built by the CMake project tests/cmake/consumer
 * (as C++, through cuda-stubs::nvrtc and through CUDA::nvrtc after
 * cuda_stubs_use_for_cuda_toolkit()) and with pkg-config (as C). Compiles a kernel with the
 * real NVRTC the stub binds and prints the version, the PTX's entry and how it was found. */
#include "cuda_stubs.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
    printf("nvrtcVersion failed\n");
    return 1;
  }
  printf("nvrtc %d.%d\n", major, minor);
  const char *src = "extern \"C\" __global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }";
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "scale.cu", 0, 0, 0) != NVRTC_SUCCESS ||
      nvrtcCompileProgram(prog, 0, 0) != NVRTC_SUCCESS) {
    printf("compile failed\n");
    return 1;
  }
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  char *ptx = (char *)malloc(size);
  nvrtcGetPTX(prog, ptx);
  printf("ptx %s\n", strstr(ptx, ".entry scale") ? "has .entry scale" : "lacks the entry");
  free(ptx);
  nvrtcDestroyProgram(&prog);
  cuda_stubs_status s;
  cuda_stubs_nvrtc_status(&s);
  printf("found_by %s\n", s.found_by ? s.found_by : "(null)");
  return 0;
}
