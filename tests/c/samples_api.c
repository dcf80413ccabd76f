/* The runtime and driver calls NVIDIA's cuda-samples make beyond memory, streams and kernels
 * (issue 48 item 5): the profiler's start and stop (matrixMul, asyncAPI), stream attributes
 * (simpleAttributes), the prefetch of managed memory (UnifiedMemoryPerf), devices' default
 * memory pools and their attributes (streamOrderedAllocation), memcpy nodes of 3D parameters
 * (simpleCudaGraphs, jacobiCudaGraphs), graph memory attributes (graphMemoryFootprint) and
 * stream-ordered allocation in a capture (graphMemoryNodes), managed memory attached to a
 * stream (UnifiedMemoryPerf), peers' attributes (topologyQuery) and access to a pool
 * (streamOrderedAllocationP2P); and their driver twins. No
 * kernel, so that it runs the same on a GPU linked to NVIDIA's libraries
 * (tests/gpu/samples_api.sh) and on the mock linked to the stubs
 * (tests/tests/mock_samples_api.rs). One line per step: return codes and what came back. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* cuda_profiler_api.h and cudaProfiler.h's prototypes: not every CUDA layout ships them (the
 * redistributable wheels do not). */
extern cudaError_t CUDARTAPI cudaProfilerStart(void);
extern cudaError_t CUDARTAPI cudaProfilerStop(void);
extern CUresult CUDAAPI cuProfilerStart(void);
extern CUresult CUDAAPI cuProfilerStop(void);

/* driver_functions.h's make_cudaPitchedPtr and make_cudaExtent (static inline there, in a
 * header that C programs do not include). */
static struct cudaPitchedPtr pitched(void *ptr, size_t pitch, size_t xsize, size_t ysize) {
  struct cudaPitchedPtr p = {ptr, pitch, xsize, ysize};
  return p;
}

static struct cudaExtent extent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}

static void profiler(void) {
  int a = (int)cudaProfilerStart(), b = (int)cudaProfilerStop();
  int c = (int)cuProfilerStart(), d = (int)cuProfilerStop();
  printf("profiler rc=%d,%d driver rc=%d,%d\n", a, b, c, d);
}

static void stream_attributes(void) {
  cudaStream_t s;
  int rc0 = (int)cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1);
  cudaStreamAttrValue v;
  memset(&v, 0, sizeof v);
  int g0 = (int)cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);
  printf("window default rc=%d,%d bytes=%zu ratio=%.2f\n", rc0, g0, v.accessPolicyWindow.num_bytes,
         (double)v.accessPolicyWindow.hitRatio);
  static char data[1 << 16];
  memset(&v, 0, sizeof v);
  v.accessPolicyWindow.base_ptr = data;
  v.accessPolicyWindow.num_bytes = sizeof data;
  v.accessPolicyWindow.hitRatio = 0.6f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  int s1 = (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);
  cudaStreamAttrValue back;
  memset(&back, 0, sizeof back);
  int g1 = (int)cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back);
  printf("window set rc=%d,%d same=%d bytes=%zu ratio=%.2f hit=%d miss=%d\n", s1, g1,
         back.accessPolicyWindow.base_ptr == (void *)data, back.accessPolicyWindow.num_bytes,
         (double)back.accessPolicyWindow.hitRatio, (int)back.accessPolicyWindow.hitProp,
         (int)back.accessPolicyWindow.missProp);
  v.accessPolicyWindow.hitRatio = 1.5f;
  printf("window ratio 1.5 rc=%d\n",
         (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  memset(&back, 0, sizeof back);
  int p = (int)cudaStreamGetAttribute(s, cudaStreamAttributePriority, &back);
  printf("priority rc=%d value=%d\n", p, back.priority);
  memset(&v, 0, sizeof v);
  v.syncPolicy = cudaSyncPolicyYield;
  int s2 = (int)cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v);
  CUstreamAttrValue dv;
  memset(&dv, 0, sizeof dv);
  int g2 = (int)cuStreamGetAttribute((CUstream)s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &dv);
  printf("sync policy rc=%d driver get rc=%d value=%d\n", s2, g2, (int)dv.syncPolicy);
  printf("destroy rc=%d\n", (int)cudaStreamDestroy(s));
  cudaGetLastError();
}

static void prefetch(void) {
  float *m = NULL, *d = NULL;
  int a = (int)cudaMallocManaged((void **)&m, 1 << 20, cudaMemAttachGlobal);
  int b = (int)cudaMalloc((void **)&d, 1 << 20);
  struct cudaMemLocation dev = {.type = cudaMemLocationTypeDevice, .id = 0};
  struct cudaMemLocation host = {.type = cudaMemLocationTypeHost, .id = 0};
  struct cudaMemLocation bad = {.type = cudaMemLocationTypeDevice, .id = 99};
  int p1 = (int)cudaMemPrefetchAsync(m, 1 << 20, dev, 0, 0);
  int p2 = (int)cudaMemPrefetchAsync(m, 1 << 20, host, 0, 0);
  int s = (int)cudaStreamSynchronize(0);
  printf("prefetch managed rc=%d,%d device=%d host=%d sync=%d\n", a, b, p1, p2, s);
  printf("prefetch bad device rc=%d\n", (int)cudaMemPrefetchAsync(m, 1 << 20, bad, 0, 0));
  cudaGetLastError();
  CUmemLocation cdev = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0};
  printf("driver prefetch managed rc=%d\n",
         (int)cuMemPrefetchAsync((CUdeviceptr)m, 1 << 20, cdev, 0, 0));
  cudaFree(m);
  cudaFree(d);
}

static void pools(void) {
  cudaMemPool_t pool = NULL, cur = NULL;
  int a = (int)cudaDeviceGetDefaultMemPool(&pool, 0);
  int b = (int)cudaDeviceGetMemPool(&cur, 0);
  CUmemoryPool dpool = NULL;
  int c = (int)cuDeviceGetDefaultMemPool(&dpool, 0);
  printf("pool rc=%d,%d,%d same=%d,%d\n", a, b, c, pool == cur, (void *)pool == (void *)dpool);
  cudaMemPool_t none = NULL;
  printf("pool of device 99 rc=%d\n", (int)cudaDeviceGetDefaultMemPool(&none, 99));
  cudaGetLastError();
  uint64_t threshold = 0;
  int g0 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  int reuse = -1, type = -1, id = -1;
  int g1 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse);
  int g2 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolAttrLocationType, &type);
  int g3 = (int)cudaMemPoolGetAttribute(pool, cudaMemPoolAttrLocationId, &id);
  printf("pool attributes rc=%d,%d,%d,%d threshold=%llu reuse=%d type=%d id=%d\n", g0, g1, g2, g3,
         (unsigned long long)threshold, reuse, type, id);
  threshold = UINT64_MAX;
  int s0 = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  threshold = 0;
  int g4 = (int)cuMemPoolGetAttribute(dpool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
  printf("threshold set rc=%d driver get rc=%d max=%d\n", s0, g4, threshold == UINT64_MAX);
  uint64_t used = 0, high = 0;
  void *p = NULL;
  int m0 = (int)cudaMallocAsync(&p, 3 << 20, 0);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  int f0 = (int)cudaFreeAsync(p, 0);
  cudaStreamSynchronize(0);
  uint64_t after = 1;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &after);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
  printf("used rc=%d,%d during=%llu after=%llu high=%llu\n", m0, f0, (unsigned long long)used,
         (unsigned long long)after, (unsigned long long)high);
  uint64_t zero = 0, seven = 7;
  int r0 = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
  int r1 = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &seven);
  int r2 = (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero);
  printf("high reset rc=%d high=%llu set 7 rc=%d set current rc=%d\n", r0, (unsigned long long)high,
         r1, r2);
  cudaGetLastError();
  printf("trim rc=%d\n", (int)cudaMemPoolTrimTo(pool, 0));
}

static void memcpy_nodes(void) {
  enum { N = 256 };
  static float host[N], back[N];
  for (int i = 0; i < N; i++) host[i] = (float)i;
  float *d = NULL;
  cudaMalloc((void **)&d, sizeof host);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  struct cudaMemcpy3DParms up;
  memset(&up, 0, sizeof up);
  up.srcPtr = pitched(host, sizeof host, N, 1);
  up.dstPtr = pitched(d, sizeof host, N, 1);
  up.extent = extent(sizeof host, 1, 1);
  up.kind = cudaMemcpyHostToDevice;
  struct cudaMemcpy3DParms down = up;
  down.srcPtr = up.dstPtr;
  down.dstPtr = pitched(back, sizeof back, N, 1);
  down.kind = cudaMemcpyDeviceToHost;
  cudaGraphNode_t n1, n2;
  int a1 = (int)cudaGraphAddMemcpyNode(&n1, g, NULL, 0, &up);
  int a2 = (int)cudaGraphAddMemcpyNode(&n2, g, &n1, 1, &down);
  struct cudaMemcpy3DParms got;
  memset(&got, 0, sizeof got);
  int gp = (int)cudaGraphMemcpyNodeGetParams(n2, &got);
  enum cudaGraphNodeType t = cudaGraphNodeTypeEmpty;
  cudaGraphNodeGetType(n1, &t);
  printf("memcpy nodes rc=%d,%d type=%d get rc=%d same=%d,%d kind=%d\n", a1, a2, (int)t, gp,
         got.srcPtr.ptr == (void *)d, got.dstPtr.ptr == (void *)back, (int)got.kind);
  cudaGraphExec_t e;
  int i0 = (int)cudaGraphInstantiate(&e, g, 0);
  int l0 = (int)cudaGraphLaunch(e, 0);
  int s0 = (int)cudaStreamSynchronize(0);
  printf("memcpy graph rc=%d,%d,%d back[255]=%.0f\n", i0, l0, s0, (double)back[N - 1]);
  /* The node's copy changed to the first half only. */
  memset(back, 0, sizeof back);
  down.extent = extent(sizeof host / 2, 1, 1);
  int sp = (int)cudaGraphMemcpyNodeSetParams(n2, &down);
  cudaGraphExec_t e2;
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphLaunch(e2, 0);
  cudaStreamSynchronize(0);
  printf("memcpy set params rc=%d back[127]=%.0f back[128]=%.0f\n", sp, (double)back[127],
         (double)back[128]);
  /* A clone runs the same copies (the set one: the first half). */
  cudaGraph_t clone = NULL;
  int c0 = (int)cudaGraphClone(&clone, g);
  size_t cloned = 0;
  cudaGraphGetNodes(clone, NULL, &cloned);
  memset(back, 0, sizeof back);
  cudaGraphExec_t e3;
  int c1 = (int)cudaGraphInstantiate(&e3, clone, 0);
  int c2 = (int)cudaGraphLaunch(e3, 0);
  cudaStreamSynchronize(0);
  printf("clone rc=%d,%d,%d nodes=%zu back[127]=%.0f back[128]=%.0f\n", c0, c1, c2, cloned,
         (double)back[127], (double)back[128]);
  cudaGraphExecDestroy(e3);
  cudaGraphDestroy(clone);
  /* The driver's memcpy node: device to host, the whole buffer. */
  CUDA_MEMCPY3D dp;
  memset(&dp, 0, sizeof dp);
  dp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  dp.srcDevice = (CUdeviceptr)d;
  dp.srcPitch = sizeof host;
  dp.srcHeight = 1;
  dp.dstMemoryType = CU_MEMORYTYPE_HOST;
  dp.dstHost = back;
  dp.dstPitch = sizeof back;
  dp.dstHeight = 1;
  dp.WidthInBytes = sizeof host;
  dp.Height = 1;
  dp.Depth = 1;
  CUgraph dg;
  cuGraphCreate(&dg, 0);
  CUgraphNode dn;
  CUcontext ctx = NULL;
  cuCtxGetCurrent(&ctx);
  int d0 = (int)cuGraphAddMemcpyNode(&dn, dg, NULL, 0, &dp, ctx);
  CUDA_MEMCPY3D dgot;
  memset(&dgot, 0, sizeof dgot);
  int d1 = (int)cuGraphMemcpyNodeGetParams(dn, &dgot);
  memset(back, 0, sizeof back);
  CUgraphExec de;
  int d2 = (int)cuGraphInstantiate(&de, dg, 0);
  int d3 = (int)cuGraphLaunch(de, 0);
  int d4 = (int)cuStreamSynchronize(0);
  printf("driver memcpy node rc=%d,%d,%d,%d,%d same=%d back[255]=%.0f\n", d0, d1, d2, d3, d4,
         dgot.dstHost == (void *)back && dgot.WidthInBytes == sizeof host, (double)back[N - 1]);
  cuGraphExecDestroy(de);
  cuGraphDestroy(dg);
  struct cudaMemcpy3DParms wrong = up;
  wrong.dstPtr = pitched(d + N, sizeof host, N, 1);
  cudaGraphNode_t n3;
  printf("memcpy node past the end rc=%d\n", (int)cudaGraphAddMemcpyNode(&n3, g, NULL, 0, &wrong));
  cudaGetLastError();
  cudaGraphExecDestroy(e);
  cudaGraphExecDestroy(e2);
  cudaGraphDestroy(g);
  cudaFree(d);
}

static void graph_memory(void) {
  uint64_t used = 1, reserved = 1, zero = 0, seven = 7;
  int a = (int)cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  int b = (int)cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  int c = (int)cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero);
  int d = (int)cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &seven);
  int e = (int)cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero);
  int f = (int)cudaDeviceGraphMemTrim(0);
  cudaGetLastError();
  printf("graph memory rc=%d,%d used=%llu reserved=%llu reset rc=%d set 7 rc=%d set current rc=%d "
         "trim rc=%d\n",
         a, b, (unsigned long long)used, (unsigned long long)reserved, c, d, e, f);
}

static void captured_allocation(void) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  static int host[64], back[64];
  for (int i = 0; i < 64; i++) host[i] = i * 3;
  int b0 = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  void *p = NULL;
  int m0 = (int)cudaMallocAsync(&p, sizeof host, s);
  int c0 = (int)cudaMemcpyAsync(p, host, sizeof host, cudaMemcpyHostToDevice, s);
  int c1 = (int)cudaMemcpyAsync(back, p, sizeof host, cudaMemcpyDeviceToHost, s);
  int f0 = (int)cudaFreeAsync(p, s);
  cudaGraph_t g = NULL;
  int e0 = (int)cudaStreamEndCapture(s, &g);
  size_t count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  cudaGraphNode_t nodes[8];
  size_t n = count < 8 ? count : 8;
  cudaGraphGetNodes(g, nodes, &n);
  enum cudaGraphNodeType first = cudaGraphNodeTypeEmpty, last = cudaGraphNodeTypeEmpty;
  if (n > 0) {
    cudaGraphNodeGetType(nodes[0], &first);
    cudaGraphNodeGetType(nodes[n - 1], &last);
  }
  printf("capture malloc rc=%d,%d,%d,%d,%d,%d nodes=%zu first=%d last=%d\n", b0, m0, c0, c1, f0,
         e0, count, (int)first, (int)last);
  cudaGraphExec_t e;
  int i0 = (int)cudaGraphInstantiate(&e, g, 0);
  int l0 = (int)cudaGraphLaunch(e, s);
  int s0 = (int)cudaStreamSynchronize(s);
  printf("captured graph rc=%d,%d,%d back[63]=%d\n", i0, l0, s0, back[63]);
  /* The launched graph's memory node is the device's graph memory until the executable graph
   * is gone (and trimmed); the high watermark keeps it. */
  uint64_t used = 0, high = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("graph memory after launch used>=256: %d\n", used >= sizeof host);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaDeviceGraphMemTrim(0);
  uint64_t reserved = 1;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high);
  printf("graph memory after destroy and trim used=%llu reserved=%llu high>=256: %d\n",
         (unsigned long long)used, (unsigned long long)reserved, high >= sizeof host);
  cudaStreamDestroy(s);
}

/* Managed memory attached to a stream (UnifiedMemoryPerf) and peers' attributes
 * (topologyQuery), with their driver twins. A pair of devices only where there are two (the
 * mock's h200:2, tests/tests/mock_samples_api.rs): a device is no peer of itself. */
static void attach_and_peers(void) {
  float *m = NULL;
  cudaStream_t s;
  int a = (int)cudaMallocManaged((void **)&m, 1 << 16, cudaMemAttachGlobal);
  int b = (int)cudaStreamCreate(&s);
  int single = (int)cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle);
  int host = (int)cudaStreamAttachMemAsync(s, m, 1 << 16, cudaMemAttachHost);
  int global = (int)cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachGlobal);
  int sync = (int)cudaStreamSynchronize(s);
  printf("attach managed rc=%d,%d single=%d host=%d global=%d sync=%d\n", a, b, single, host,
         global, sync);
  /* Part of a managed allocation, or flags no enumerator names. */
  int part = (int)cudaStreamAttachMemAsync(s, m, 4096, cudaMemAttachSingle);
  int flags = (int)cudaStreamAttachMemAsync(s, m, 0, 3);
  cudaGetLastError();
  printf("attach part rc=%d flags 3 rc=%d\n", part, flags);
  printf("driver attach rc=%d\n", (int)cuStreamAttachMemAsync((CUstream)s, (CUdeviceptr)m, 0,
                                                              CU_MEM_ATTACH_SINGLE));
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaFree(m);
  int v = -1, n = 0;
  int same = (int)cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0);
  int none = (int)cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 99);
  cudaGetLastError();
  CUdevice d0 = 0;
  int dsame = (int)cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, d0, d0);
  printf("p2p same device rc=%d device 99 rc=%d driver rc=%d\n", same, none, dsame);
  /* A pool's own device has read-write access (cudaMemAccessFlagsProtReadWrite, 3). */
  cudaMemPool_t pool;
  enum cudaMemAccessFlags own = cudaMemAccessFlagsProtNone;
  struct cudaMemLocation dev0 = {.type = cudaMemLocationTypeDevice, .id = 0};
  struct cudaMemAccessDesc rw0 = {.location = dev0, .flags = cudaMemAccessFlagsProtReadWrite};
  int g = (int)cudaDeviceGetDefaultMemPool(&pool, 0);
  int ga = (int)cudaMemPoolGetAccess(&own, pool, &dev0);
  int sa = (int)cudaMemPoolSetAccess(pool, &rw0, 1);
  CUmemAccess_flags cown = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CUmemLocation cdev0 = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0};
  int dga = (int)cuMemPoolGetAccess(&cown, (CUmemoryPool)pool, &cdev0);
  printf("pool access rc=%d,%d,%d own=%d driver rc=%d own=%d\n", g, ga, sa, (int)own, dga,
         (int)cown);
  cudaGetDeviceCount(&n);
  if (n < 2) {
    printf("p2p pair none\n");
    return;
  }
  /* Device 1 given read-write access to device 0's pool, then none; the mock's answers for what
   * a one-GPU board cannot show: the pool's own device given none, a location that is no
   * device (cudaErrorInvalidValue), read-only access (not modelled: cudaErrorNotSupported). */
  struct cudaMemLocation dev1 = {.type = cudaMemLocationTypeDevice, .id = 1};
  struct cudaMemAccessDesc rw1 = {.location = dev1, .flags = cudaMemAccessFlagsProtReadWrite};
  struct cudaMemAccessDesc none1 = {.location = dev1, .flags = cudaMemAccessFlagsProtNone};
  enum cudaMemAccessFlags before = 9, given = 9, after = 9;
  int p1 = (int)cudaMemPoolGetAccess(&before, pool, &dev1);
  int p2 = (int)cudaMemPoolSetAccess(pool, &rw1, 1);
  int p3 = (int)cudaMemPoolGetAccess(&given, pool, &dev1);
  CUmemAccess_flags cgiven = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CUmemLocation cdev1 = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 1};
  int p4 = (int)cuMemPoolGetAccess(&cgiven, (CUmemoryPool)pool, &cdev1);
  int p5 = (int)cudaMemPoolSetAccess(pool, &none1, 1);
  int p6 = (int)cudaMemPoolGetAccess(&after, pool, &dev1);
  struct cudaMemAccessDesc none0 = {.location = dev0, .flags = cudaMemAccessFlagsProtNone};
  struct cudaMemAccessDesc read1 = {.location = dev1, .flags = cudaMemAccessFlagsProtRead};
  struct cudaMemLocation dev99 = {.type = cudaMemLocationTypeDevice, .id = 99};
  struct cudaMemAccessDesc rw99 = {.location = dev99, .flags = cudaMemAccessFlagsProtReadWrite};
  int q1 = (int)cudaMemPoolSetAccess(pool, &none0, 1);
  int q2 = (int)cudaMemPoolSetAccess(pool, &rw99, 1);
  int q3 = (int)cudaMemPoolSetAccess(pool, &read1, 1);
  cudaGetLastError();
  printf("pool peer rc=%d,%d,%d,%d,%d,%d before=%d given=%d driver=%d after=%d own none rc=%d "
         "device 99 rc=%d read rc=%d\n",
         p1, p2, p3, p4, p5, p6, (int)before, (int)given, (int)cgiven, (int)after, q1, q2, q3);
  int rank = -1, access = -1, atomics = -1, arrays = -1, drv = -1;
  int r1 = (int)cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, 0, 1);
  int r2 = (int)cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, 0, 1);
  int r3 = (int)cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, 1, 0);
  int r4 = (int)cudaDeviceGetP2PAttribute(&arrays, cudaDevP2PAttrCudaArrayAccessSupported, 0, 1);
  int r5 = (int)cudaDeviceGetP2PAttribute(&v, (enum cudaDeviceP2PAttr)99, 0, 1);
  cudaGetLastError();
  int r6 = (int)cuDeviceGetP2PAttribute(&drv, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 1, 0);
  printf("p2p pair rc=%d,%d,%d,%d rank=%d access=%d atomics=%d arrays=%d attr 99 rc=%d driver "
         "rc=%d access=%d\n",
         r1, r2, r3, r4, rank, access, atomics, arrays, r5, r6, drv);
}

int main(void) {
  int rc = (int)cudaSetDevice(0);
  int drc = (int)cuInit(0);
  printf("init rc=%d,%d\n", rc, drc);
  profiler();
  stream_attributes();
  prefetch();
  pools();
  memcpy_nodes();
  graph_memory();
  captured_allocation();
  attach_and_peers();
  return 0;
}
