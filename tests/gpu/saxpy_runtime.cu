// Issue 36 on a GPU: a program built by nvcc 13.5 (NVIDIA's wheels, on a CPU machine) with
// `-gencode arch=compute_90,code=compute_90`: its only device code is PTX 9.5, which a CUDA 13.0
// driver cannot JIT. Linked normally its launch fails (222); through the runtime stub,
// __cudaRegisterFatBinary hands the runtime a CUBIN made by nvJitLink and it runs.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaError_t e = cudaMallocManaged(&x, n * sizeof(float));
  if (e == cudaSuccess) e = cudaMallocManaged(&y, n * sizeof(float));
  if (e != cudaSuccess) {
    std::printf("runtime: alloc=%d (%s)\n", e, cudaGetErrorString(e));
    return 1;
  }
  for (int i = 0; i < n; i++) x[i] = float(i), y[i] = 1.0f;
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  long wrong = 0;
  for (int i = 0; i < n; i++) wrong += y[i] != 2.0f * float(i) + 1.0f;
  std::printf("runtime: launch=%d (%s) sync=%d wrong=%ld\n", launch, cudaGetErrorName(launch), sync, wrong);
  return launch != cudaSuccess || sync != cudaSuccess || wrong != 0;
}
