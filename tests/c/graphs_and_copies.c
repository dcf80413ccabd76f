/* Graphs, stream capture, 2D/3D and peer copies through the runtime and driver APIs, as a
 * program sees them; no kernel, so that it runs the same on a GPU (linked to NVIDIA's
 * libraries: tests/gpu/graphs.sh) and on the mock device (linked to the stubs:
 * tests/tests/mock_vs_h200.rs), whose answers must be the GPU's. Prints one line per step: the
 * return codes and what the bytes came back as. `peer`: also the peer steps (two devices).
 * Built once as is and once with CUDA_API_PER_THREAD_DEFAULT_STREAM (the `_ptsz`/`_ptds`
 * entry points). */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void CUDART_CB add_one(void *p) { (*(int *)p)++; }

static int all(const unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return 0;
  return 1;
}

static cudaStream_t other_thread_stream;
static int other_thread_rc = -1;

static void *end_elsewhere(void *unused) {
  (void)unused;
  cudaGraph_t g = NULL;
  other_thread_rc = (int)cudaStreamEndCapture(other_thread_stream, &g);
  return NULL;
}

static void pitched(void) {
  /* 2D: a pitched allocation, rows copied in, a memset of each row's first bytes, back. */
  void *d = NULL;
  size_t pitch = 0;
  int rc = (int)cudaMallocPitch(&d, &pitch, 100, 8);
  printf("cudaMallocPitch rc=%d pitch=%zu\n", rc, pitch);
  static unsigned char host[8][100], back[8][100];
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 100; c++) host[r][c] = (unsigned char)(r * 100 + c);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int c1 = (int)cudaMemcpy2D(d, pitch, host, 100, 100, 8, cudaMemcpyHostToDevice);
  int c2 = (int)cudaMemset2D(d, pitch, 9, 10, 8);
  int c3 = (int)cudaMemcpy2DAsync(back, 100, d, pitch, 100, 8, cudaMemcpyDeviceToHost, s);
  int c4 = (int)cudaStreamSynchronize(s);
  int same = 1;
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 100; c++) same &= back[r][c] == (c < 10 ? 9 : host[r][c]);
  int bad = (int)cudaMemcpy2D(d, 50, host, 100, 100, 8, cudaMemcpyHostToDevice);
  (void)cudaGetLastError();
  printf("2D rc=%d,%d,%d,%d same=%d pitch below width rc=%d\n", c1, c2, c3, c4, same, bad);

  /* The driver's 2D copy from an offset (x 4 bytes, row 1) of the pitched rows. */
  CUDA_MEMCPY2D p2 = {0};
  p2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  p2.srcDevice = (CUdeviceptr)d;
  p2.srcPitch = pitch;
  p2.srcXInBytes = 4;
  p2.srcY = 1;
  p2.dstMemoryType = CU_MEMORYTYPE_HOST;
  p2.dstHost = back;
  p2.dstPitch = 100;
  p2.WidthInBytes = 20;
  p2.Height = 2;
  memset(back, 0, sizeof back);
  rc = (int)cuMemcpy2D(&p2);
  printf("cuMemcpy2D rc=%d first=%d,%d second row=%d\n", rc, back[0][0], back[0][19],
         back[1][19]);
  cudaFree(d);

  /* 3D: a pitched volume, a host volume copied in, a memset of a corner, one slice back. */
  struct cudaExtent e = {64, 4, 3};
  struct cudaPitchedPtr pp = {0};
  rc = (int)cudaMalloc3D(&pp, e);
  printf("cudaMalloc3D rc=%d pitch=%zu xsize=%zu ysize=%zu\n", rc, pp.pitch, pp.xsize, pp.ysize);
  static unsigned char vol[3][4][64], slice[3][64];
  for (int z = 0; z < 3; z++)
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 64; x++) vol[z][y][x] = (unsigned char)(z * 50 + y * 10 + x % 10);
  struct cudaMemcpy3DParms in = {0};
  in.srcPtr = (struct cudaPitchedPtr){vol, 64, 64, 4};
  in.dstPtr = pp;
  in.extent = e;
  in.kind = cudaMemcpyHostToDevice;
  int m1 = (int)cudaMemcpy3D(&in);
  int m2 = (int)cudaMemset3D(pp, 200, (struct cudaExtent){8, 1, 3});
  struct cudaMemcpy3DParms out = {0};
  out.srcPtr = pp;
  out.srcPos = (struct cudaPos){0, 0, 2};
  out.dstPtr = (struct cudaPitchedPtr){slice, 64, 64, 3};
  out.extent = (struct cudaExtent){64, 3, 1};
  out.kind = cudaMemcpyDeviceToHost;
  int m3 = (int)cudaMemcpy3D(&out);
  printf("3D rc=%d,%d,%d corner=%d after=%d row 2=%d\n", m1, m2, m3, slice[0][0], slice[0][8],
         slice[2][5]);
  cudaFree(pp.ptr);
  cudaStreamDestroy(s);
}

static void graphs(void) {
  cudaStream_t s, s2;
  cudaStreamCreate(&s);
  cudaStreamCreate(&s2);
  unsigned char *d = NULL;
  cudaMalloc((void **)&d, 256);
  static unsigned char host[256];
  int counter = 0;

  /* A graph by hand: memset -> copy to the host -> host function; an empty node beside. */
  cudaGraph_t g = NULL;
  int rc = (int)cudaGraphCreate(&g, 0);
  cudaGraphNode_t set = NULL, copy = NULL, fn = NULL, empty = NULL;
  struct cudaMemsetParams mp = {0};
  mp.dst = d;
  mp.value = 0x07070707;
  mp.elementSize = 4;
  mp.width = 64;
  mp.height = 1;
  int n1 = (int)cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp);
  int n2 = (int)cudaGraphAddMemcpyNode1D(&copy, g, &set, 1, host, d, 256, cudaMemcpyDeviceToHost);
  struct cudaHostNodeParams hp = {add_one, &counter};
  int n3 = (int)cudaGraphAddHostNode(&fn, g, &copy, 1, &hp);
  int n4 = (int)cudaGraphAddEmptyNode(&empty, g, NULL, 0);
  size_t count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  enum cudaGraphNodeType t1 = 9, t4 = 9;
  cudaGraphNodeGetType(set, &t1);
  cudaGraphNodeGetType(empty, &t4);
  cudaGraphExec_t x = NULL;
  int i1 = (int)cudaGraphInstantiate(&x, g, 0);
  int l1 = (int)cudaGraphLaunch(x, s);
  int l2 = (int)cudaGraphLaunch(x, s);
  int sy = (int)cudaStreamSynchronize(s);
  printf("graph rc=%d nodes rc=%d,%d,%d,%d count=%zu types=%d,%d instantiate rc=%d launches "
         "rc=%d,%d sync rc=%d counter=%d bytes=%d\n",
         rc, n1, n2, n3, n4, count, (int)t1, (int)t4, i1, l1, l2, sy, counter,
         all(host, 256, 7));
  /* A node after one of another graph. */
  cudaGraph_t g2 = NULL;
  cudaGraphCreate(&g2, 0);
  cudaGraphNode_t foreign = NULL;
  int cross = (int)cudaGraphAddEmptyNode(&foreign, g2, &set, 1);
  (void)cudaGetLastError();
  printf("dependency in another graph rc=%d\n", cross);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaGraphDestroy(g2);

  /* Captured: memset, copy, host function; replayed three times. */
  counter = 0;
  memset(host, 0, sizeof host);
  enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  int b = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  int a1 = (int)cudaMemsetAsync(d, 3, 256, s);
  int a2 = (int)cudaMemcpyAsync(host, d, 256, cudaMemcpyDeviceToHost, s);
  int a3 = (int)cudaLaunchHostFunc(s, add_one, &counter);
  cudaStreamIsCapturing(s, &st);
  int during = counter + all(host, 256, 3);
  int en = (int)cudaStreamEndCapture(s, &g);
  enum cudaStreamCaptureStatus after = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &after);
  count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  cudaGraphNode_t nodes[4] = {0};
  size_t asked = 4;
  cudaGraphGetNodes(g, nodes, &asked);
  enum cudaGraphNodeType types[3] = {9, 9, 9};
  for (int i = 0; i < 3; i++) cudaGraphNodeGetType(nodes[i], &types[i]);
  cudaGraphInstantiate(&x, g, 0);
  for (int i = 0; i < 3; i++) cudaGraphLaunch(x, s);
  cudaStreamSynchronize(s);
  printf("capture begin rc=%d ops rc=%d,%d,%d status=%d ran during=%d end rc=%d status after=%d "
         "nodes=%zu asked=%zu last=%s types=%d,%d,%d replays counter=%d bytes=%d\n",
         b, a1, a2, a3, (int)st, during, en, (int)after, count, asked,
         nodes[3] == NULL ? "NULL" : "set", (int)types[0], (int)types[1], (int)types[2], counter,
         all(host, 256, 3));
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);

  /* A fork and a join through events: both streams' work in one graph. */
  cudaEvent_t e1, e2;
  cudaEventCreateWithFlags(&e1, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&e2, cudaEventDisableTiming);
  b = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  a1 = (int)cudaEventRecord(e1, s);
  a2 = (int)cudaStreamWaitEvent(s2, e1, 0);
  cudaStreamIsCapturing(s2, &st);
  a3 = (int)cudaMemsetAsync(d, 1, 128, s2);
  int a4 = (int)cudaMemsetAsync(d + 128, 2, 128, s);
  int a5 = (int)cudaEventRecord(e2, s2);
  int a6 = (int)cudaStreamWaitEvent(s, e2, 0);
  en = (int)cudaStreamEndCapture(s, &g);
  count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  cudaStreamIsCapturing(s2, &after);
  printf("fork and join begin rc=%d ops rc=%d,%d,%d,%d,%d,%d forked status=%d end rc=%d nodes=%zu "
         "joined status after=%d\n",
         b, a1, a2, a3, a4, a5, a6, (int)st, en, count, (int)after);
  cudaGraphDestroy(g);

  /* A fork never joined back. */
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(e1, s);
  cudaStreamWaitEvent(s2, e1, 0);
  cudaMemsetAsync(d, 1, 128, s2);
  g = (cudaGraph_t)1;
  en = (int)cudaStreamEndCapture(s, &g);
  int last = (int)cudaGetLastError();
  cudaStreamIsCapturing(s2, &after);
  printf("unjoined end rc=%d graph=%s last=%d forked status after=%d\n", en,
         g == NULL ? "NULL" : "set", last, (int)after);
  if (after != cudaStreamCaptureStatusNone) {
    /* Leave s2 usable whatever the library did. */
    cudaGraph_t left = NULL;
    cudaStreamEndCapture(s2, &left);
  }
  (void)cudaGetLastError();

  /* Unsafe calls during a global capture invalidate it; relaxed mode allows them. */
  void *p = NULL;
  b = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  int mal = (int)cudaMalloc(&p, 64);
  cudaStreamIsCapturing(s, &st);
  a1 = (int)cudaMemsetAsync(d, 0, 16, s);
  g = (cudaGraph_t)1;
  en = (int)cudaStreamEndCapture(s, &g);
  (void)cudaGetLastError();
  printf("cudaMalloc in a global capture rc=%d status=%d next op rc=%d end rc=%d graph=%s\n", mal,
         (int)st, a1, en, g == NULL ? "NULL" : "set");
  b = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  mal = (int)cudaMalloc(&p, 64);
  en = (int)cudaStreamEndCapture(s, &g);
  printf("cudaMalloc in a relaxed capture rc=%d begin rc=%d end rc=%d\n", mal, b, en);
  cudaGraphDestroy(g);
  cudaFree(p);

  /* Synchronizing a capturing stream; the legacy stream; capturing twice; ending elsewhere. */
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  int sync = (int)cudaStreamSynchronize(s);
  cudaStreamIsCapturing(s, &st);
  en = (int)cudaStreamEndCapture(s, &g);
  (void)cudaGetLastError();
  printf("sync in capture rc=%d status=%d end rc=%d\n", sync, (int)st, en);
  /* Built for the per-thread default stream, stream 0 is the thread's own, which may be. */
  int legacy = (int)cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  if (legacy == 0 && cudaStreamEndCapture(0, &g) == 0) cudaGraphDestroy(g);
  (void)cudaGetLastError();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  int twice = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  (void)cudaGetLastError();
  int not_origin = (int)cudaStreamEndCapture(s2, &g);
  (void)cudaGetLastError();
  other_thread_stream = s;
  pthread_t t;
  pthread_create(&t, NULL, end_elsewhere, NULL);
  pthread_join(t, NULL);
  en = (int)cudaStreamEndCapture(s, &g);
  printf("legacy stream rc=%d twice rc=%d end on another stream rc=%d end on another thread "
         "rc=%d end rc=%d\n",
         legacy, twice, not_origin, other_thread_rc, en);
  cudaGraphDestroy(g);

  /* The driver: a captured memset and host function, replayed. */
  counter = 0;
  CUstream ds = (CUstream)s;
  int db = (int)cuStreamBeginCapture(ds, CU_STREAM_CAPTURE_MODE_GLOBAL);
  int d1 = (int)cuMemsetD32Async((CUdeviceptr)d, 0x05050505, 64, ds);
  int d2 = (int)cuLaunchHostFunc(ds, add_one, &counter);
  CUgraph dg = NULL;
  int de = (int)cuStreamEndCapture(ds, &dg);
  CUgraphExec dx = NULL;
  int di = (int)cuGraphInstantiate(&dx, dg, 0);
  int dl = (int)cuGraphLaunch(dx, ds);
  int dsync = (int)cuStreamSynchronize(ds);
  cudaMemcpy(host, d, 256, cudaMemcpyDeviceToHost);
  printf("driver capture rc=%d,%d,%d,%d instantiate rc=%d launch rc=%d sync rc=%d counter=%d "
         "bytes=%d\n",
         db, d1, d2, de, di, dl, dsync, counter, all(host, 256, 5));
  cuGraphExecDestroy(dx);
  cuGraphDestroy(dg);
  cudaFree(d);
  cudaEventDestroy(e1);
  cudaEventDestroy(e2);
  cudaStreamDestroy(s);
  cudaStreamDestroy(s2);
}

static void peer(void) {
  int can01 = -1, can00 = -1;
  int rc = (int)cudaDeviceCanAccessPeer(&can01, 0, 1);
  cudaDeviceCanAccessPeer(&can00, 0, 0);
  cudaSetDevice(0);
  int en1 = (int)cudaDeviceEnablePeerAccess(1, 0);
  int en2 = (int)cudaDeviceEnablePeerAccess(1, 0);
  int di1 = (int)cudaDeviceDisablePeerAccess(1);
  int di2 = (int)cudaDeviceDisablePeerAccess(1);
  int self = (int)cudaDeviceEnablePeerAccess(0, 0);
  (void)cudaGetLastError();
  void *a = NULL, *b = NULL;
  cudaMalloc(&a, 64);
  cudaSetDevice(1);
  cudaMalloc(&b, 64);
  unsigned char in[64], out[64] = {0};
  for (int i = 0; i < 64; i++) in[i] = (unsigned char)(i + 1);
  cudaMemcpy(a, in, 64, cudaMemcpyHostToDevice);
  int c1 = (int)cudaMemcpyPeer(b, 1, a, 0, 64);
  int c2 = (int)cudaMemcpy(out, b, 64, cudaMemcpyDeviceToHost);
  int wrong = (int)cudaMemcpyPeer(b, 0, a, 0, 64);
  (void)cudaGetLastError();
  printf("peer rc=%d can 0->1=%d 0->0=%d enable rc=%d,%d disable rc=%d,%d self rc=%d copy "
         "rc=%d,%d same=%d wrong device rc=%d\n",
         rc, can01, can00, en1, en2, di1, di2, self, c1, c2, memcmp(in, out, 64) == 0, wrong);
  cudaFree(b);
  cudaSetDevice(0);
  cudaFree(a);
}

int main(int argc, char **argv) {
  int n = 0;
  int rc = (int)cudaGetDeviceCount(&n);
  printf("devices rc=%d count=%d\n", rc, n);
  if (rc != 0) return 1;
  pitched();
  graphs();
  printf("last error=%d\n", (int)cudaGetLastError());
  if (argc > 1 && strcmp(argv[1], "peer") == 0) peer();
  return 0;
}
