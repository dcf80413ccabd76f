// Compiled against CUDA 12.9's headers: cudaMemAdvise has 12.x's prototype (an int device where
// 13.x takes a cudaMemLocation), so its reference must record CUDA_STUBS_CUDART_12.
#include <cstdio>
#include <cuda_runtime_api.h>

int main() {
  int version = 0;
  cudaError_t rc = cudaRuntimeGetVersion(&version);
  std::printf("cudaRuntimeGetVersion rc=%d version=%d\n", (int)rc, version);
  void *out = nullptr;
  if (cudaMalloc(&out, 16) == cudaSuccess) {
    cudaFree(out);
  } else {
    std::printf("no device: %s\n", cudaGetErrorName(cudaGetLastError()));
  }
  (void)cudaMemAdvise(nullptr, 0, cudaMemAdviseSetReadMostly, 0);
  return 0;
}
