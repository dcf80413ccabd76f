// Where a GPU's driver writes a device-side assert's line and printf's output (issue 47: the
// mock must write them where the board does): stdout or stderr, and in what order relative to
// the host's own output. Run with stdout and stderr to separate files.
#include <cassert>
#include <cstdio>
__global__ void check(const int *v) {
  printf("device printf from thread %d\n", threadIdx.x);
  assert(v[threadIdx.x] < 5);
}
int main() {
  int h[4] = {1, 2, 9, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  std::printf("host before launch\n");
  check<<<1, 4>>>(d);
  std::printf("host after launch\n");
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("host after sync: %d %s\n", (int)e, cudaGetErrorString(e));
  std::printf("host then malloc: %d\n", (int)cudaMalloc(&d, 4));
  return 0;
}
