// Launches `parent`, which launches `child` from the device (needs libcudadevrt.a at device
// link). Without a GPU the launch fails cleanly; the runtime's version comes from the real
// libcudart the stub bound. cudaMemAdvise: as in ../common/probe.cu, its reference records the
// cudart ABI linked.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int *out);
__global__ void parent(int *out) { child<<<1, 4>>>(out); }

int main() {
  int version = 0;
  cudaError_t rc = cudaRuntimeGetVersion(&version);
  std::printf("cudaRuntimeGetVersion rc=%d version=%d\n", (int)rc, version);
  int *out = nullptr;
  if (cudaMalloc(&out, 4 * sizeof(int)) == cudaSuccess) {
    parent<<<1, 1>>>(out);
    std::printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
  } else {
    std::printf("no device: %s\n", cudaGetErrorName(cudaGetLastError()));
  }
  cudaMemLocation location = {};
  location.type = cudaMemLocationTypeDevice;
  (void)cudaMemAdvise(nullptr, 0, cudaMemAdviseSetReadMostly, location);
  return 0;
}
