// nvcc by hand: a kernel (nvcc's registration code needs a runtime: its default -lcudart_static),
// the runtime and cuBLAS by their link names. cuBLAS is declared here: cublas_v2.h needs CCCL's
// <nv/target>, which NVIDIA's nvcc wheel does not ship.
#include <cstdio>
#include <cuda_runtime.h>

extern "C" int cublasGetProperty(int type, int *value); // libraryPropertyType MAJOR_VERSION = 0

__global__ void fill(int *out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int runtime = 0, cublas = 0;
  cudaError_t rc = cudaRuntimeGetVersion(&runtime);
  std::printf("cudaRuntimeGetVersion rc=%d version=%d\n", (int)rc, runtime);
  int status = cublasGetProperty(0, &cublas);
  std::printf("cublasGetProperty rc=%d major=%d\n", status, cublas);
  int *out = nullptr;
  if (cudaMalloc(&out, 4 * sizeof(int)) == cudaSuccess) {
    fill<<<1, 4>>>(out);
    std::printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
  }
  return 0;
}
