// Graph nodes built by hand (issue 48 item 5): kernel nodes (added, their parameters got and
// set in the graph and in an executable graph), event record and wait nodes, and
// cudaGraphExecUpdate, each launch's effect read back. One `key=value` line per fact: on a board
// (tests/gpu/occupancy.sh) and on the mock (tests/tests/mock_api.rs), compared line by line.
#include <cuda_runtime.h>
#include <stdio.h>

extern "C" __global__ void add(int *x, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v;
}

static int first(const int *d) {
  int h = -1;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}

static cudaKernelNodeParams params(void **args) {
  cudaKernelNodeParams p = {};
  p.func = (void *)add;
  p.gridDim = dim3(2);
  p.blockDim = dim3(64);
  p.kernelParams = args;
  return p;
}

int main() {
  const int n = 128;
  int *x = NULL;
  cudaMalloc(&x, n * sizeof(int));
  cudaMemset(x, 0, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e;
  cudaEventCreate(&e);

  // add(1) -> record e -> wait e -> add(10).
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int one = 1, ten = 10, count = n;
  void *a1[] = {&x, &one, &count};
  void *a2[] = {&x, &ten, &count};
  cudaKernelNodeParams p1 = params(a1), p2 = params(a2);
  cudaGraphNode_t k1, rec, wait, k2;
  int rc1 = (int)cudaGraphAddKernelNode(&k1, g, NULL, 0, &p1);
  int rc2 = (int)cudaGraphAddEventRecordNode(&rec, g, &k1, 1, e);
  int rc3 = (int)cudaGraphAddEventWaitNode(&wait, g, &rec, 1, e);
  int rc4 = (int)cudaGraphAddKernelNode(&k2, g, &wait, 1, &p2);
  printf("add nodes rc=%d,%d,%d,%d\n", rc1, rc2, rc3, rc4);
  // The values the node keeps are its own: changing ours changes nothing.
  one = 5;
  cudaGraphNodeType t1, t2, t3;
  cudaGraphNodeGetType(k1, &t1);
  cudaGraphNodeGetType(rec, &t2);
  cudaGraphNodeGetType(wait, &t3);
  printf("types kernel=%d record=%d wait=%d\n", (int)t1, (int)t2, (int)t3);
  cudaEvent_t got = NULL;
  int rc = (int)cudaGraphEventRecordNodeGetEvent(rec, &got);
  printf("record node event rc=%d same=%d\n", rc, got == e);
  rc = (int)cudaGraphEventWaitNodeGetEvent(rec, &got);
  printf("wait event of a record node rc=%d\n", rc);

  cudaKernelNodeParams back = {};
  rc = (int)cudaGraphKernelNodeGetParams(k1, &back);
  printf("get params rc=%d func=%d grid=%u block=%u shared=%u v=%d n=%d\n", rc,
         back.func == (void *)add, back.gridDim.x, back.blockDim.x, back.sharedMemBytes,
         back.kernelParams ? *(int *)back.kernelParams[1] : -1,
         back.kernelParams ? *(int *)back.kernelParams[2] : -1);

  cudaGraphExec_t ex;
  rc = (int)cudaGraphInstantiate(&ex, g, 0);
  int launch = (int)cudaGraphLaunch(ex, s);
  cudaStreamSynchronize(s);
  printf("instantiate rc=%d launch rc=%d x[0]=%d x[%d]=%d event=%d\n", rc, launch, first(x), n - 1,
         first(x + n - 1), (int)cudaEventQuery(e));

  // The executable graph's node changed, the graph's not.
  int hundred = 100;
  void *a3[] = {&x, &hundred, &count};
  cudaKernelNodeParams p3 = params(a3);
  rc = (int)cudaGraphExecKernelNodeSetParams(ex, k1, &p3);
  cudaGraphLaunch(ex, s);
  cudaStreamSynchronize(s);
  printf("exec set params rc=%d x[0]=%d\n", rc, first(x));
  // The graph's node changed, the executable graph's not.
  int thousand = 1000;
  void *a4[] = {&x, &thousand, &count};
  cudaKernelNodeParams p4 = params(a4);
  rc = (int)cudaGraphKernelNodeSetParams(k2, &p4);
  cudaGraphLaunch(ex, s);
  cudaStreamSynchronize(s);
  printf("graph set params rc=%d x[0]=%d\n", rc, first(x));
  // The update brings the graph's nodes (add(1), add(1000)) to the executable graph.
  cudaGraphExecUpdateResultInfo info;
  rc = (int)cudaGraphExecUpdate(ex, g, &info);
  cudaGraphLaunch(ex, s);
  cudaStreamSynchronize(s);
  printf("update rc=%d result=%d x[0]=%d\n", rc, (int)info.result, first(x));
  // Another topology: refused.
  cudaGraph_t other;
  cudaGraphCreate(&other, 0);
  cudaGraphNode_t lone;
  cudaGraphAddKernelNode(&lone, other, NULL, 0, &p1);
  rc = (int)cudaGraphExecUpdate(ex, other, &info);
  printf("update other topology rc=%d result=%d\n", rc, (int)info.result);
  cudaGetLastError();

  // Refusals.
  cudaKernelNodeParams bad = params(a1);
  bad.func = (void *)main;
  cudaGraphNode_t none;
  rc = (int)cudaGraphAddKernelNode(&none, g, NULL, 0, &bad);
  printf("not a kernel rc=%d\n", rc);
  cudaGetLastError();
  bad = params(a1);
  bad.blockDim = dim3(2048);
  rc = (int)cudaGraphAddKernelNode(&none, g, NULL, 0, &bad);
  printf("block too big rc=%d\n", rc);
  cudaGetLastError();
  rc = (int)cudaGraphKernelNodeSetParams(rec, &p1);
  printf("kernel params on a record node rc=%d\n", rc);
  cudaGetLastError();

  // Memory allocated and freed by the graph: alloc -> memset -> free.
  cudaGraph_t mg;
  cudaGraphCreate(&mg, 0);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 4096;
  cudaGraphNode_t an, sn, fn;
  rc1 = (int)cudaGraphAddMemAllocNode(&an, mg, NULL, 0, &ap);
  cudaMemsetParams mp = {};
  mp.dst = ap.dptr;
  mp.value = 7;
  mp.elementSize = 1;
  mp.width = 4096;
  mp.height = 1;
  rc2 = (int)cudaGraphAddMemsetNode(&sn, mg, &an, 1, &mp);
  rc3 = (int)cudaGraphAddMemFreeNode(&fn, mg, &sn, 1, ap.dptr);
  cudaGraphNodeGetType(an, &t1);
  cudaGraphNodeGetType(fn, &t2);
  printf("mem nodes rc=%d,%d,%d address=%d types alloc=%d free=%d\n", rc1, rc2, rc3,
         ap.dptr != NULL, (int)t1, (int)t2);
  cudaMemAllocNodeParams aback = {};
  void *freed = NULL;
  rc1 = (int)cudaGraphMemAllocNodeGetParams(an, &aback);
  rc2 = (int)cudaGraphMemFreeNodeGetParams(fn, &freed);
  printf("mem node params rc=%d,%d bytes=%zu same=%d,%d\n", rc1, rc2, aback.bytesize,
         aback.dptr == ap.dptr, freed == ap.dptr);
  cudaGraphExec_t mex;
  rc1 = (int)cudaGraphInstantiate(&mex, mg, 0);
  rc2 = (int)cudaGraphLaunch(mex, s);
  rc3 = (int)cudaStreamSynchronize(s);
  int rc4b = (int)cudaGraphLaunch(mex, s);
  cudaStreamSynchronize(s);
  printf("mem graph instantiate rc=%d launch rc=%d,%d sync rc=%d\n", rc1, rc2, rc4b, rc3);
  cudaGraphExecDestroy(mex);
  cudaGraphDestroy(mg);

  cudaGraphExecDestroy(ex);
  cudaGraphDestroy(other);
  cudaGraphDestroy(g);
  cudaEventDestroy(e);
  cudaStreamDestroy(s);
  cudaFree(x);
  return 0;
}
