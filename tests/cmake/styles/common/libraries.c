/* The C program of the link-name styles (bare_names, find_library, findcuda; tests/packaging.rs
 * checks its output): what the runtime, cuBLAS and nvJitLink answer through whatever the style
 * linked by NVIDIA's names. No CUDA headers: these prototypes are the same in every CUDA version
 * (libraryPropertyType is an int-sized enum, MAJOR_VERSION 0). */
#include <stdio.h>

int cudaRuntimeGetVersion(int *runtimeVersion);
int cublasGetProperty(int type, int *value);
#ifdef CUDA_STUBS_PROBE_NVJITLINK
int nvJitLinkVersion(unsigned int *major, unsigned int *minor);
#endif

int main(void) {
  int runtime = 0, cublas = 0;
  int rc = cudaRuntimeGetVersion(&runtime);
  printf("cudaRuntimeGetVersion rc=%d version=%d\n", rc, runtime);
  rc = cublasGetProperty(0, &cublas);
  printf("cublasGetProperty rc=%d major=%d\n", rc, cublas);
#ifdef CUDA_STUBS_PROBE_NVJITLINK
  unsigned int major = 0, minor = 0;
  rc = nvJitLinkVersion(&major, &minor);
  printf("nvJitLinkVersion rc=%d major=%u\n", rc, major);
#endif
  return 0;
}
