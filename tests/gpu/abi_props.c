/* GPU proof of the cross-major adapters (run by tests/gpu/abi_props.sh; needs a GPU).
 * Built against the CUDA 13.0 or 12.9 headers, linked only against libstubs_cudart and
 * libstubs_cuda. Compares cudaDeviceProp read through the stub (whatever runtime major it
 * bound) with the driver's own answers and cudaDeviceGetAttribute, then captures, instantiates
 * (flags 0) and launches a small graph. Prints PASS/FAIL per check; exit 1 on any FAIL. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(const char *what, int ok, long long got, long long want) {
  printf("%s %s (got %lld, want %lld)\n", ok ? "PASS" : "FAIL", what, got, want);
  if (!ok) failures++;
}

static void check_attr(const char *what, long long field, enum cudaDeviceAttr attr, int dev) {
  int v = 0;
  cudaError_t e = cudaDeviceGetAttribute(&v, attr, dev);
  check(what, e == cudaSuccess && field == v, field, e == cudaSuccess ? v : -1000000 - e);
}

int main(void) {
  int version = 0;
  cudaRuntimeGetVersion(&version);
  printf("header CUDART_VERSION=%d, sizeof(cudaDeviceProp)=%zu, runtime bound=%d\n", CUDART_VERSION,
         sizeof(struct cudaDeviceProp), version);
  struct cudaDeviceProp p;
  memset(&p, 0xAB, sizeof p);
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  check("cudaGetDeviceProperties status", e == cudaSuccess, e, 0);
  if (e != cudaSuccess) return 1;

  CUdevice dev;
  char name[256] = {0};
  size_t total = 0;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS) r = cuDeviceGetName(name, sizeof name, dev);
  if (r == CUDA_SUCCESS) r = cuDeviceTotalMem(&total, dev);
  check("driver queries", r == CUDA_SUCCESS, r, 0);
  int same_name = strncmp(name, p.name, sizeof name) == 0;
  printf("%s name: stub \"%.256s\" driver \"%s\"\n", same_name ? "PASS" : "FAIL", p.name, name);
  if (!same_name) failures++;
  check("totalGlobalMem vs cuDeviceTotalMem", p.totalGlobalMem == total, (long long)p.totalGlobalMem,
        (long long)total);
  check_attr("major", p.major, cudaDevAttrComputeCapabilityMajor, 0);
  check_attr("minor", p.minor, cudaDevAttrComputeCapabilityMinor, 0);
  check_attr("multiProcessorCount", p.multiProcessorCount, cudaDevAttrMultiProcessorCount, 0);
  check_attr("sharedMemPerBlock", (long long)p.sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  check_attr("warpSize", p.warpSize, cudaDevAttrWarpSize, 0);
  check_attr("l2CacheSize", p.l2CacheSize, cudaDevAttrL2CacheSize, 0);
  check_attr("maxThreadsPerBlock", p.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, 0);
  check_attr("pciBusID", p.pciBusID, cudaDevAttrPciBusId, 0);
  check_attr("memoryPoolsSupported", p.memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported, 0);
#if CUDART_VERSION >= 13000
  check_attr("gpuPciDeviceID", p.gpuPciDeviceID, cudaDevAttrGpuPciDeviceId, 0);
#else
  check_attr("clockRate", p.clockRate, cudaDevAttrClockRate, 0);
#endif

  /* Graph: capture a memset, instantiate with flags 0, launch, check. */
  const size_t n = 1 << 20;
  unsigned char *d = NULL;
  unsigned char *h = NULL;
  cudaStream_t s = NULL;
  cudaGraph_t g = NULL;
  cudaGraphExec_t x = NULL;
  e = cudaMalloc((void **)&d, n);
  if (e == cudaSuccess) e = cudaMallocHost((void **)&h, n);
  if (e == cudaSuccess) e = cudaStreamCreate(&s);
  if (e == cudaSuccess) e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e == cudaSuccess) e = cudaMemsetAsync(d, 0x5A, n, s);
  if (e == cudaSuccess) e = cudaStreamEndCapture(s, &g);
  check("capture", e == cudaSuccess, e, 0);
  if (e == cudaSuccess) {
    e = cudaGraphInstantiate(&x, g, 0);
    check("cudaGraphInstantiate(flags 0)", e == cudaSuccess, e, 0);
  }
  if (e == cudaSuccess) e = cudaGraphLaunch(x, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e == cudaSuccess) e = cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  check("launch + copy back", e == cudaSuccess, e, 0);
  if (e == cudaSuccess) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != 0x5A;
    check("graph memset result", bad == 0, (long long)bad, 0);
  }
  printf("%s\n", failures ? "RESULT FAIL" : "RESULT PASS");
  return failures ? 1 : 0;
}
