/* Compiled against the CUDA 12.9 headers and linked against libstubs_cudart.so built with the
 * `abi-12` feature (CUDA 12's exported ABI). cudaGraphAddDependencies has 4 arguments here
 * (13.x added edge data): the stub must hand exactly those to a 12.x runtime, and refuse on
 * 13.x, where the same name takes 5. Prints `key=value` lines, including what the mock runtime
 * received (mock_take_calls of tests/mocks/cudart_abi.c). The other sections call each family
 * the abi-12 build translates for a 13.x runtime (stubs-cudart/src/adapters/abi12/); names
 * 12.x headers redirect to `_v2` (the legacy plain exports, what 11.x-built binaries call) and
 * the `_ptsz` twins are looked up in the stub with dlsym. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void calls(void) {
  static const char *sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};
  void (*take)(char *, size_t) = NULL;
  for (size_t i = 0; i < sizeof sonames / sizeof *sonames && take == NULL; i++) {
    void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (lib != NULL) *(void **)&take = dlsym(lib, "mock_take_calls");
  }
  char buf[4096] = "no-mock";
  if (take != NULL) take(buf, sizeof buf);
  printf("calls=%s\n", buf);
}

/* The stub's own export (not the header's redirected name). */
static void *stub(const char *name) {
  void *lib = dlopen("libstubs_cudart.so", RTLD_LAZY | RTLD_NOLOAD);
  return lib ? dlsym(lib, name) : NULL;
}

static void nodes(const char *key, cudaGraphNode_t *v, size_t n) {
  printf("%s=", key);
  for (size_t i = 0; i < n; i++) printf("%s%#llx", i ? "," : "", (unsigned long long)(uintptr_t)v[i]);
  printf("\n");
}

/* 0xAB bytes from `from` to `to` still 0xAB: "1". */
static int untouched(const void *p, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (((const unsigned char *)p)[i] != 0xAB) return 0;
  return 1;
}

static void graph_edges(void) {
  cudaGraphNode_t from[2] = {(cudaGraphNode_t)0x101, (cudaGraphNode_t)0x102};
  cudaGraphNode_t to[2] = {(cudaGraphNode_t)0x201, (cudaGraphNode_t)0x202};
  printf("remove=%d\n", (int)cudaGraphRemoveDependencies((cudaGraph_t)0x78, from, to, 2));
  calls();
  cudaGraphNode_t f[4] = {0}, t[4] = {0};
  size_t n = 4;
  int r = (int)cudaGraphGetEdges((cudaGraph_t)0x79, f, t, &n);
  printf("edges=%d n=%zu\n", r, n);
  nodes("edges_from", f, 4);
  nodes("edges_to", t, 4);
  calls();
  n = 0;
  r = (int)cudaGraphGetEdges((cudaGraph_t)0x79, NULL, NULL, &n);
  printf("edges_count=%d n=%zu\n", r, n);
  calls();
  cudaGraphNode_t d[2] = {0};
  n = 2;
  r = (int)cudaGraphNodeGetDependencies((cudaGraphNode_t)0x7A, d, &n);
  printf("node_deps=%d n=%zu\n", r, n);
  nodes("node_deps_list", d, 2);
  calls();
  d[0] = d[1] = (cudaGraphNode_t)0x5555;
  n = 2;
  r = (int)cudaGraphNodeGetDependentNodes((cudaGraphNode_t)0xBAD, d, &n);
  printf("dependents_bad=%d n=%zu\n", r, n);
  nodes("dependents_list", d, 2);
  calls();
}

static void mem_advise(void) {
  printf("advise=%d\n", (int)cudaMemAdvise((void *)0x5000, 64, cudaMemAdviseSetPreferredLocation, 3));
  calls();
  printf("advise_cpu=%d\n",
         (int)cudaMemAdvise((void *)0x5000, 64, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
  calls();
  printf("prefetch=%d\n",
         (int)cudaMemPrefetchAsync((void *)0x5000, 64, cudaCpuDeviceId, (cudaStream_t)0x99));
  calls();
  cudaError_t (*ptsz)(const void *, size_t, int, cudaStream_t) = NULL;
  *(void **)&ptsz = stub("cudaMemPrefetchAsync_ptsz");
  printf("prefetch_ptsz=%d\n", ptsz ? (int)ptsz((void *)0x5000, 0, 3, (cudaStream_t)0x98) : -1);
  calls();
}

static void capture(void) {
  /* The legacy 3-argument plain names (12.x headers call _v2 / _v3). */
  cudaError_t (*info)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *) = NULL;
  cudaError_t (*info_ptsz)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *) =
      NULL;
  *(void **)&info = stub("cudaStreamGetCaptureInfo");
  *(void **)&info_ptsz = stub("cudaStreamGetCaptureInfo_ptsz");
  enum cudaStreamCaptureStatus st = (enum cudaStreamCaptureStatus)-1;
  unsigned long long id = 0;
  int r = info ? (int)info((cudaStream_t)0x55, &st, &id) : -1;
  printf("capture=%d status=%d id=%llu\n", r, (int)st, id);
  calls();
  st = (enum cudaStreamCaptureStatus)-1;
  id = 0;
  r = info_ptsz ? (int)info_ptsz((cudaStream_t)0xBAD, &st, &id) : -1;
  printf("capture_bad=%d status=%d id=%llu\n", r, (int)st, id);
  calls();
  cudaGraphNode_t deps[2] = {(cudaGraphNode_t)0x301, (cudaGraphNode_t)0x302};
  printf("update=%d\n", (int)cudaStreamUpdateCaptureDependencies((cudaStream_t)0x56, deps, 2,
                                                                   cudaStreamSetCaptureDependencies));
  calls();
  cudaError_t (*update_ptsz)(cudaStream_t, cudaGraphNode_t *, size_t, unsigned) = NULL;
  *(void **)&update_ptsz = stub("cudaStreamUpdateCaptureDependencies_ptsz");
  printf("update_ptsz=%d\n", update_ptsz ? (int)update_ptsz((cudaStream_t)0x57, deps, 1, 0) : -1);
  calls();
}

static void pointer_attributes(void) {
  struct {
    struct cudaPointerAttributes a;
    unsigned char tail[64];
  } buf;
  memset(&buf, 0xAB, sizeof buf);
  cudaError_t r = cudaPointerGetAttributes(&buf.a, (void *)0x7000);
  printf("ptr=%d type=%d device=%d devptr=%#llx hostptr=%#llx tail=%d\n", (int)r, (int)buf.a.type,
         buf.a.device, (unsigned long long)(uintptr_t)buf.a.devicePointer,
         (unsigned long long)(uintptr_t)buf.a.hostPointer,
         untouched(&buf, sizeof buf.a, sizeof buf));
  printf("ptr_null=%d\n", (int)cudaPointerGetAttributes(NULL, (void *)0x7000));
}

static void device_properties(void) {
  /* The plain export has 11.x's 728-byte layout, a prefix of 12.9's 1032-byte struct. */
  cudaError_t (*get)(struct cudaDeviceProp *, int) = NULL;
  *(void **)&get = stub("cudaGetDeviceProperties");
  struct cudaDeviceProp p;
  memset(&p, 0xAB, sizeof p);
  cudaError_t r = get ? get(&p, 3) : (cudaError_t)-1;
  printf("props=%d name=%.16s major=%d sms=%d totalGlobalMem=%#zx clockRate=%d "
         "memoryClockRate=%d computeMode=%d coopMulti=%d reservedShm=%#zx tail=%d\n",
         (int)r, p.name, p.major, p.multiProcessorCount, p.totalGlobalMem, p.clockRate,
         p.memoryClockRate, p.computeMode, p.cooperativeMultiDeviceLaunch,
         p.reservedSharedMemPerBlock, untouched(&p, 728, sizeof p));
  memset(&p, 0xAB, sizeof p);
  r = get ? get(&p, 5) : (cudaError_t)-1;
  printf("props_bad=%d untouched=%d\n", (int)r, untouched(&p, 0, sizeof p));

  struct cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  strcpy(want.name, "want");
  want.major = 8;
  want.minor = 6;
  want.totalGlobalMem = 123;
  want.multiProcessorCount = 44;
  want.clockRate = 777;
  want.clusterLaunch = 1;
  int dev = -1;
  r = cudaChooseDevice(&dev, &want);
  printf("choose=%d device=%d\n", (int)r, dev);
  calls();
  dev = -1;
  r = cudaChooseDevice(&dev, NULL);
  printf("choose_null=%d device=%d\n", (int)r, dev);
  calls();
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("header=%d\n", CUDART_VERSION);
  int version = 0;
  cudaRuntimeGetVersion(&version);
  printf("runtime=%d\n", version);
  calls();
  cudaGraphNode_t from[2] = {(cudaGraphNode_t)0x101, (cudaGraphNode_t)0x102};
  cudaGraphNode_t to[2] = {(cudaGraphNode_t)0x201, (cudaGraphNode_t)0x202};
  cudaError_t r = cudaGraphAddDependencies((cudaGraph_t)0x77, from, to, 2);
  printf("deps=%d\n", (int)r);
  calls();
  graph_edges();
  mem_advise();
  capture();
  pointer_attributes();
  device_properties();
  return 0;
}
