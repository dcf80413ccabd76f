// Child graph nodes (cudaGraphAddChildGraphNode, cudaGraphAddNode of cudaGraphNodeTypeGraph and
// their driver twins), a program of our own: each case builds graphs that embed others, launches
// them and prints one line of codes and computed values, the same on a board and on the mock.
// tests/tests/mock_child_graphs.rs builds it with nvcc 13.5 (PTX only) and runs it under
// CUDA_STUBS_MOCK=h100; tests/gpu/child_graphs.sh builds and runs it on a board.
//   child_graphs CASE   CASE: clone_at_add | get_graph | nested | add_node | rules | clone |
//                       exec_set | exec_update | capture_to_child | captured_launch | driver |
//                       in_conditional | find_in_clone | destroy_node | driver_nodes | move |
//                       all (every case but the mock's alone) | moved_rules, destroy (the mock
//                       alone)
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

// --- Kernels. One thread each: what a graph did is the order its nodes ran in, which the
// arithmetic shows ((1 * 3 + 4) * 10 is not (1 * 10 + 4) * 3).
__global__ void store(int *x, int v) { *x = v; }
__global__ void add_to(int *x, int v) { *x += v; }
__global__ void mul_by(int *x, int v) { *x *= v; }

__global__ void set_from_flag(const int *flag, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, *flag != 0);
}

static void host_noop(void *) {}

// A kernel node of `func(x, v)` in `g` after `ndeps` nodes at `deps` (the arguments are copied
// when the node is added).
static cudaError_t add_kernel(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                              size_t ndeps, void *func, int *x, int v) {
  void *args[] = {&x, &v};
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3(1, 1, 1);
  p.blockDim = dim3(1, 1, 1);
  p.kernelParams = args;
  return cudaGraphAddKernelNode(node, g, deps, ndeps, &p);
}

static int read_int(const int *d) {
  int v = -1;
  if (cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return -99;
  return v;
}

// Instantiates `g`, launches it once on the legacy stream and waits.
static cudaError_t run_graph(cudaGraph_t g) {
  cudaGraphExec_t x;
  cudaError_t e = cudaGraphInstantiate(&x, g, 0);
  if (e != cudaSuccess) return e;
  e = cudaGraphLaunch(x, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  cudaGraphExecDestroy(x);
  return e;
}

static size_t node_count(cudaGraph_t g) {
  size_t n = 0;
  if (cudaGraphGetNodes(g, NULL, &n) != cudaSuccess) return 999;
  return n;
}

// A graph of `count` kernels adding 1 to *x, one after the other.
static cudaError_t adder_chain(cudaGraph_t *g, int *x, int count) {
  cudaError_t e = cudaGraphCreate(g, 0);
  cudaGraphNode_t last = NULL;
  for (int i = 0; i < count && e == cudaSuccess; i++) {
    cudaGraphNode_t n;
    e = add_kernel(&n, *g, last ? &last : NULL, last ? 1 : 0, (void *)add_to, x, 1);
    last = n;
  }
  return e;
}

// --- clone_at_add: the child is copied when the node is added: a node added to the original
// later does not run in the parent.
static int case_clone_at_add() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node, extra;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  OK(add_kernel(&extra, child, NULL, 0, (void *)add_to, x, 100));
  cudaGraphNodeType t;
  OK(cudaGraphNodeGetType(node, &t));
  OK(run_graph(parent));
  cudaGraph_t embedded;
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  printf("clone_at_add type=%d count=%d original_nodes=%zu embedded_nodes=%zu parent_nodes=%zu\n",
         (int)t, read_int(x), node_count(child), node_count(embedded), node_count(parent));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
  return 0;
}

// --- get_graph: the embedded graph is the node's own, the same handle each time; a node added
// to it runs in the parent.
static int case_get_graph() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node, extra;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  cudaGraph_t a, b;
  OK(cudaGraphChildGraphNodeGetGraph(node, &a));
  OK(cudaGraphChildGraphNodeGetGraph(node, &b));
  OK(add_kernel(&extra, a, NULL, 0, (void *)add_to, x, 100));
  OK(run_graph(parent));
  printf("get_graph same=%d differs=%d nodes=%zu count=%d\n", a == b, a != child, node_count(a),
         read_int(x));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
  return 0;
}

// --- nested: a child holding a child, between kernels of the parent: every node runs after
// its dependencies, ((1 * 3) + 5 + 4) * 10.
static int case_nested() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t inner, middle, parent;
  cudaGraphNode_t n1, n2, n3, n4, n5, n6;
  OK(cudaGraphCreate(&inner, 0));
  OK(add_kernel(&n1, inner, NULL, 0, (void *)add_to, x, 5));
  OK(cudaGraphCreate(&middle, 0));
  OK(add_kernel(&n2, middle, NULL, 0, (void *)mul_by, x, 3));
  OK(cudaGraphAddChildGraphNode(&n3, middle, &n2, 1, inner));
  OK(add_kernel(&n4, middle, &n3, 1, (void *)add_to, x, 4));
  OK(cudaGraphCreate(&parent, 0));
  OK(add_kernel(&n5, parent, NULL, 0, (void *)store, x, 1));
  OK(cudaGraphAddChildGraphNode(&n6, parent, &n5, 1, middle));
  cudaGraphNode_t n7;
  OK(add_kernel(&n7, parent, &n6, 1, (void *)mul_by, x, 10));
  // Destroying the graphs it was made of leaves the parent whole.
  OK(cudaGraphDestroy(inner));
  OK(cudaGraphDestroy(middle));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, parent, 0));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  int first = read_int(x);
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  printf("nested x=%d again=%d\n", first, read_int(x));
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(parent));
  OK(cudaFree(x));
  return 0;
}

// --- add_node: cudaGraphAddNode of cudaGraphNodeTypeGraph, and cudaGraphNodeGetParams of the
// node: its type, its embedded graph (cudaGraphChildGraphNodeGetGraph's) and ownership.
static int case_add_node() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent;
  OK(adder_chain(&child, x, 3));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  p.graph.ownership = cudaGraphChildGraphOwnershipClone;
  cudaGraphNode_t node;
  OK(cudaGraphAddNode(&node, parent, NULL, NULL, 0, &p));
  cudaGraphNodeParams q = {};
  memset((void *)&q, 0x5a, sizeof q);
  OK(cudaGraphNodeGetParams(node, &q));
  cudaGraph_t embedded;
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  OK(run_graph(parent));
  printf("add_node type=%d same_graph=%d not_child=%d ownership=%d count=%d\n", (int)q.type,
         q.graph.graph == embedded, q.graph.graph != child, (int)q.graph.ownership,
         read_int(x));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
  return 0;
}

// --- rules: what cannot be embedded, what an embedded graph cannot take, and the codes.
static int case_rules() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t parent;
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node, n;
  // A child with a memory allocation node.
  cudaGraph_t with_alloc;
  OK(cudaGraphCreate(&with_alloc, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1 << 20;
  OK(cudaGraphAddMemAllocNode(&n, with_alloc, NULL, 0, &ap));
  cudaError_t alloc = cudaGraphAddChildGraphNode(&node, parent, NULL, 0, with_alloc);
  (void)cudaGetLastError();
  // A child with a memory free node (of the allocation node's memory).
  cudaGraph_t with_free;
  OK(cudaGraphCreate(&with_free, 0));
  OK(cudaGraphAddMemFreeNode(&n, with_free, NULL, 0, ap.dptr));
  cudaError_t free_ = cudaGraphAddChildGraphNode(&node, parent, NULL, 0, with_free);
  (void)cudaGetLastError();
  // A child with a conditional node.
  cudaGraph_t with_cond;
  OK(cudaGraphCreate(&with_cond, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, with_cond, 0, 0));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 1;
  OK(cudaGraphAddNode(&n, with_cond, NULL, NULL, 0, &cp));
  cudaError_t cond = cudaGraphAddChildGraphNode(&node, parent, NULL, 0, with_cond);
  (void)cudaGetLastError();
  // A memory allocation node added to an embedded graph.
  cudaGraph_t plain, embedded;
  OK(adder_chain(&plain, x, 1));
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, plain));
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  cudaError_t alloc_in = cudaGraphAddMemAllocNode(&n, embedded, NULL, 0, &ap);
  (void)cudaGetLastError();
  // The embedded graph of a node that is not a child graph node.
  cudaGraphNode_t kernel;
  OK(add_kernel(&kernel, parent, NULL, 0, (void *)store, x, 1));
  cudaGraph_t none;
  cudaError_t not_child = cudaGraphChildGraphNodeGetGraph(kernel, &none);
  (void)cudaGetLastError();
  // An ownership no enumerator names.
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = plain;
  p.graph.ownership = (cudaGraphChildGraphNodeOwnership)7;
  cudaError_t ownership = cudaGraphAddNode(&n, parent, NULL, NULL, 0, &p);
  (void)cudaGetLastError();
  printf("rules alloc=%d free=%d conditional=%d alloc_in_embedded=%d not_child=%d "
         "ownership=%d nodes=%zu\n",
         (int)alloc, (int)free_, (int)cond, (int)alloc_in, (int)not_child, (int)ownership,
         node_count(parent));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(plain));
  OK(cudaGraphDestroy(with_cond));
  OK(cudaGraphDestroy(with_free));
  OK(cudaGraphDestroy(with_alloc));
  OK(cudaFree(x));
  return 0;
}

// --- clone: cudaGraphClone of a parent with a child copies the embedded graph too: the clone
// runs after the original is destroyed.
static int case_clone() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent, copy;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  OK(cudaGraphClone(&copy, parent));
  cudaGraph_t embedded;
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  cudaGraphNode_t nodes[4];
  size_t count = 4;
  OK(cudaGraphGetNodes(copy, nodes, &count));
  cudaGraphNodeType t;
  OK(cudaGraphNodeGetType(nodes[0], &t));
  cudaGraph_t copied;
  OK(cudaGraphChildGraphNodeGetGraph(nodes[0], &copied));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(run_graph(copy));
  printf("clone nodes=%zu type=%d distinct=%d copied_nodes=%zu count=%d\n", count, (int)t,
         copied != embedded, node_count(copied), read_int(x));
  OK(cudaGraphDestroy(copy));
  OK(cudaFree(x));
  return 0;
}

// A child of two kernels: store(x, a) then add_to(x, b), the second after the first unless
// `unlinked`.
static cudaError_t two_step(cudaGraph_t *g, int *x, int a, int b, bool unlinked) {
  cudaError_t e = cudaGraphCreate(g, 0);
  cudaGraphNode_t s, t;
  if (e == cudaSuccess) e = add_kernel(&s, *g, NULL, 0, (void *)store, x, a);
  if (e == cudaSuccess)
    e = add_kernel(&t, *g, unlinked ? NULL : &s, unlinked ? 0 : 1, (void *)add_to, x, b);
  return e;
}

// --- exec_set: cudaGraphExecChildGraphNodeSetParams with a graph of the same topology changes
// what the executable graph runs, not the node; another topology is refused.
static int case_exec_set() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t c1, c2, fewer, unlinked, types, parent;
  OK(two_step(&c1, x, 1, 1, false));
  OK(two_step(&c2, x, 10, 5, false));
  OK(two_step(&unlinked, x, 20, 5, true));
  OK(cudaGraphCreate(&fewer, 0));
  cudaGraphNode_t n, m;
  OK(add_kernel(&n, fewer, NULL, 0, (void *)store, x, 7));
  OK(cudaGraphCreate(&types, 0));
  OK(add_kernel(&n, types, NULL, 0, (void *)store, x, 7));
  OK(cudaGraphAddEmptyNode(&m, types, &n, 1));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, c1));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, parent, 0));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  int first = read_int(x);
  cudaError_t set = cudaGraphExecChildGraphNodeSetParams(exec, node, c2);
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  int second = read_int(x);
  cudaError_t e_fewer = cudaGraphExecChildGraphNodeSetParams(exec, node, fewer);
  (void)cudaGetLastError();
  cudaError_t e_unlinked = cudaGraphExecChildGraphNodeSetParams(exec, node, unlinked);
  (void)cudaGetLastError();
  cudaError_t e_types = cudaGraphExecChildGraphNodeSetParams(exec, node, types);
  (void)cudaGetLastError();
  OK(cudaMemset(x, 0, sizeof(int)));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  int after = read_int(x);
  OK(run_graph(parent));
  printf("exec_set first=%d set=%d second=%d fewer=%d unlinked=%d types=%d after=%d "
         "node_kept=%d\n",
         first, (int)set, second, (int)e_fewer, (int)e_unlinked, (int)e_types, after,
         read_int(x));
  OK(cudaGraphExecDestroy(exec));
  for (cudaGraph_t g : {c1, c2, fewer, unlinked, types, parent}) OK(cudaGraphDestroy(g));
  OK(cudaFree(x));
  return 0;
}

// --- exec_update: cudaGraphExecUpdate from a parent of the same topology whose child differs
// in its values (taken), then from one whose child has another topology (refused).
static int case_exec_update() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t c1, c2, c3, p1, p2, p3;
  OK(two_step(&c1, x, 1, 1, false));
  OK(two_step(&c2, x, 30, 3, false));
  OK(two_step(&c3, x, 30, 3, true));
  cudaGraphNode_t n;
  OK(cudaGraphCreate(&p1, 0));
  OK(cudaGraphAddChildGraphNode(&n, p1, NULL, 0, c1));
  OK(cudaGraphCreate(&p2, 0));
  OK(cudaGraphAddChildGraphNode(&n, p2, NULL, 0, c2));
  OK(cudaGraphCreate(&p3, 0));
  OK(cudaGraphAddChildGraphNode(&n, p3, NULL, 0, c3));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, p1, 0));
  cudaGraphExecUpdateResultInfo info;
  cudaError_t same = cudaGraphExecUpdate(exec, p2, &info);
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  int updated = read_int(x);
  cudaError_t other = cudaGraphExecUpdate(exec, p3, &info);
  (void)cudaGetLastError();
  printf("exec_update same=%d x=%d other=%d result=%d\n", (int)same, updated, (int)other,
         (int)info.result);
  OK(cudaGraphExecDestroy(exec));
  for (cudaGraph_t g : {c1, c2, c3, p1, p2, p3}) OK(cudaGraphDestroy(g));
  OK(cudaFree(x));
  return 0;
}

// --- capture_to_child: a capture begun into a child node's embedded graph adds the captured
// kernels there, after its nodes; the parent runs them.
static int case_capture_to_child() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent, embedded, ended = NULL;
  OK(adder_chain(&child, x, 1));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  cudaGraphNode_t first;
  size_t one = 1;
  OK(cudaGraphGetNodes(embedded, &first, &one));
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaStreamBeginCaptureToGraph(s, embedded, &first, NULL, 1,
                                   cudaStreamCaptureModeThreadLocal));
  mul_by<<<1, 1, 0, s>>>(x, 7);
  add_to<<<1, 1, 0, s>>>(x, 2);
  OK(cudaStreamEndCapture(s, &ended));
  OK(run_graph(parent));
  printf("capture_to_child same=%d nodes=%zu x=%d\n", ended == embedded, node_count(embedded),
         read_int(x));
  OK(cudaStreamDestroy(s));
  OK(cudaGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
  return 0;
}

// --- captured_launch: an executable graph with a child launched into a stream capture: the
// captured graph runs the child's work where it stood.
static int case_captured_launch() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t child, parent, captured;
  OK(two_step(&child, x, 2, 3, false));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node, after;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  OK(add_kernel(&after, parent, &node, 1, (void *)mul_by, x, 4));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, parent, 0));
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  store<<<1, 1, 0, s>>>(x, 100);
  cudaError_t launch = cudaGraphLaunch(exec, s);
  add_to<<<1, 1, 0, s>>>(x, 1);
  OK(cudaStreamEndCapture(s, &captured));
  OK(run_graph(captured));
  printf("captured_launch launch=%d x=%d\n", (int)launch, read_int(x));
  OK(cudaStreamDestroy(s));
  OK(cudaGraphExecDestroy(exec));
  for (cudaGraph_t g : {child, parent, captured}) OK(cudaGraphDestroy(g));
  OK(cudaFree(x));
  return 0;
}

// --- driver: cuGraphAddChildGraphNode, cuGraphAddNode of CU_GRAPH_NODE_TYPE_GRAPH,
// cuGraphChildGraphNodeGetGraph, cuGraphNodeGetParams, cuGraphExecChildGraphNodeSetParams.
static int case_driver() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, other;
  OK(adder_chain(&child, x, 2));
  OK(adder_chain(&other, x, 1));
  CUgraph parent;
  CU_OK(cuGraphCreate(&parent, 0));
  CUgraphNode a, b;
  CU_OK(cuGraphAddChildGraphNode(&a, parent, NULL, 0, (CUgraph)child));
  CUgraphNodeParams p = {};
  p.type = CU_GRAPH_NODE_TYPE_GRAPH;
  p.graph.graph = (CUgraph)child;
  p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
  CU_OK(cuGraphAddNode(&b, parent, &a, NULL, 1, &p));
  CUgraphNodeType t;
  CU_OK(cuGraphNodeGetType(b, &t));
  CUgraph embedded;
  CU_OK(cuGraphChildGraphNodeGetGraph(b, &embedded));
  CUgraphNodeParams q;
  memset((void *)&q, 0x5a, sizeof q);
  CU_OK(cuGraphNodeGetParams(b, &q));
  CUgraphExec exec;
  CU_OK(cuGraphInstantiate(&exec, parent, 0));
  CU_OK(cuGraphLaunch(exec, 0));
  CU_OK(cuCtxSynchronize());
  int count = read_int(x);
  CUresult mismatch = cuGraphExecChildGraphNodeSetParams(exec, b, (CUgraph)other);
  CUresult not_child = cuGraphChildGraphNodeGetGraph((CUgraphNode)NULL, &embedded);
  printf("driver type=%d same_graph=%d ownership=%d count=%d mismatch=%d null_node=%d\n",
         (int)t, q.graph.graph == embedded, (int)q.graph.ownership, count, (int)mismatch,
         (int)not_child);
  CU_OK(cuGraphExecDestroy(exec));
  CU_OK(cuGraphDestroy(parent));
  OK(cudaGraphDestroy(child));
  OK(cudaGraphDestroy(other));
  OK(cudaFree(x));
  return 0;
}

// --- in_conditional: a child graph node in an If's body runs when the handle is set; a child
// holding a host node makes the body one the instantiation refuses ("This applies recursively to
// child graphs").
static int case_in_conditional() {
  int *x, *flag;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMalloc(&flag, sizeof(int)));
  int one = 1;
  OK(cudaMemcpy(flag, &one, sizeof one, cudaMemcpyHostToDevice));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t g, child;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *args[] = {&flag, &h};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)set_from_flag;
  kp.gridDim = dim3(1, 1, 1);
  kp.blockDim = dim3(1, 1, 1);
  kp.kernelParams = args;
  cudaGraphNode_t set, cond, inner;
  OK(cudaGraphAddKernelNode(&set, g, NULL, 0, &kp));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 1;
  OK(cudaGraphAddNode(&cond, g, &set, NULL, 1, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  OK(cudaGraphAddChildGraphNode(&inner, body, NULL, 0, child));
  OK(run_graph(g));
  int ran = read_int(x);
  // The same with a host node in the child.
  cudaGraph_t g2, with_host;
  OK(cudaGraphCreate(&with_host, 0));
  cudaHostNodeParams hp = {host_noop, NULL};
  cudaGraphNode_t hn;
  OK(cudaGraphAddHostNode(&hn, with_host, NULL, 0, &hp));
  OK(cudaGraphCreate(&g2, 0));
  cudaGraphConditionalHandle h2;
  OK(cudaGraphConditionalHandleCreate(&h2, g2, 0, 0));
  cp.conditional.handle = h2;
  OK(cudaGraphAddNode(&cond, g2, NULL, NULL, 0, &cp));
  OK(cudaGraphAddChildGraphNode(&inner, cp.conditional.phGraph_out[0], NULL, 0, with_host));
  cudaGraphExec_t refused;
  cudaError_t host_in_child = cudaGraphInstantiate(&refused, g2, 0);
  (void)cudaGetLastError();
  printf("in_conditional count=%d host_in_child=%d\n", ran, (int)host_in_child);
  for (cudaGraph_t d : {g, g2, child, with_host}) OK(cudaGraphDestroy(d));
  OK(cudaFree(x));
  OK(cudaFree(flag));
  return 0;
}

// --- find_in_clone: cudaGraphNodeFindInClone gives the clone's copy of each node of the original
// (the copy runs as the original: (0 + 1) * 10), none for a graph that is not a clone of it, a node
// added to the original after the clone, or a copy removed since.
static int case_find_in_clone() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t g, c;
  cudaGraphNode_t a, b, a2 = NULL, b2 = NULL, later, n;
  OK(cudaGraphCreate(&g, 0));
  OK(add_kernel(&a, g, NULL, 0, (void *)add_to, x, 1));
  OK(add_kernel(&b, g, &a, 1, (void *)mul_by, x, 10));
  OK(cudaGraphClone(&c, g));
  OK(add_kernel(&later, g, &b, 1, (void *)add_to, x, 1000));
  OK(cudaGraphNodeFindInClone(&a2, a, c));
  OK(cudaGraphNodeFindInClone(&b2, b, c));
  cudaGraphNodeType type = cudaGraphNodeTypeCount;
  OK(cudaGraphNodeGetType(b2, &type));
  int distinct = a2 != a && b2 != b && a2 != b2;
  cudaError_t not_clone = cudaGraphNodeFindInClone(&n, a, g);
  (void)cudaGetLastError();
  cudaError_t added_later = cudaGraphNodeFindInClone(&n, later, c);
  (void)cudaGetLastError();
  OK(run_graph(c));
  int v = read_int(x);
  OK(cudaGraphDestroyNode(b2));
  cudaError_t removed = cudaGraphNodeFindInClone(&n, b, c);
  (void)cudaGetLastError();
  printf("find_in_clone distinct=%d type=%d not_clone=%d later=%d x=%d removed=%d\n", distinct,
         (int)type, (int)not_clone, (int)added_later, v, (int)removed);
  OK(cudaGraphDestroy(g));
  OK(cudaGraphDestroy(c));
  OK(cudaFree(x));
  return 0;
}

// --- destroy_node: cudaGraphDestroyNode removes a node and its edges: a node that depended on a
// removed one runs alone (y = 7, x untouched), the last node of a chain no longer runs ((0 + 1)
// + 5, not * 10); a node with an edge in a graph holding a memory allocation node cannot be removed
// ("Dependencies cannot be removed from graphs which contain allocation or free nodes").
static int case_destroy_node() {
  int *x, *y;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMalloc(&y, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  OK(cudaMemset(y, 0, sizeof(int)));
  cudaGraph_t g, chain, mem;
  cudaGraphNode_t a, b, c1, c2, c3, m, k;
  OK(cudaGraphCreate(&g, 0));
  OK(add_kernel(&a, g, NULL, 0, (void *)store, x, 1));
  OK(add_kernel(&b, g, &a, 1, (void *)store, y, 7));
  OK(cudaGraphDestroyNode(a));
  size_t left = node_count(g);
  OK(run_graph(g));
  int xv = read_int(x), yv = read_int(y);
  OK(cudaGraphCreate(&chain, 0));
  OK(add_kernel(&c1, chain, NULL, 0, (void *)add_to, x, 5));
  OK(add_kernel(&c2, chain, &c1, 1, (void *)add_to, x, 1));
  OK(add_kernel(&c3, chain, &c2, 1, (void *)mul_by, x, 10));
  OK(cudaGraphDestroyNode(c3));
  OK(run_graph(chain));
  int chained = read_int(x);
  OK(cudaGraphCreate(&mem, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 256;
  OK(cudaGraphAddMemAllocNode(&m, mem, NULL, 0, &ap));
  OK(add_kernel(&k, mem, &m, 1, (void *)store, (int *)ap.dptr, 3));
  cudaError_t with_memory = cudaGraphDestroyNode(k);
  (void)cudaGetLastError();
  printf("destroy_node left=%zu x=%d y=%d chain=%d memory=%d mem_nodes=%zu\n", left, xv, yv,
         chained, (int)with_memory, node_count(mem));
  for (cudaGraph_t d : {g, chain, mem}) OK(cudaGraphDestroy(d));
  OK(cudaFree(x));
  OK(cudaFree(y));
  return 0;
}

// --- driver_nodes: the driver's cuGraphNodeFindInClone and cuGraphDestroyNode.
static int case_driver_nodes() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t g;
  OK(adder_chain(&g, x, 3));
  cudaGraphNode_t nodes[3];
  size_t count = 3;
  OK(cudaGraphGetNodes(g, nodes, &count));
  CUgraph c;
  CU_OK(cuGraphClone(&c, (CUgraph)g));
  CUgraphNode last = NULL;
  CU_OK(cuGraphNodeFindInClone(&last, (CUgraphNode)nodes[2], c));
  CUgraphNode none;
  CUresult not_clone = cuGraphNodeFindInClone(&none, (CUgraphNode)nodes[2], (CUgraph)g);
  CU_OK(cuGraphDestroyNode(last));
  OK(run_graph((cudaGraph_t)c));
  printf("driver_nodes distinct=%d not_clone=%d left=%zu x=%d\n", last != (CUgraphNode)nodes[2],
         (int)not_clone, node_count((cudaGraph_t)c), read_int(x));
  OK(cudaGraphDestroy(g));
  CU_OK(cuGraphDestroy(c));
  OK(cudaFree(x));
  return 0;
}

// --- move: cudaGraphAddNode with cudaGraphChildGraphOwnershipMove (CUDA 12.9+): the child itself
// becomes the node's graph, and the parent runs it.
static int case_move() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  OK(cudaMemset(x, 0, sizeof(int)));
  cudaGraph_t child, parent;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  p.graph.ownership = cudaGraphChildGraphOwnershipMove;
  cudaGraphNode_t node;
  cudaError_t moved = cudaGraphAddNode(&node, parent, NULL, NULL, 0, &p);
  (void)cudaGetLastError();
  int count = -1;
  if (moved == cudaSuccess && run_graph(parent) == cudaSuccess) count = read_int(x);
  printf("move add=%d count=%d\n", (int)moved, count);
  OK(cudaGraphDestroy(parent));
  if (moved != cudaSuccess) OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
  return 0;
}

// --- moved_rules (the mock alone: driver_types.h says what a moved graph "Cannot" be, not the
// code): the node's graph is the moved one itself; it is not destroyed, instantiated, moved or
// copied into another parent on its own (cudaErrorInvalidValue), a graph cannot be moved into
// itself, and the parent's destruction takes it (its handle then names no graph).
static int case_moved_rules() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t child, parent, other, embedded;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  OK(cudaGraphCreate(&other, 0));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  p.graph.ownership = cudaGraphChildGraphOwnershipMove;
  cudaGraphNode_t node, n;
  OK(cudaGraphAddNode(&node, parent, NULL, NULL, 0, &p));
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  cudaError_t destroy = cudaGraphDestroy(child);
  cudaGraphExec_t exec;
  cudaError_t inst = cudaGraphInstantiate(&exec, child, 0);
  cudaError_t again = cudaGraphAddNode(&n, other, NULL, NULL, 0, &p);
  cudaError_t copied = cudaGraphAddChildGraphNode(&n, other, NULL, 0, child);
  p.graph.graph = other;
  cudaGraphNode_t o;
  OK(cudaGraphAddEmptyNode(&o, other, NULL, 0));
  cudaError_t into_itself = cudaGraphAddNode(&n, other, NULL, NULL, 0, &p);
  (void)cudaGetLastError();
  OK(cudaGraphDestroy(parent));
  size_t count = 0;
  cudaError_t after = cudaGraphGetNodes(child, NULL, &count);
  (void)cudaGetLastError();
  printf("moved_rules same=%d destroy=%d instantiate=%d again=%d copied=%d into_itself=%d "
         "other_nodes=%zu after=%d\n",
         embedded == child, (int)destroy, (int)inst, (int)again, (int)copied, (int)into_itself,
         node_count(other), (int)after);
  OK(cudaGraphDestroy(other));
  OK(cudaFree(x));
  return 0;
}

// --- destroy (the mock alone: on a board a destroyed graph's handle may not be used): the
// embedded graph is the node's, destroyed with its parent, never alone.
static int case_destroy() {
  int *x;
  OK(cudaMalloc(&x, sizeof(int)));
  cudaGraph_t child, parent, embedded;
  OK(adder_chain(&child, x, 2));
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t node;
  OK(cudaGraphAddChildGraphNode(&node, parent, NULL, 0, child));
  OK(cudaGraphChildGraphNodeGetGraph(node, &embedded));
  cudaError_t alone = cudaGraphDestroy(embedded);
  (void)cudaGetLastError();
  size_t before = node_count(embedded);
  OK(cudaGraphDestroy(parent));
  size_t n = 0;
  cudaError_t after = cudaGraphGetNodes(embedded, NULL, &n);
  (void)cudaGetLastError();
  printf("destroy alone=%d before=%zu after=%d original=%zu\n", (int)alone, before, (int)after,
         node_count(child));
  OK(cudaGraphDestroy(child));
  OK(cudaFree(x));
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
  } cases[] = {{"clone_at_add", case_clone_at_add},
               {"get_graph", case_get_graph},
               {"nested", case_nested},
               {"add_node", case_add_node},
               {"rules", case_rules},
               {"clone", case_clone},
               {"exec_set", case_exec_set},
               {"exec_update", case_exec_update},
               {"capture_to_child", case_capture_to_child},
               {"captured_launch", case_captured_launch},
               {"driver", case_driver},
               {"in_conditional", case_in_conditional},
               {"find_in_clone", case_find_in_clone},
               {"destroy_node", case_destroy_node},
               {"driver_nodes", case_driver_nodes},
               {"move", case_move}};
  if (!strcmp(c, "moved_rules")) return case_moved_rules();
  if (!strcmp(c, "destroy")) return case_destroy();
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
