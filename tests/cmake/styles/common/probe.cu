// The program the CUDA styles of tests/cmake/styles build (tests/packaging.rs checks its output):
// the runtime the cudart stub reached, and what a <<<>>> launch got. nvcc's code registers its
// fat binary at start and launches through __cudaLaunchKernel, names only a runtime defines:
// the executable links because the style linked one, the stub. cudaMemAdvise's prototype
// differs between CUDA 12 and 13 headers: the version node the executable records for it shows
// which cudart ABI the style linked. With CUDA_STUBS_PROBE_NO_MAIN the file is a library
// (cuda_stubs_probe()) for a C++ or OpenMP main.
#include <cstdio>
#include <cuda_runtime.h>

// The launch; a style may bring its own kernel (separable: one launching another).
#ifndef CUDA_STUBS_PROBE_LAUNCH
__global__ void fill(int *out) { out[threadIdx.x] = threadIdx.x; }
#define CUDA_STUBS_PROBE_LAUNCH(out) fill<<<1, 4>>>(out)
#endif

int cuda_stubs_probe() {
  int version = 0;
  cudaError_t rc = cudaRuntimeGetVersion(&version);
  std::printf("cudaRuntimeGetVersion rc=%d version=%d\n", (int)rc, version);
  int *out = nullptr;
  if (cudaMalloc(&out, 4 * sizeof(int)) == cudaSuccess) {
    CUDA_STUBS_PROBE_LAUNCH(out);
    std::printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
  } else {
    std::printf("no device: %s\n", cudaGetErrorName(cudaGetLastError()));
  }
  // Only its reference matters (see above); no device memory to advise.
  cudaMemLocation location = {};
  location.type = cudaMemLocationTypeDevice;
  (void)cudaMemAdvise(nullptr, 0, cudaMemAdviseSetReadMostly, location);
  return 0;
}

#ifndef CUDA_STUBS_PROBE_NO_MAIN
int main() { return cuda_stubs_probe(); }
#endif
