/* The device's state beyond memory and streams, through the runtime and driver APIs: limits,
 * flags, stream priorities, managed, registered and page-locked memory, stream-ordered
 * allocation, callbacks, capture modes and capture information, device lookups, resets. No
 * kernel, so that it runs the same on a GPU linked to NVIDIA's libraries (tests/gpu/graphs.sh)
 * and on the mock device linked to the stubs (tests/tests/mock_vs_h200.rs), whose lines must be
 * the GPU's. One line per step: return codes and what came back. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

static void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void *user) {
  (void)stream;
  *(int *)user = 100 + (int)status;
}

static void limits(void) {
  static const enum cudaLimit all[] = {cudaLimitStackSize, cudaLimitPrintfFifoSize,
                                       cudaLimitMallocHeapSize, cudaLimitDevRuntimeSyncDepth,
                                       cudaLimitDevRuntimePendingLaunchCount,
                                       cudaLimitMaxL2FetchGranularity};
  printf("limits");
  for (int i = 0; i < 6; i++) {
    size_t v = 0;
    int rc = (int)cudaDeviceGetLimit(&v, all[i]);
    printf(" %d:rc=%d,%zu", (int)all[i], rc, v);
  }
  printf("\n");
  size_t heap = 0, stack = 0, dheap = 0;
  int s1 = (int)cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  int s2 = (int)cudaDeviceSetLimit(cudaLimitStackSize, 4000);
  cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  int bad = (int)cudaDeviceSetLimit((enum cudaLimit)99, 1);
  (void)cudaGetLastError();
  cuCtxGetLimit(&dheap, CU_LIMIT_MALLOC_HEAP_SIZE);
  printf("set limits rc=%d,%d heap=%zu stack=%zu unknown rc=%d driver heap=%zu\n", s1, s2, heap,
         stack, bad, dheap);

  int least = 9, greatest = 9, dleast = 9, dgreatest = 9;
  int rc = (int)cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cuCtxGetStreamPriorityRange(&dleast, &dgreatest);
  cudaStream_t s = NULL;
  int c = (int)cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -100);
  int prio = 9, dprio = 9;
  unsigned flags = 9, dflags = 9;
  cudaStreamGetPriority(s, &prio);
  cudaStreamGetFlags(s, &flags);
  cudaStreamGetPriority(0, &dprio);
  cudaStreamGetFlags(0, &dflags);
  int dev = 9;
  int gd = (int)cudaStreamGetDevice(s, &dev);
  CUstream ds = NULL;
  int dc = (int)cuStreamCreateWithPriority(&ds, CU_STREAM_NON_BLOCKING, 5);
  int dsp = 9;
  cuStreamGetPriority(ds, &dsp);
  printf("priorities rc=%d range=%d,%d driver=%d,%d create rc=%d priority=%d flags=%u default "
         "stream priority=%d flags=%u device rc=%d,%d driver create rc=%d priority=%d\n",
         rc, least, greatest, dleast, dgreatest, c, prio, flags, dprio, dflags, gd, dev, dc, dsp);
  cudaStreamDestroy(s);
  cuStreamDestroy(ds);

  unsigned df = 99;
  int g1 = (int)cudaGetDeviceFlags(&df);
  int sf = (int)cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  unsigned df2 = 99;
  cudaGetDeviceFlags(&df2);
  int sfbad = (int)cudaSetDeviceFlags(0x1000);
  (void)cudaGetLastError();
  printf("device flags rc=%d flags=%u set rc=%d flags=%u bad rc=%d\n", g1, df, sf, df2, sfbad);
}

static void lookups(void) {
  char bus[32] = "";
  cudaDeviceGetPCIBusId(bus, sizeof bus, 0);
  int d = 9, bad_d = 9, chosen = 9;
  int rc = (int)cudaDeviceGetByPCIBusId(&d, bus);
  int lower = 9;
  for (char *p = bus; *p; p++)
    if (*p >= 'A' && *p <= 'F') *p = (char)(*p - 'A' + 'a');
  int lrc = (int)cudaDeviceGetByPCIBusId(&lower, bus);
  int bad = (int)cudaDeviceGetByPCIBusId(&bad_d, "0000:ff:1f.7");
  (void)cudaGetLastError();
  struct cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  want.major = 9;
  int ch = (int)cudaChooseDevice(&chosen, &want);
  int init = (int)cudaInitDevice(0, 0, 0);
  printf("lookups by bus id rc=%d device=%d lower case rc=%d,%d absent rc=%d choose rc=%d,%d "
         "init rc=%d\n",
         rc, d, lrc, lower, bad, ch, chosen, init);
}

static void memory(void) {
  /* Managed memory: written by the host, copied by the device, its attributes. */
  unsigned char *m = NULL;
  int rc = (int)cudaMallocManaged((void **)&m, 1 << 20, cudaMemAttachGlobal);
  void *unused = NULL;
  int bad = (int)cudaMallocManaged(&unused, 64, 0);
  (void)cudaGetLastError();
  unsigned char back[16] = {0};
  int c = -1;
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  if (rc == 0) {
    memset(m, 5, 16);
    c = (int)cudaMemcpy(back, m, 16, cudaMemcpyDefault);
    cudaPointerGetAttributes(&a, m + 8);
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  int ar = (int)cuMemGetAddressRange(&base, &size, (CUdeviceptr)(m + 100));
  unsigned managed = 9, mtype = 9;
  cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)m);
  cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)m);
  printf("managed rc=%d no flags rc=%d copy rc=%d byte=%d type=%d device=%d same pointers=%d "
         "range rc=%d base=%d size=%zu driver managed=%u type=%u\n",
         rc, bad, c, back[15], (int)a.type, a.device,
         a.devicePointer == (void *)(m + 8) && a.hostPointer == (void *)(m + 8), ar,
         base == (CUdeviceptr)m, size, managed, mtype);
  cudaFree(m);

  /* Registered host memory. */
  static _Alignas(4096) unsigned char buf[8192];
  int r1 = (int)cudaHostRegister(buf, 8192, cudaHostRegisterDefault);
  int r2 = (int)cudaHostRegister(buf, 8192, cudaHostRegisterDefault);
  (void)cudaGetLastError();
  memset(&a, 0, sizeof a);
  cudaPointerGetAttributes(&a, buf + 10);
  int reg_type = (int)a.type;
  void *dp = NULL;
  int gp = (int)cudaHostGetDevicePointer(&dp, buf, 0);
  unsigned hf = 99;
  int gf = (int)cudaHostGetFlags(&hf, buf);
  int u1 = (int)cudaHostUnregister(buf);
  int u2 = (int)cudaHostUnregister(buf);
  (void)cudaGetLastError();
  memset(&a, 0, sizeof a);
  cudaPointerGetAttributes(&a, buf);
  int after_type = (int)a.type;
  printf("registered rc=%d,%d type=%d device pointer rc=%d same=%d flags rc=%d,%u unregister "
         "rc=%d,%d type after=%d\n",
         r1, r2, reg_type, gp, dp == (void *)buf, gf, hf, u1, u2, after_type);

  /* Page-locked host memory through both APIs, and its flags. */
  void *h = NULL, *dh = NULL;
  int ha = (int)cudaHostAlloc(&h, 4096, cudaHostAllocMapped | cudaHostAllocPortable);
  unsigned haf = 99;
  cudaHostGetFlags(&haf, h);
  CUdeviceptr hd = 0;
  int hdp = (int)cuMemHostGetDevicePointer(&hd, h, 0);
  int da = (int)cuMemAllocHost(&dh, 4096);
  void *dh2 = NULL;
  int dha = (int)cuMemHostAlloc(&dh2, 4096, CU_MEMHOSTALLOC_DEVICEMAP);
  int df1 = (int)cuMemFreeHost(dh);
  int df2 = (int)cuMemFreeHost(dh2);
  int df3 = (int)cuMemFreeHost(dh2);
  cudaFreeHost(h);
  (void)cudaGetLastError();
  printf("host alloc rc=%d flags=%u driver device pointer rc=%d same=%d driver alloc rc=%d,%d "
         "free rc=%d,%d twice rc=%d\n",
         ha, haf, hdp, hd == (CUdeviceptr)h, da, dha, df1, df2, df3);

  /* The driver's managed memory and host registration. */
  CUdeviceptr dm = 0;
  int dmr = (int)cuMemAllocManaged(&dm, 4096, CU_MEM_ATTACH_GLOBAL);
  int dreg = (int)cuMemHostRegister(buf, 4096, 0);
  int dunreg = (int)cuMemHostUnregister(buf);
  int dunreg2 = (int)cuMemHostUnregister(buf);
  printf("driver managed rc=%d free rc=%d register rc=%d unregister rc=%d,%d\n", dmr,
         (int)cuMemFree(dm), dreg, dunreg, dunreg2);

  /* Stream-ordered allocation in the runtime; a callback. */
  cudaStream_t s;
  cudaStreamCreate(&s);
  void *p = NULL;
  int ma = (int)cudaMallocAsync(&p, 4096, s);
  int ms = (int)cudaMemsetAsync(p, 3, 4096, s);
  unsigned char tail[4] = {0};
  int mc = (int)cudaMemcpyAsync(tail, (char *)p + 4092, 4, cudaMemcpyDeviceToHost, s);
  int mf = (int)cudaFreeAsync(p, s);
  int called = 0;
  int cb = (int)cudaStreamAddCallback(s, stream_callback, &called, 0);
  int cbbad = (int)cudaStreamAddCallback(s, stream_callback, &called, 1);
  (void)cudaGetLastError();
  int sy = (int)cudaStreamSynchronize(s);
  cudaEvent_t e;
  cudaEventCreate(&e);
  int er = (int)cudaEventRecordWithFlags(e, s, cudaEventRecordDefault);
  int erx = (int)cudaEventRecordWithFlags(e, s, cudaEventRecordExternal);
  (void)cudaGetLastError();
  printf("stream-ordered rc=%d,%d,%d,%d byte=%d callback rc=%d bad flags rc=%d sync rc=%d "
         "called=%d record with flags rc=%d external rc=%d\n",
         ma, ms, mc, mf, tail[3], cb, cbbad, sy, called, er, erx);
  cudaEventDestroy(e);
  cudaStreamDestroy(s);
}

static void capture(void) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  void *d = NULL;
  cudaMalloc(&d, 256);

  /* A relaxed thread may call what a global capture forbids. */
  enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  int x1 = (int)cudaThreadExchangeStreamCaptureMode(&mode);
  int old = (int)mode;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  void *p = NULL;
  int mal = (int)cudaMalloc(&p, 64);
  cudaFree(p);
  cudaGraph_t g = NULL;
  int en = (int)cudaStreamEndCapture(s, &g);
  cudaGraphDestroy(g);
  mode = cudaStreamCaptureModeGlobal;
  cudaThreadExchangeStreamCaptureMode(&mode);
  int bad_mode = 7;
  int xbad = (int)cudaThreadExchangeStreamCaptureMode((enum cudaStreamCaptureMode *)&bad_mode);
  (void)cudaGetLastError();
  printf("exchange rc=%d old=%d relaxed thread's cudaMalloc rc=%d end rc=%d back=%d bad rc=%d\n",
         x1, old, mal, en, (int)mode, xbad);

  /* What a capture says of itself. */
  enum cudaStreamCaptureStatus st = 9;
  unsigned long long id = 0, id2 = 0;
  cudaGraph_t cg = NULL;
  const cudaGraphNode_t *deps = NULL;
  const cudaGraphEdgeData *edges = (const cudaGraphEdgeData *)1;
  size_t n = 99;
  int none = (int)cudaStreamGetCaptureInfo(s, &st, &id, NULL, NULL, NULL, NULL);
  int none_st = (int)st;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(d, 1, 256, s);
  cudaMemsetAsync(d, 2, 128, s);
  int info = (int)cudaStreamGetCaptureInfo(s, &st, &id, &cg, &deps, &edges, &n);
  cudaGraphNode_t last = n == 1 ? deps[0] : NULL;
  cudaStreamEndCapture(s, &g);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamGetCaptureInfo(s, &st, &id2, NULL, NULL, NULL, NULL);
  cudaGraph_t g2 = NULL;
  cudaStreamEndCapture(s, &g2);
  cudaGraphNode_t nodes[2] = {0};
  size_t count = 2;
  cudaGraphGetNodes(g, nodes, &count);
  CUstreamCaptureStatus dst = 9;
  cuuint64_t did = 0;
  int dinfo = (int)cuStreamGetCaptureInfo((CUstream)s, &dst, &did, NULL, NULL, NULL, NULL);
  printf("capture info outside rc=%d status=%d inside rc=%d status=%d id set=%d graph same=%d "
         "dependencies=%zu last node=%d edges=%s next id differs=%d driver rc=%d status=%d\n",
         none, none_st, info, (int)st, id != 0, cg == g, n, last == nodes[1],
         edges == NULL ? "NULL" : "set", id2 != id, dinfo, (int)dst);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g2);
  cudaFree(d);
  cudaStreamDestroy(s);
}

static void reset(void) {
  void *d = NULL;
  cudaMalloc(&d, 1 << 20);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int rc = (int)cudaDeviceReset();
  int old = (int)cudaFree(d);
  int last = (int)cudaGetLastError();
  void *d2 = NULL;
  int again = (int)cudaMalloc(&d2, 1 << 20);
  size_t heap = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  unsigned flags = 99;
  cudaGetDeviceFlags(&flags);
  cudaFree(d2);
  CUdevice dev = 0;
  cuDeviceGet(&dev, 0);
  int drc = (int)cuDevicePrimaryCtxReset(dev);
  unsigned pf = 99;
  int active = 9;
  cuDevicePrimaryCtxGetState(dev, &pf, &active);
  printf("reset rc=%d old pointer rc=%d last=%d malloc after rc=%d heap=%zu flags=%u driver "
         "reset rc=%d active=%d\n",
         rc, old, last, again, heap, flags, drc, active);
}

int main(void) {
  int n = 0;
  int rc = (int)cudaGetDeviceCount(&n);
  printf("devices rc=%d count=%d\n", rc, n);
  if (rc != 0) return 1;
  cudaSetDevice(0);
  cuInit(0);
  limits();
  lookups();
  memory();
  capture();
  reset();
  printf("last error=%d\n", (int)cudaGetLastError());
  return 0;
}
