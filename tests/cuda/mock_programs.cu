// Programs of our own modelled on what NVIDIA's cuda-samples exercise (vectorAdd, matrixMul,
// reduction, simplePrintf, simpleAssert, simpleCudaGraphs, ...), for the mock device's kernel
// executor in CI, where the samples themselves are not at hand (no network): each case checks
// its kernel's result on the host and prints one line, `<case> ok ...` or `<case> FAILED ...`.
// tests/tests/mock_programs.rs builds it with nvcc 13.5 (PTX only, and CUBIN only) and runs one
// case per process (the faults are sticky):
//   mock_programs CASE   CASE: vector_add | matmul | reduce | printf | assert | out_of_bounds |
//                        sticky_calls | constant | graph | launch | heap
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

// A call's error code, printed as `what=code`; the program goes on (the cases print codes).
static int check(const char *what, cudaError_t e) {
  if (e != cudaSuccess) {
    printf("%s=%d\n", what, (int)e);
  }
  return (int)e;
}

// Fails the case unless the call succeeded.
#define OK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      printf("FAILED %s: %d (%s) at line %d\n", #call, (int)e_,                    \
             cudaGetErrorName(e_), __LINE__);                                      \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

// --- vector_add: c = a + b over 50,000 floats (the sample's size), 196 blocks of 256.
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

static int case_vector_add() {
  const int n = 50000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; i++) {
    a[i] = (float)(i % 1000) * 0.25f;
    b[i] = 1.0f / (float)(1 + i % 7);
  }
  float *da, *db, *dc;
  OK(cudaMalloc(&da, n * sizeof(float)));
  OK(cudaMalloc(&db, n * sizeof(float)));
  OK(cudaMalloc(&dc, n * sizeof(float)));
  OK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  OK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  OK(cudaGetLastError());
  OK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    // One IEEE addition each, on both sides: equal bit for bit.
    wrong += c[i] != a[i] + b[i];
  }
  OK(cudaFree(da));
  OK(cudaFree(db));
  OK(cudaFree(dc));
  printf("vector_add %s n=%d wrong=%d\n", wrong ? "FAILED" : "ok", n, wrong);
  return wrong != 0;
}

// --- matmul: C = A * B with 16x16 tiles in shared memory (matrixMul's kernel, smaller sizes
// that are not multiples of the tile: guards on every load).
#define TILE 16
__global__ void matmul(const float *A, const float *B, float *C, int m, int k, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
    int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = row < m && ac < k ? A[row * k + ac] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = br < k && col < n ? B[br * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; j++) {
      sum += As[threadIdx.y][j] * Bs[j][threadIdx.x];
    }
    __syncthreads();
  }
  if (row < m && col < n) {
    C[row * n + col] = sum;
  }
}

static int case_matmul() {
  const int m = 70, k = 90, n = 50;
  std::vector<float> A(m * k), B(k * n), C(m * n, 0.0f);
  // Small integers: every product and partial sum is exact in fp32, whatever the order or
  // fusing (fma), so the host's result is the device's bit for bit.
  for (int i = 0; i < m * k; i++) A[i] = (float)(i % 7 - 2);
  for (int i = 0; i < k * n; i++) B[i] = (float)(i % 5 - 1);
  float *dA, *dB, *dC;
  OK(cudaMalloc(&dA, A.size() * sizeof(float)));
  OK(cudaMalloc(&dB, B.size() * sizeof(float)));
  OK(cudaMalloc(&dC, C.size() * sizeof(float)));
  OK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  OK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, m, k, n);
  OK(cudaGetLastError());
  OK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  double checksum = 0;
  for (int r = 0; r < m; r++) {
    for (int c = 0; c < n; c++) {
      float want = 0.0f;
      for (int j = 0; j < k; j++) want += A[r * k + j] * B[j * n + c];
      wrong += C[r * n + c] != want;
      checksum += C[r * n + c];
    }
  }
  OK(cudaFree(dA));
  OK(cudaFree(dB));
  OK(cudaFree(dC));
  printf("matmul %s %dx%d*%dx%d wrong=%d checksum=%.0f\n", wrong ? "FAILED" : "ok", m, k, k, n,
         wrong, checksum);
  return wrong != 0;
}

// --- reduce: a block's tree reduction in dynamic shared memory, then the last warp with
// __shfl_down_sync, one atomicAdd per block (reduction's and threadFenceReduction's pattern).
__global__ void reduce(const unsigned *in, unsigned long long *total, int n) {
  extern __shared__ unsigned s[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  unsigned v = 0;
  if (i < (unsigned)n) v += in[i];
  if (i + blockDim.x < (unsigned)n) v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    v = s[tid];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (tid == 0) atomicAdd(total, (unsigned long long)v);
  }
}

static int case_reduce() {
  const int n = (1 << 16) + 1234, threads = 256;
  std::vector<unsigned> in(n);
  unsigned long long want = 0;
  for (int i = 0; i < n; i++) {
    in[i] = (unsigned)(i * 2654435761u) >> 12;
    want += in[i];
  }
  unsigned *din;
  unsigned long long *dtotal, got = 0;
  OK(cudaMalloc(&din, n * sizeof(unsigned)));
  OK(cudaMalloc(&dtotal, sizeof(got)));
  OK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  OK(cudaMemset(dtotal, 0, sizeof(got)));
  int blocks = (n + threads * 2 - 1) / (threads * 2);
  reduce<<<blocks, threads, threads * sizeof(unsigned)>>>(din, dtotal, n);
  OK(cudaGetLastError());
  OK(cudaMemcpy(&got, dtotal, sizeof(got), cudaMemcpyDeviceToHost));
  OK(cudaFree(din));
  OK(cudaFree(dtotal));
  printf("reduce %s blocks=%d sum=%llu want=%llu\n", got == want ? "ok" : "FAILED", blocks, got,
         want);
  return got != want;
}

// --- printf: device printf, written at the next synchronizing call (simplePrintf).
__global__ void hello(int value) {
  printf("[%d, %d] value=%d half=%.2f\n", (int)blockIdx.x, (int)threadIdx.x, value,
         value * 0.5);
}

static int case_printf() {
  hello<<<2, 3>>>(10);
  OK(cudaGetLastError());
  OK(cudaDeviceSynchronize());
  fflush(stdout);
  printf("printf ok\n");
  return 0;
}

// --- assert: a device-side assert fails in one thread; the fault is sticky (simpleAssert).
__global__ void asserting(int limit) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  assert(g < limit);
}

static int case_assert() {
  asserting<<<2, 32>>>(60);
  int launch = check("launch", cudaGetLastError());
  int sync = (int)cudaDeviceSynchronize();
  void *p = nullptr;
  int later = (int)cudaMalloc(&p, 16);
  printf("assert %s launch=%d sync=%d later=%d\n",
         launch == 0 && sync == 710 && later == 710 ? "ok" : "FAILED", launch, sync, later);
  return !(launch == 0 && sync == 710 && later == 710);
}

// --- out_of_bounds: a store far past an allocation: 700, sticky (the next allocation answers
// it too).
__global__ void store_at(int *p, long long offset) { p[offset] = 1; }

static int case_out_of_bounds() {
  int *d;
  OK(cudaMalloc(&d, 64 * sizeof(int)));
  store_at<<<1, 1>>>(d, 1LL << 32);
  int launch = check("launch", cudaGetLastError());
  int sync = (int)cudaDeviceSynchronize();
  void *p = nullptr;
  int later = (int)cudaMalloc(&p, 16);
  printf("out_of_bounds %s launch=%d sync=%d later=%d\n",
         launch == 0 && sync == 700 && later == 700 ? "ok" : "FAILED", launch, sync, later);
  return !(launch == 0 && sync == 700 && later == 700);
}

// --- sticky_calls: after a fault (700), what further calls answer (mock_programs.rs checks
// them; tests/gpu/mock_samples.sh compares them with the board's).
static int case_sticky_calls() {
  int *d, h[4] = {0, 0, 0, 0};
  void *p = nullptr;
  OK(cudaMalloc(&d, 64 * sizeof(int)));
  store_at<<<1, 1>>>(d, 1LL << 32);
  int sync = (int)cudaDeviceSynchronize();
  int memset_rc = (int)cudaMemset(d, 0, 64);
  int memcpy_rc = (int)cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int malloc_rc = (int)cudaMalloc(&p, 16);
  int free_rc = (int)cudaFree(d);
  int last = (int)cudaGetLastError();
  printf("sticky_calls sync=%d memset=%d memcpy=%d malloc=%d free=%d last=%d\n", sync, memset_rc,
         memcpy_rc, malloc_rc, free_rc, last);
  return 0;
}

// --- constant: __constant__ coefficients set by cudaMemcpyToSymbol, a __device__ counter
// read back by cudaMemcpyFromSymbol.
__constant__ float coef[16];
__device__ unsigned hits;

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = coef[i % 16] * (float)i;
    atomicAdd(&hits, 1u);
  }
}

static int case_constant() {
  const int n = 1000;
  float host_coef[16];
  for (int i = 0; i < 16; i++) host_coef[i] = 0.5f * (float)(i + 1);
  unsigned zero = 0, got_hits = 0;
  OK(cudaMemcpyToSymbol(coef, host_coef, sizeof(host_coef)));
  OK(cudaMemcpyToSymbol(hits, &zero, sizeof(zero)));
  float *d;
  std::vector<float> out(n);
  OK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<(n + 127) / 128, 128>>>(d, n);
  OK(cudaGetLastError());
  OK(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  OK(cudaMemcpyFromSymbol(&got_hits, hits, sizeof(got_hits)));
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += out[i] != host_coef[i % 16] * (float)i;
  OK(cudaFree(d));
  bool good = wrong == 0 && got_hits == (unsigned)n;
  printf("constant %s wrong=%d hits=%u\n", good ? "ok" : "FAILED", wrong, got_hits);
  return !good;
}

// --- graph: a kernel captured from a stream into a graph, which runs only when launched:
// replayed twice (simpleCudaGraphs).
__global__ void bump(int *v, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += by + i;
}

static int case_graph() {
  const int n = 300;
  int *d;
  std::vector<int> h(n);
  cudaStream_t s;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  OK(cudaMalloc(&d, n * sizeof(int)));
  OK(cudaMemset(d, 0, n * sizeof(int)));
  OK(cudaStreamCreate(&s));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  bump<<<(n + 127) / 128, 128, 0, s>>>(d, n, 3);
  OK(cudaStreamEndCapture(s, &g));
  OK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int during = h[n - 1];
  OK(cudaGraphInstantiate(&ge, g, 0));
  OK(cudaGraphLaunch(ge, s));
  OK(cudaGraphLaunch(ge, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 2 * (3 + i);
  OK(cudaGraphExecDestroy(ge));
  OK(cudaGraphDestroy(g));
  OK(cudaStreamDestroy(s));
  OK(cudaFree(d));
  bool good = during == 0 && wrong == 0;
  printf("graph %s during=%d wrong=%d last=%d\n", good ? "ok" : "FAILED", during, wrong, h[n - 1]);
  return !good;
}

// --- launch: one launch and its answers, for the CUBIN-only build (801 at the launch).
static int case_launch() {
  int *d;
  OK(cudaMalloc(&d, 4 * sizeof(int)));
  bump<<<1, 4>>>(d, 4, 1);
  int launch = (int)cudaGetLastError();
  int sync = (int)cudaDeviceSynchronize();
  printf("launch rc=%d sync=%d\n", launch, sync);
  return 0;
}

// --- heap: device-side malloc/free and C++ new/delete with virtual calls (newdelete): blocks
// made in one launch, read and freed in the next; a request past the heap answers NULL; the
// heap's size is fixed once made; cudaFree refuses a heap pointer.
struct Shape {
  __device__ virtual int area() const { return 0; }
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  int side;
  __device__ explicit Square(int s) : side(s) {}
  __device__ int area() const override { return side * side; }
};

__global__ void heap_fill(int **blocks, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (p != nullptr) {
    for (int j = 0; j < n; j++) p[j] = g * 1000 + j;
  }
  blocks[g] = p;
}

__global__ void heap_drain(int **blocks, int n, long long *sums, int *aligned) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = blocks[g];
  long long s = -1;
  if (p != nullptr) {
    s = 0;
    for (int j = 0; j < n; j++) s += p[j];
    if (((unsigned long long)p & 15) != 0) atomicAdd(aligned, 1);
    free(p);
  }
  Shape *shape = (g & 1) ? new Square(g) : new Shape;
  sums[g] = shape == nullptr ? -2 : s + shape->area();
  delete shape;
}

__global__ void heap_big(unsigned long long bytes, int *got) {
  void *p = malloc(bytes);
  *got = p != nullptr;
  free(p);
}

static int case_heap() {
  const int blocks = 2, threads = 64, total = blocks * threads, n = 100;
  OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20));
  size_t limit = 0;
  OK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  int **d_blocks;
  long long *d_sums;
  int *d_flag;
  OK(cudaMalloc(&d_blocks, total * sizeof(int *)));
  OK(cudaMalloc(&d_sums, total * sizeof(long long)));
  OK(cudaMalloc(&d_flag, 2 * sizeof(int)));
  OK(cudaMemset(d_flag, 0, 2 * sizeof(int)));
  heap_fill<<<blocks, threads>>>(d_blocks, n);
  OK(cudaGetLastError());
  OK(cudaDeviceSynchronize());
  // A heap pointer is no allocation of cudaMalloc's.
  int *first = nullptr;
  OK(cudaMemcpy(&first, d_blocks, sizeof(first), cudaMemcpyDeviceToHost));
  int free_rc = (int)cudaFree(first);
  (void)cudaGetLastError();
  heap_drain<<<blocks, threads>>>(d_blocks, n, d_sums, d_flag);
  OK(cudaGetLastError());
  OK(cudaDeviceSynchronize());
  std::vector<long long> sums(total);
  OK(cudaMemcpy(sums.data(), d_sums, total * sizeof(long long), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int g = 0; g < total; g++) {
    long long want = (long long)g * 1000 * n + (long long)n * (n - 1) / 2 + ((g & 1) ? g * g : 0);
    if (sums[g] != want) wrong++;
  }
  int misaligned = 0;
  OK(cudaMemcpy(&misaligned, d_flag, sizeof(int), cudaMemcpyDeviceToHost));
  heap_big<<<1, 1>>>(8ull << 20, d_flag + 1);
  OK(cudaDeviceSynchronize());
  int big = -1;
  OK(cudaMemcpy(&big, d_flag + 1, sizeof(int), cudaMemcpyDeviceToHost));
  heap_big<<<1, 1>>>(1 << 20, d_flag + 1);
  OK(cudaDeviceSynchronize());
  int small = -1;
  OK(cudaMemcpy(&small, d_flag + 1, sizeof(int), cudaMemcpyDeviceToHost));
  int resize = (int)cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
  (void)cudaGetLastError();
  bool ok = limit == (4u << 20) && wrong == 0 && misaligned == 0 && free_rc != 0 && big == 0 &&
            small == 1 && resize == (int)cudaErrorInvalidValue;
  printf("heap %s limit=%zu wrong=%d misaligned=%d cudaFree=%d big=%d small=%d resize=%d\n",
         ok ? "ok" : "FAILED", limit, wrong, misaligned, free_rc, big, small, resize);
  return !ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  const char *c = argv[1];
  if (!strcmp(c, "vector_add")) return case_vector_add();
  if (!strcmp(c, "matmul")) return case_matmul();
  if (!strcmp(c, "reduce")) return case_reduce();
  if (!strcmp(c, "printf")) return case_printf();
  if (!strcmp(c, "assert")) return case_assert();
  if (!strcmp(c, "out_of_bounds")) return case_out_of_bounds();
  if (!strcmp(c, "sticky_calls")) return case_sticky_calls();
  if (!strcmp(c, "constant")) return case_constant();
  if (!strcmp(c, "graph")) return case_graph();
  if (!strcmp(c, "launch")) return case_launch();
  if (!strcmp(c, "heap")) return case_heap();
  fprintf(stderr, "unknown case %s\n", c);
  return 2;
}
