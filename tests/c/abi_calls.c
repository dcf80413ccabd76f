/* Compiled against the REAL CUDA 13.x headers (once plain, once with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM, which maps the stream-ordered calls to their _ptsz names),
 * linked only against libstubs_cudart: calls the adapted functions whose prototype changed
 * between majors with 13.x's prototypes, and prints, one `case.key=value` per line, the status,
 * every output, and what the mock runtime received (`case.calls=`, from the mock-only
 * mock_take_calls of tests/mocks/cudart_abi.c; empty when the stub called nothing).
 * tests/tests/abi_calls.rs checks each against the mock runtimes of 11.x, 12.x and 13.x.
 *
 * Outputs are pre-filled with sentinels (0x77 / 77, or 0xAB bytes for arrays) so "untouched"
 * shows. Handles are recognisable constants; 0xBAD makes the mock fail with 400. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cudaGetDriverEntryPoint is deprecated in 13.x; it is still exported and adapted. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define H(x) ((void *)(uintptr_t)(x))
#define HEX(p) ((unsigned long long)(uintptr_t)(p))
#define SENTINEL H(0x77)
#define STREAM ((cudaStream_t)H(0x5000))
#define GRAPH ((cudaGraph_t)H(0x6000))
#define BAD H(0xBAD)
#define DEVPTR ((const void *)H(0x7000))

/* What the mock received since the last call of this function. */
static void calls(const char *key) {
  static void (*take)(char *, size_t);
  if (take == NULL) {
    static const char *const sonames[] = {"libcudart.so.13", "libcudart.so.12",
                                          "libcudart.so.11.0"};
    for (size_t i = 0; i < sizeof sonames / sizeof *sonames && take == NULL; i++) {
      void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
      if (lib != NULL) *(void **)&take = dlsym(lib, "mock_take_calls");
    }
    if (take == NULL) {
      printf("error=no mock runtime with mock_take_calls loaded\n");
      exit(3);
    }
  }
  char buf[4096];
  take(buf, sizeof buf);
  printf("%s.calls=%s\n", key, buf);
}

static void rc(const char *key, cudaError_t status) { printf("%s.rc=%d\n", key, (int)status); }

/* n handles, comma-separated ("0" for NULL). */
static void print_nodes(const char *key, const char *field, const cudaGraphNode_t *nodes,
                        size_t n) {
  printf("%s.%s=", key, field);
  for (size_t i = 0; i < n; i++) printf("%s%#llx", i ? "," : "", HEX(nodes[i]));
  printf("\n");
}

/* n edges as 16 hex digits each, comma-separated. */
static void print_edges(const char *key, const cudaGraphEdgeData *edges, size_t n) {
  printf("%s.edges=", key);
  for (size_t i = 0; i < n; i++) {
    const unsigned char *b = (const unsigned char *)&edges[i];
    printf("%s", i ? "," : "");
    for (size_t j = 0; j < sizeof *edges; j++) printf("%02x", b[j]);
  }
  printf("\n");
}

/* ---- cudaStreamGetCaptureInfo ---------------------------------------------------------------- */

static void capture(const char *key, cudaStream_t stream, int want_id, int want_graph,
                    int want_deps, int want_edges, int want_num) {
  enum cudaStreamCaptureStatus status = (enum cudaStreamCaptureStatus)77;
  unsigned long long id = 77;
  cudaGraph_t graph = (cudaGraph_t)SENTINEL;
  const cudaGraphNode_t *deps = (const cudaGraphNode_t *)SENTINEL;
  const cudaGraphEdgeData *edges = (const cudaGraphEdgeData *)SENTINEL;
  size_t num = 77;
  cudaError_t s = cudaStreamGetCaptureInfo(stream, &status, want_id ? &id : NULL,
                                           want_graph ? &graph : NULL, want_deps ? &deps : NULL,
                                           want_edges ? &edges : NULL, want_num ? &num : NULL);
  rc(key, s);
  printf("%s.status=%d\n", key, (int)status);
  printf("%s.id=%llu\n", key, id);
  printf("%s.graph=%#llx\n", key, HEX(graph));
  printf("%s.num=%zu\n", key, num);
  size_t n = num == 77 ? 3 : num;
  if (deps != SENTINEL && deps != NULL)
    print_nodes(key, "deps", deps, n);
  else
    printf("%s.deps=%#llx\n", key, HEX(deps));
  if (edges != SENTINEL && edges != NULL)
    print_edges(key, edges, n);
  else
    printf("%s.edges=%#llx\n", key, HEX(edges));
  calls(key);
}

/* ---- cudaMemAdvise / cudaMemPrefetchAsync ------------------------------------------------------ */

static struct cudaMemLocation location(int type, int id) {
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  loc.type = (enum cudaMemLocationType)type;
  loc.id = id;
  return loc;
}

static void advise(const char *key, size_t count, int advice, int type, int id) {
  rc(key, cudaMemAdvise(DEVPTR, count, (enum cudaMemoryAdvise)advice, location(type, id)));
  calls(key);
}

static void prefetch(const char *key, size_t count, int type, int id, unsigned flags) {
  rc(key, cudaMemPrefetchAsync(DEVPTR, count, location(type, id), flags, STREAM));
  calls(key);
}

/* ---- the graph-edge family ------------------------------------------------------------------- */

static const cudaGraphNode_t FROM[2] = {(cudaGraphNode_t)H(0x101), (cudaGraphNode_t)H(0x102)};
static const cudaGraphNode_t TO[2] = {(cudaGraphNode_t)H(0x201), (cudaGraphNode_t)H(0x202)};

/* Edge data for 2 edges: none (NULL), all default (zeroed), a programmatic second edge, or a
 * stray reserved byte (non-default too). */
enum edge_kind { EDGES_NULL, EDGES_ZERO, EDGES_PROGRAMMATIC, EDGES_RESERVED };
static const cudaGraphEdgeData *edge_data(enum edge_kind kind) {
  static cudaGraphEdgeData e[2];
  memset(e, 0, sizeof e);
  if (kind == EDGES_NULL) return NULL;
  if (kind == EDGES_PROGRAMMATIC) e[1].type = 1; /* cudaGraphDependencyTypeProgrammatic */
  if (kind == EDGES_RESERVED) e[1].reserved[4] = 1;
  return e;
}

static void deps(const char *key, int remove, cudaGraph_t graph, enum edge_kind kind) {
  const cudaGraphEdgeData *e = edge_data(kind);
  rc(key, remove ? cudaGraphRemoveDependencies(graph, FROM, TO, e, 2)
                 : cudaGraphAddDependencies(graph, FROM, TO, e, 2));
  calls(key);
}

/* Arrays of 4 (one more than the mock's 3 entries), 0xAB-filled; num starts at 4. */
enum get_kind { GET_FULL, GET_NO_EDGE_DATA, GET_COUNT };
static void get_edges(const char *key, cudaGraph_t graph, enum get_kind kind) {
  cudaGraphNode_t from[4], to[4];
  cudaGraphEdgeData edges[4];
  memset(from, 0xAB, sizeof from);
  memset(to, 0xAB, sizeof to);
  memset(edges, 0xAB, sizeof edges);
  size_t num = 4;
  cudaError_t s = cudaGraphGetEdges(graph, kind == GET_COUNT ? NULL : from,
                                    kind == GET_COUNT ? NULL : to,
                                    kind == GET_FULL ? edges : NULL, &num);
  rc(key, s);
  printf("%s.num=%zu\n", key, num);
  print_nodes(key, "from", from, 4);
  print_nodes(key, "to", to, 4);
  print_edges(key, edges, 4);
  calls(key);
}

static void node_list(const char *key, int dependents, cudaGraphNode_t node, enum get_kind kind) {
  cudaGraphNode_t nodes[4];
  cudaGraphEdgeData edges[4];
  memset(nodes, 0xAB, sizeof nodes);
  memset(edges, 0xAB, sizeof edges);
  size_t num = 4;
  cudaGraphNode_t *n = kind == GET_COUNT ? NULL : nodes;
  cudaGraphEdgeData *e = kind == GET_FULL ? edges : NULL;
  cudaError_t s = dependents ? cudaGraphNodeGetDependentNodes(node, n, e, &num)
                             : cudaGraphNodeGetDependencies(node, n, e, &num);
  rc(key, s);
  printf("%s.num=%zu\n", key, num);
  print_nodes(key, "nodes", nodes, 4);
  print_edges(key, edges, 4);
  calls(key);
}

static void add_node(const char *key, cudaGraph_t graph, enum edge_kind kind) {
  cudaGraphNode_t node = (cudaGraphNode_t)SENTINEL;
  rc(key, cudaGraphAddNode(&node, graph, FROM, edge_data(kind), 2,
                           (struct cudaGraphNodeParams *)H(0xA000)));
  printf("%s.node=%#llx\n", key, HEX(node));
  calls(key);
}

/* ---- cudaGraphExecUpdate --------------------------------------------------------------------- */

static void exec_update(const char *key, cudaGraphExec_t exec, int with_info) {
  cudaGraphExecUpdateResultInfo info;
  memset(&info, 0xAB, sizeof info);
  rc(key, cudaGraphExecUpdate(exec, GRAPH, with_info ? &info : NULL));
  printf("%s.result=%u\n", key, (unsigned)info.result);
  printf("%s.errorNode=%#llx\n", key, HEX(info.errorNode));
  printf("%s.errorFromNode=%#llx\n", key, HEX(info.errorFromNode));
  calls(key);
}

/* ---- cudaGetDriverEntryPoint ----------------------------------------------------------------- */

static void entry_point(const char *key, const char *symbol, int with_status) {
  void *fn = SENTINEL;
  enum cudaDriverEntryPointQueryResult status = (enum cudaDriverEntryPointQueryResult)77;
  rc(key, cudaGetDriverEntryPoint(symbol, &fn, cudaEnablePerThreadDefaultStream,
                                  with_status ? &status : NULL));
  printf("%s.funcPtr=%#llx\n", key, HEX(fn));
  printf("%s.driverStatus=%d\n", key, (int)status);
  calls(key);
}

/* ---- memory pools (cudaMemLocation widened in 13.5, same bytes) ------------------------------ */

static void mem_pool(const char *key, int id) {
  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = id; /* 13.5: the anonymous union's int member */
  props.win32SecurityAttributes = H(0x3210);
  cudaMemPool_t pool = (cudaMemPool_t)SENTINEL;
  rc(key, cudaMemPoolCreate(&pool, &props));
  printf("%s.pool=%#llx\n", key, HEX(pool));
  calls(key);
}

static void mem_pool_access(const char *key, cudaMemPool_t pool) {
  struct cudaMemAccessDesc descs[2];
  memset(descs, 0, sizeof descs);
  descs[0].location.type = cudaMemLocationTypeDevice;
  descs[0].location.id = 1;
  descs[0].flags = cudaMemAccessFlagsProtReadWrite;
  descs[1].location.type = cudaMemLocationTypeDevice;
  descs[1].location.id = 2;
  descs[1].flags = cudaMemAccessFlagsProtRead;
  rc(key, cudaMemPoolSetAccess(pool, descs, 2));
  calls(key);
  char get[64];
  snprintf(get, sizeof get, "%s_get", key);
  struct cudaMemLocation location;
  memset(&location, 0, sizeof location);
  location.type = cudaMemLocationTypeDevice;
  location.id = 4;
  enum cudaMemAccessFlags flags = (enum cudaMemAccessFlags)77;
  rc(get, cudaMemPoolGetAccess(&flags, pool, &location));
  printf("%s.flags=%d\n", get, (int)flags);
  calls(get);
}

int main(void) {
  printf("header=%d\n", CUDART_VERSION);
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  printf("ptsz=1\n");
#else
  printf("ptsz=0\n");
#endif

  capture("cap_full", STREAM, 1, 1, 1, 1, 1);
  capture("cap_no_edges", STREAM, 1, 1, 1, 0, 1);
  capture("cap_no_num", STREAM, 1, 1, 1, 1, 0);
  capture("cap_status_only", STREAM, 0, 0, 0, 0, 0);
  capture("cap_bad", (cudaStream_t)BAD, 1, 1, 1, 1, 1);

  advise("adv_device", 4096, cudaMemAdviseSetPreferredLocation, cudaMemLocationTypeDevice, 3);
  advise("adv_host", 4096, cudaMemAdviseSetAccessedBy, cudaMemLocationTypeHost, 9);
  advise("adv_numa", 4096, cudaMemAdviseSetPreferredLocation, cudaMemLocationTypeHostNuma, 2);
  advise("adv_numa_current", 4096, cudaMemAdviseSetPreferredLocation,
         cudaMemLocationTypeHostNumaCurrent, 0);
  advise("adv_invalid", 4096, cudaMemAdviseSetPreferredLocation, cudaMemLocationTypeInvalid, 3);
  advise("adv_read_mostly", 4096, cudaMemAdviseSetReadMostly, cudaMemLocationTypeHostNuma, 2);
  advise("adv_error", 0, cudaMemAdviseUnsetPreferredLocation, cudaMemLocationTypeDevice, 3);

  prefetch("pf_device", 4096, cudaMemLocationTypeDevice, 3, 0);
  prefetch("pf_host", 4096, cudaMemLocationTypeHost, 0, 0);
  prefetch("pf_numa", 4096, cudaMemLocationTypeHostNuma, 1, 0);
  prefetch("pf_flags", 4096, cudaMemLocationTypeDevice, 3, 1);
  prefetch("pf_error", 0, cudaMemLocationTypeDevice, 3, 0);

  deps("add_null", 0, GRAPH, EDGES_NULL);
  deps("add_zero", 0, GRAPH, EDGES_ZERO);
  deps("add_programmatic", 0, GRAPH, EDGES_PROGRAMMATIC);
  deps("add_reserved", 0, GRAPH, EDGES_RESERVED);
  deps("add_bad", 0, (cudaGraph_t)BAD, EDGES_NULL);
  deps("remove_null", 1, GRAPH, EDGES_NULL);
  deps("remove_zero", 1, GRAPH, EDGES_ZERO);
  deps("remove_programmatic", 1, GRAPH, EDGES_PROGRAMMATIC);
  deps("remove_bad", 1, (cudaGraph_t)BAD, EDGES_ZERO);

  get_edges("edges_full", GRAPH, GET_FULL);
  get_edges("edges_no_data", GRAPH, GET_NO_EDGE_DATA);
  get_edges("edges_count", GRAPH, GET_COUNT);
  get_edges("edges_bad", (cudaGraph_t)BAD, GET_FULL);

  node_list("deps_full", 0, (cudaGraphNode_t)H(0x300), GET_FULL);
  node_list("deps_no_data", 0, (cudaGraphNode_t)H(0x300), GET_NO_EDGE_DATA);
  node_list("deps_count", 0, (cudaGraphNode_t)H(0x300), GET_COUNT);
  node_list("deps_bad", 0, (cudaGraphNode_t)BAD, GET_FULL);
  node_list("dependents_full", 1, (cudaGraphNode_t)H(0x300), GET_FULL);
  node_list("dependents_no_data", 1, (cudaGraphNode_t)H(0x300), GET_NO_EDGE_DATA);
  node_list("dependents_count", 1, (cudaGraphNode_t)H(0x300), GET_COUNT);
  node_list("dependents_bad", 1, (cudaGraphNode_t)BAD, GET_FULL);

  add_node("node_null", GRAPH, EDGES_NULL);
  add_node("node_zero", GRAPH, EDGES_ZERO);
  add_node("node_programmatic", GRAPH, EDGES_PROGRAMMATIC);
  add_node("node_bad", (cudaGraph_t)BAD, EDGES_NULL);

  exec_update("update_ok", (cudaGraphExec_t)H(0xE000), 1);
  exec_update("update_refused", (cudaGraphExec_t)H(0xE001), 1);
  exec_update("update_bad", (cudaGraphExec_t)BAD, 1);
  exec_update("update_no_info", (cudaGraphExec_t)H(0xE000), 0);

  entry_point("ep_found", "cuInit", 1);
  entry_point("ep_missing", "cuNoSuchFunction", 1);
  entry_point("ep_found_no_status", "cuInit", 0);
  entry_point("ep_missing_no_status", "cuNoSuchFunction", 0);
  entry_point("ep_null", NULL, 1);

  mem_pool("pool_create", 5);
  mem_pool_access("pool_access", (cudaMemPool_t)H(0x9100));
  mem_pool_access("pool_access_bad", (cudaMemPool_t)BAD);
  return 0;
}
