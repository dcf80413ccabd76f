// Device variables of an nvcc-built program (`__constant__`, `__device__`), reached through the
// runtime's symbol calls: nvcc registers each with `__cudaRegisterVar` at start-up. No kernel
// runs, so that the program prints the same on a GPU linked to NVIDIA's runtime
// (tests/gpu/graphs.sh) and on the mock device linked to the runtime stub
// (tests/tests/mock_vs_h200.rs), whose lines must be the GPU's. One line per step: return codes
// and what came back.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__constant__ float coeff[4];
__device__ int counter = 7;
__device__ double table[3] = {1.5, 2.5, 3.5};

static int host_only = 3;

// Keeps the variables referenced from device code (nvcc registers them either way).
__global__ void touch(float *out) { out[0] = coeff[0] + counter + table[0]; }

int main() {
  int n = 0;
  int rc = cudaGetDeviceCount(&n);
  std::printf("devices rc=%d count=%d\n", rc, n);
  if (rc != 0) return 1;

  size_t s1 = 0, s2 = 0, s3 = 0;
  int z1 = cudaGetSymbolSize(&s1, coeff);
  int z2 = cudaGetSymbolSize(&s2, counter);
  int z3 = cudaGetSymbolSize(&s3, table);
  void *a = nullptr;
  int ad = cudaGetSymbolAddress(&a, counter);
  cudaPointerAttributes pa{};
  cudaPointerGetAttributes(&pa, a);
  void *none = nullptr;
  int unknown = cudaGetSymbolAddress(&none, host_only);
  (void)cudaGetLastError();
  std::printf("sizes rc=%d,%d,%d %zu,%zu,%zu address rc=%d device memory=%d not a symbol rc=%d\n",
              z1, z2, z3, s1, s2, s3, ad, pa.type == cudaMemoryTypeDevice, unknown);

  // Initial values, as the device has them.
  int c = 0;
  double t[3] = {0, 0, 0};
  int f1 = cudaMemcpyFromSymbol(&c, counter, sizeof c);
  int f2 = cudaMemcpyFromSymbol(t, table, sizeof t);
  std::printf("initial rc=%d,%d counter=%d table=%g,%g,%g\n", f1, f2, c, t[0], t[1], t[2]);

  // Written and read back, whole and at an offset, synchronously and on a stream.
  float in[4] = {0.5f, 1.5f, 2.5f, 3.5f}, back[4] = {0, 0, 0, 0};
  int w1 = cudaMemcpyToSymbol(coeff, in, sizeof in);
  int r1 = cudaMemcpyFromSymbol(back, coeff, sizeof back);
  float two[2] = {9.0f, 10.0f};
  int w2 = cudaMemcpyToSymbol(coeff, two, sizeof two, 2 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  float last[2] = {0, 0};
  int r2 = cudaMemcpyFromSymbolAsync(last, coeff, sizeof last, 2 * sizeof(float),
                                     cudaMemcpyDeviceToHost, s);
  int w3 = cudaMemcpyToSymbolAsync(counter, &c, sizeof c, 0, cudaMemcpyHostToDevice, s);
  int sy = cudaStreamSynchronize(s);
  std::printf("written rc=%d,%d,%d,%d,%d sync rc=%d back=%g,%g,%g,%g at offset=%g,%g\n", w1, r1,
              w2, r2, w3, sy, back[0], back[1], back[2], back[3], last[0], last[1]);

  // Through the symbol's address: the same memory.
  int nine = 9, via = 0;
  int m1 = cudaMemcpy(a, &nine, sizeof nine, cudaMemcpyHostToDevice);
  int m2 = cudaMemcpyFromSymbol(&via, counter, sizeof via);
  std::printf("through the address rc=%d,%d counter=%d\n", m1, m2, via);

  // Refused: past the end, a direction toward the host, a pointer that is no symbol.
  int past = cudaMemcpyToSymbol(coeff, in, sizeof in, sizeof(float));
  (void)cudaGetLastError();
  int wrong = cudaMemcpyToSymbol(coeff, in, sizeof in, 0, cudaMemcpyDeviceToHost);
  (void)cudaGetLastError();
  int stray = cudaMemcpyToSymbol(host_only, in, sizeof(int));
  (void)cudaGetLastError();
  std::printf("refused past the end rc=%d direction rc=%d not a symbol rc=%d\n", past, wrong,
              stray);
  cudaStreamDestroy(s);
  std::printf("last error=%d\n", (int)cudaGetLastError());
  return 0;
}
