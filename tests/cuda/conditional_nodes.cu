// Conditional graph nodes (CUDA 12.3+; the CUDA C++ Programming Guide's "Conditional Graph
// Nodes"), a program of our own: each case builds a graph with If, While or Switch nodes, sets
// the handles' values from kernels (cudaGraphSetConditional), launches it and prints one line of
// what the bodies did, the same on a board and on the mock.
// tests/tests/mock_conditional_nodes.rs builds it with nvcc 13.5 (PTX only) and runs it under
// CUDA_STUBS_MOCK=h100; tests/gpu/conditional_nodes.sh builds and runs it on a board.
//   conditional_nodes CASE   CASE: if1 | if2 | while | while_capture | switch | default_reset |
//                            driver_if | captured_launch | rules | outside | node_params |
//                            all (every case but outside and node_params)
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

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

#define CU_OK(call)                                                                \
  do {                                                                             \
    CUresult e_ = (call);                                                          \
    if (e_ != CUDA_SUCCESS) {                                                      \
      printf("FAILED %s: %d at line %d\n", #call, (int)e_, __LINE__);              \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

// --- Kernels. One thread each: the graphs' logic is in the handles, not the arithmetic.

// The handle's value: whether *flag is not zero.
__global__ void set_from_flag(const int *flag, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, *flag != 0);
}

// The handle's value: *value itself (a Switch's index).
__global__ void set_value(const unsigned *value, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, *value);
}

__global__ void add_one(int *counter) { *counter += 1; }

// A kernel of no parameters (its node's kernelParams NULL, as NVIDIA's sample passes them).
__device__ int marks;
__global__ void mark() { marks += 1; }

__global__ void store(int *out, int value) { *out = value; }

// A While body: one more pass, and whether another follows (until *counter reaches limit).
__global__ void count_to(int *counter, int limit, cudaGraphConditionalHandle h) {
  *counter += 1;
  cudaGraphSetConditional(h, *counter < limit);
}

// A While body that ends its loop after one pass.
__global__ void once(int *counter, cudaGraphConditionalHandle h) {
  *counter += 1;
  cudaGraphSetConditional(h, 0);
}

static void host_noop(void *) {}

// A kernel node of `func` with `args` added by cudaGraphAddNode (the CUDA 12.4+ form).
static cudaError_t add_kernel(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                              size_t ndeps, void *func, void **args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1, 1, 1);
  p.kernel.blockDim = dim3(1, 1, 1);
  p.kernel.kernelParams = args;
  return cudaGraphAddNode(node, g, deps, NULL, ndeps, &p);
}

// A conditional node of `type` with `size` bodies on `h`; its bodies into `bodies`.
static cudaError_t add_conditional(cudaGraphNode_t *node, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   cudaGraphConditionalHandle h,
                                   cudaGraphConditionalNodeType type, unsigned size,
                                   cudaGraph_t *bodies) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaError_t e = cudaGraphAddNode(node, g, deps, NULL, ndeps, &p);
  if (e == cudaSuccess) {
    for (unsigned i = 0; i < size; i++) bodies[i] = p.conditional.phGraph_out[i];
  }
  return e;
}

static int read_int(const int *d) {
  int v = -1;
  if (cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return -99;
  return v;
}

// --- if1: an If of one body (the sample's simpleIfGraph): the body runs only when the flag is
// set.
static int case_if1() {
  int *flag, *counter;
  OK(cudaMalloc(&flag, sizeof(int)));
  OK(cudaMalloc(&counter, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&flag, &h};
  cudaGraphNode_t set, cond, body_node;
  OK(add_kernel(&set, g, NULL, 0, (void *)set_from_flag, set_args));
  cudaGraph_t body;
  OK(add_conditional(&cond, g, &set, 1, h, cudaGraphCondTypeIf, 1, &body));
  void *add_args[] = {&counter};
  OK(add_kernel(&body_node, body, NULL, 0, (void *)add_one, add_args));
  cudaGraphNode_t mark_node;
  OK(add_kernel(&mark_node, body, &body_node, 1, (void *)mark, NULL));
  int zero = 0;
  OK(cudaMemcpyToSymbol(marks, &zero, sizeof zero));
  cudaGraphNodeType t;
  OK(cudaGraphNodeGetType(cond, &t));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  int got[2];
  for (int f = 0; f < 2; f++) {
    OK(cudaMemset(counter, 0, sizeof(int)));
    OK(cudaMemcpy(flag, &f, sizeof f, cudaMemcpyHostToDevice));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaDeviceSynchronize());
    got[f] = read_int(counter);
  }
  int marked = -1;
  OK(cudaMemcpyFromSymbol(&marked, marks, sizeof marked));
  printf("if1 type=%d flag0=%d flag1=%d marks=%d\n", (int)t, got[0], got[1], marked);
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- if2: an If of two bodies (if/else, CUDA 12.8): body 0 when the flag is set, body 1 when
// not.
static int case_if2() {
  int *flag, *out;
  OK(cudaMalloc(&flag, sizeof(int)));
  OK(cudaMalloc(&out, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&flag, &h};
  cudaGraphNode_t set, cond, n0, n1;
  OK(add_kernel(&set, g, NULL, 0, (void *)set_from_flag, set_args));
  cudaGraph_t bodies[2];
  OK(add_conditional(&cond, g, &set, 1, h, cudaGraphCondTypeIf, 2, bodies));
  int then_value = 10, else_value = 20;
  void *then_args[] = {&out, &then_value};
  void *else_args[] = {&out, &else_value};
  OK(add_kernel(&n0, bodies[0], NULL, 0, (void *)store, then_args));
  OK(add_kernel(&n1, bodies[1], NULL, 0, (void *)store, else_args));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  int got[2];
  for (int f = 0; f < 2; f++) {
    OK(cudaMemset(out, 0, sizeof(int)));
    OK(cudaMemcpy(flag, &f, sizeof f, cudaMemcpyHostToDevice));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaDeviceSynchronize());
    got[f] = read_int(out);
  }
  printf("if2 flag0=%d flag1=%d\n", got[0], got[1]);
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- while: a While whose handle starts at 1 (the default, assigned at each launch): its body
// counts to 7, setting the value after each pass.
static int case_while() {
  int *counter;
  OK(cudaMalloc(&counter, sizeof(int)));
  OK(cudaMemset(counter, 0, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t cond, n;
  cudaGraph_t body;
  OK(add_conditional(&cond, g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &body));
  int limit = 7;
  void *args[] = {&counter, &limit, &h};
  OK(add_kernel(&n, body, NULL, 0, (void *)count_to, args));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  OK(cudaGraphLaunch(x, 0));
  OK(cudaDeviceSynchronize());
  printf("while count=%d\n", read_int(counter));
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- while_capture: a While node joined to a stream capture (cudaStreamGetCaptureInfo, the
// node added to the capture's graph, cudaStreamUpdateCaptureDependencies) and its body captured
// from another stream (cudaStreamBeginCaptureToGraph); work captured before and after it.
static int case_while_capture() {
  int *counter, *before, *after;
  OK(cudaMalloc(&counter, sizeof(int)));
  OK(cudaMalloc(&before, sizeof(int)));
  OK(cudaMalloc(&after, sizeof(int)));
  OK(cudaMemset(counter, 0, sizeof(int)));
  OK(cudaMemset(before, 0, sizeof(int)));
  OK(cudaMemset(after, 0, sizeof(int)));
  cudaStream_t s, body_stream;
  OK(cudaStreamCreate(&s));
  OK(cudaStreamCreate(&body_stream));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(before);
  OK(cudaGetLastError());
  cudaStreamCaptureStatus status;
  cudaGraph_t g;
  const cudaGraphNode_t *deps;
  size_t ndeps;
  OK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &ndeps));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t cond;
  cudaGraph_t body;
  OK(add_conditional(&cond, g, deps, ndeps, h, cudaGraphCondTypeWhile, 1, &body));
  OK(cudaStreamUpdateCaptureDependencies(s, &cond, NULL, 1, cudaStreamSetCaptureDependencies));
  OK(cudaStreamBeginCaptureToGraph(body_stream, body, NULL, NULL, 0,
                                   cudaStreamCaptureModeGlobal));
  count_to<<<1, 1, 0, body_stream>>>(counter, 4, h);
  OK(cudaGetLastError());
  cudaGraph_t body_out;
  OK(cudaStreamEndCapture(body_stream, &body_out));
  add_one<<<1, 1, 0, s>>>(after);
  OK(cudaGetLastError());
  cudaGraph_t captured;
  OK(cudaStreamEndCapture(s, &captured));
  size_t nodes = 0;
  OK(cudaGraphGetNodes(captured, NULL, &nodes));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, captured, 0));
  OK(cudaGraphLaunch(x, s));
  OK(cudaStreamSynchronize(s));
  printf("while_capture same_body=%d nodes=%zu before=%d count=%d after=%d\n",
         body_out == body, nodes, read_int(before), read_int(counter), read_int(after));
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(captured));
  OK(cudaStreamDestroy(s));
  OK(cudaStreamDestroy(body_stream));
  return 0;
}

// --- switch: a Switch of three bodies, each storing its index; a value of 3 (>= size) runs
// none.
static int case_switch() {
  unsigned *value;
  int *out;
  OK(cudaMalloc(&value, sizeof(unsigned)));
  OK(cudaMalloc(&out, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&value, &h};
  cudaGraphNode_t set, cond, n[3];
  OK(add_kernel(&set, g, NULL, 0, (void *)set_value, set_args));
  cudaGraph_t bodies[3];
  OK(add_conditional(&cond, g, &set, 1, h, cudaGraphCondTypeSwitch, 3, bodies));
  int index[3] = {100, 101, 102};
  void *args[3][2] = {{&out, &index[0]}, {&out, &index[1]}, {&out, &index[2]}};
  for (int i = 0; i < 3; i++) {
    OK(add_kernel(&n[i], bodies[i], NULL, 0, (void *)store, args[i]));
  }
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  printf("switch");
  for (unsigned v = 0; v < 4; v++) {
    OK(cudaMemset(out, 0xff, sizeof(int)));
    OK(cudaMemcpy(value, &v, sizeof v, cudaMemcpyHostToDevice));
    OK(cudaGraphLaunch(x, 0));
    OK(cudaDeviceSynchronize());
    printf(" %u=%d", v, read_int(out));
  }
  printf("\n");
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- default_reset: a While whose body ends its loop after one pass (value 0); with
// cudaGraphCondAssignDefault the handle is 1 again at each launch, so each of three launches
// runs the body once.
static int case_default_reset() {
  int *counter;
  OK(cudaMalloc(&counter, sizeof(int)));
  OK(cudaMemset(counter, 0, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t cond, n;
  cudaGraph_t body;
  OK(add_conditional(&cond, g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &body));
  void *args[] = {&counter, &h};
  OK(add_kernel(&n, body, NULL, 0, (void *)once, args));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  for (int i = 0; i < 3; i++) {
    OK(cudaGraphLaunch(x, 0));
  }
  OK(cudaDeviceSynchronize());
  printf("default_reset launches=3 count=%d\n", read_int(counter));
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- driver_if: the driver's calls (cuGraphConditionalHandleCreate in the current context,
// cuGraphAddNode) for an If whose handle's default, 1, is assigned at each launch: its body
// runs with no kernel setting the value.
static int case_driver_if() {
  int *counter;
  OK(cudaMalloc(&counter, sizeof(int)));
  OK(cudaMemset(counter, 0, sizeof(int)));
  CUcontext ctx;
  CU_OK(cuCtxGetCurrent(&ctx));
  CUgraph g;
  CU_OK(cuGraphCreate(&g, 0));
  CUgraphConditionalHandle h;
  CU_OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
  CUgraphNodeParams p;
  memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  p.conditional.handle = h;
  p.conditional.type = CU_GRAPH_COND_TYPE_IF;
  p.conditional.size = 1;
  p.conditional.ctx = ctx;
  CUgraphNode cond;
  CU_OK(cuGraphAddNode(&cond, g, NULL, NULL, 0, &p));
  CUgraph body = p.conditional.phGraph_out[0];
  cudaGraphNode_t n;
  void *args[] = {&counter};
  OK(add_kernel(&n, (cudaGraph_t)body, NULL, 0, (void *)add_one, args));
  CUgraphExec x;
  CU_OK(cuGraphInstantiate(&x, g, 0));
  CU_OK(cuGraphLaunch(x, 0));
  CU_OK(cuCtxSynchronize());
  printf("driver_if count=%d\n", read_int(counter));
  CU_OK(cuGraphExecDestroy(x));
  CU_OK(cuGraphDestroy(g));
  return 0;
}

// --- captured_launch: an executable graph with an If node launched into a stream capture: the
// board refuses it (cudaErrorStreamCaptureUnsupported) and the capture ends invalidated.
static int case_captured_launch() {
  int *flag, *counter;
  OK(cudaMalloc(&flag, sizeof(int)));
  OK(cudaMalloc(&counter, sizeof(int)));
  OK(cudaMemset(counter, 0, sizeof(int)));
  int one = 1;
  OK(cudaMemcpy(flag, &one, sizeof one, cudaMemcpyHostToDevice));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&flag, &h};
  cudaGraphNode_t set, cond, n;
  OK(add_kernel(&set, g, NULL, 0, (void *)set_from_flag, set_args));
  cudaGraph_t body;
  OK(add_conditional(&cond, g, &set, 1, h, cudaGraphCondTypeIf, 1, &body));
  void *args[] = {&counter};
  OK(add_kernel(&n, body, NULL, 0, (void *)add_one, args));
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaError_t launched = cudaGraphLaunch(x, s);
  cudaGraph_t outer = NULL;
  cudaError_t ended = cudaStreamEndCapture(s, &outer);
  (void)cudaGetLastError();
  printf("captured_launch launch=%d end=%d graph=%d count=%d\n", (int)launched, (int)ended,
         outer != NULL, read_int(counter));
  if (outer) OK(cudaGraphDestroy(outer));
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  OK(cudaStreamDestroy(s));
  return 0;
}

// --- node_params: a Switch node's parameters read back, both APIs (cudaGraphNodeGetParams,
// cuGraphNodeGetParams: CUDA 13.2+ drivers answer them for conditional nodes, so this case is
// not in `all`, which a 13.0 board runs).
static int case_node_params() {
#if CUDART_VERSION >= 13020
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  cudaGraphNode_t cond;
  cudaGraph_t bodies[4];
  OK(add_conditional(&cond, g, NULL, 0, h, cudaGraphCondTypeSwitch, 4, bodies));
  cudaGraphNodeParams p = {};
  OK(cudaGraphNodeGetParams(cond, &p));
  CUgraphNodeParams q;
  memset(&q, 0, sizeof q);
  CU_OK(cuGraphNodeGetParams((CUgraphNode)cond, &q));
  printf("node_params type=%d kind=%d size=%u same_handle=%d same_bodies=%d driver_size=%u "
         "driver_bodies=%d\n",
         (int)p.type, (int)p.conditional.type, p.conditional.size, p.conditional.handle == h,
         p.conditional.phGraph_out[3] == bodies[3], q.conditional.size,
         (cudaGraph_t)q.conditional.phGraph_out[2] == bodies[2]);
  OK(cudaGraphDestroy(g));
#else
  printf("node_params needs CUDA 13.2\n");
#endif
  return 0;
}

// --- rules: what the API refuses, as codes: a host node in a body (the Programming Guide
// allows kernel, copy, memset, empty, child graph and conditional nodes there) at
// instantiation; an If of three bodies, a While of two, a Switch of none; a handle of another
// graph.
static int case_rules() {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  cudaGraphNode_t cond, hn;
  cudaGraph_t body[3];
  OK(add_conditional(&cond, g, NULL, 0, h, cudaGraphCondTypeIf, 1, body));
  cudaHostNodeParams hp = {host_noop, NULL};
  OK(cudaGraphAddHostNode(&hn, body[0], NULL, 0, &hp));
  cudaGraphExec_t x;
  cudaError_t host_body = cudaGraphInstantiate(&x, g, 0);
  (void)cudaGetLastError();
  cudaGraphNode_t other;
  cudaError_t if3 = add_conditional(&other, g, NULL, 0, h, cudaGraphCondTypeIf, 3, body);
  (void)cudaGetLastError();
  cudaError_t while2 = add_conditional(&other, g, NULL, 0, h, cudaGraphCondTypeWhile, 2, body);
  (void)cudaGetLastError();
  cudaError_t switch0 = add_conditional(&other, g, NULL, 0, h, cudaGraphCondTypeSwitch, 0, body);
  (void)cudaGetLastError();
  cudaGraph_t g2;
  OK(cudaGraphCreate(&g2, 0));
  cudaError_t foreign = add_conditional(&other, g2, NULL, 0, h, cudaGraphCondTypeIf, 1, body);
  (void)cudaGetLastError();
  printf("rules host_body=%d if3=%d while2=%d switch0=%d foreign_handle=%d\n", (int)host_body,
         (int)if3, (int)while2, (int)switch0, (int)foreign);
  OK(cudaGraphDestroy(g2));
  OK(cudaGraphDestroy(g));
  return 0;
}

// --- outside: a kernel calling cudaGraphSetConditional launched on its own, not by a graph
// (the handle is a live one's): what the launch and the synchronization answer.
static int case_outside() {
  int *flag;
  OK(cudaMalloc(&flag, sizeof(int)));
  OK(cudaMemset(flag, 0, sizeof(int)));
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  set_from_flag<<<1, 1>>>(flag, h);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("outside launch=%d sync=%d\n", (int)launch, (int)sync);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  const char *c = argv[1];
  struct {
    const char *name;
    int (*run)();
  } cases[] = {{"if1", case_if1},
               {"if2", case_if2},
               {"while", case_while},
               {"while_capture", case_while_capture},
               {"switch", case_switch},
               {"default_reset", case_default_reset},
               {"driver_if", case_driver_if},
               {"captured_launch", case_captured_launch},
               {"rules", case_rules}};
  if (!strcmp(c, "outside")) return case_outside();
  if (!strcmp(c, "node_params")) return case_node_params();
  int failed = 0, found = 0;
  for (auto &k : cases) {
    if (!strcmp(c, "all") || !strcmp(c, k.name)) {
      found = 1;
      failed |= k.run();
    }
  }
  if (!found) {
    fprintf(stderr, "unknown case %s\n", c);
    return 2;
  }
  return failed;
}
