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

/* Node parameters: a kernel node (default 13.0-only fields, or an execution context, or a
 * cudaFunction_t handle), a host node (blocking or spin-wait), a memory-allocation node, a
 * memcpy-batch node (13.x only). */
enum params_kind {
  NP_KERNEL,
  NP_KERNEL_ENTRY,
  NP_KERNEL_CTX,
  NP_KERNEL_FUNCTION,
  NP_HOST,
  NP_HOST_SPIN,
  NP_ALLOC,
  NP_BATCH
};
static struct cudaGraphNodeParams node_params(enum params_kind kind) {
  struct cudaGraphNodeParams p;
  memset(&p, 0, sizeof p);
  switch (kind) {
  case NP_KERNEL:
  case NP_KERNEL_ENTRY:
  case NP_KERNEL_CTX:
  case NP_KERNEL_FUNCTION:
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = H(0xF1);
    p.kernel.gridDim.x = 2;
    p.kernel.gridDim.y = 1;
    p.kernel.gridDim.z = 1;
    p.kernel.blockDim.x = 32;
    p.kernel.blockDim.y = 4;
    p.kernel.blockDim.z = 1;
    p.kernel.sharedMemBytes = 64;
    p.kernel.kernelParams = (void **)H(0xF2);
    if (kind == NP_KERNEL_ENTRY) p.kernel.functionType = cudaKernelFunctionTypeDeviceEntry;
    if (kind == NP_KERNEL_CTX) p.kernel.ctx = (cudaExecutionContext_t)H(0xC7);
    if (kind == NP_KERNEL_FUNCTION) p.kernel.functionType = cudaKernelFunctionTypeFunction;
    break;
  case NP_HOST:
  case NP_HOST_SPIN:
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = (cudaHostFn_t)H(0xF3);
    p.host.userData = H(0xF4);
    if (kind == NP_HOST_SPIN) p.host.syncMode = cudaHostTaskSpinWait;
    break;
  case NP_ALLOC:
    p.type = cudaGraphNodeTypeMemAlloc;
    p.alloc.bytesize = 4096;
    break;
  case NP_BATCH:
    p.type = cudaGraphNodeTypeMemcpyBatch;
    break;
  }
  return p;
}

static void add_node(const char *key, cudaGraph_t graph, enum edge_kind kind,
                     enum params_kind params) {
  cudaGraphNode_t node = (cudaGraphNode_t)SENTINEL;
  struct cudaGraphNodeParams p = node_params(params);
  rc(key, cudaGraphAddNode(&node, graph, FROM, edge_data(kind), 2, &p));
  printf("%s.node=%#llx\n", key, HEX(node));
  calls(key);
}

/* cudaGraphNodeSetParams (exec == NULL) or cudaGraphExecNodeSetParams; dptr: what a
 * memory-allocation node got back (0x77 before). */
static void set_params(const char *key, cudaGraphExec_t exec, cudaGraphNode_t node,
                       enum params_kind kind) {
  struct cudaGraphNodeParams p = node_params(kind);
  if (kind == NP_ALLOC) p.alloc.dptr = SENTINEL;
  rc(key, exec ? cudaGraphExecNodeSetParams(exec, node, &p) : cudaGraphNodeSetParams(node, &p));
  if (kind == NP_ALLOC) printf("%s.dptr=%#llx\n", key, HEX(p.alloc.dptr));
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

/* ---- cudaChooseDevice ------------------------------------------------------------------------ */

static void choose(const char *key, int with_prop) {
  struct cudaDeviceProp prop;
  memset(&prop, 0, sizeof prop);
  strcpy(prop.name, "want");
  prop.major = 9;
  prop.minor = 1;
  prop.totalGlobalMem = (size_t)1 << 33;
  prop.multiProcessorCount = 132;
  prop.clusterLaunch = 1;
  prop.deviceNumaId = 5;
  int device = 77;
  rc(key, cudaChooseDevice(&device, with_prop ? &prop : NULL));
  printf("%s.device=%d\n", key, device);
  calls(key);
}

/* ---- cudaStreamUpdateCaptureDependencies ----------------------------------------------------- */

static void update_deps(const char *key, cudaStream_t stream, enum edge_kind kind) {
  rc(key, cudaStreamUpdateCaptureDependencies(stream, (cudaGraphNode_t *)FROM, edge_data(kind), 2,
                                              cudaStreamSetCaptureDependencies));
  calls(key);
}

/* A channel descriptor, built here (cudaCreateChannelDesc would be a runtime call). */
static struct cudaChannelFormatDesc channel(int x, int y, int z, int w,
                                            enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

/* ---- External memory and semaphores ---------------------------------------------------------- */

static void ext_memory(const char *key, int reserved) {
  struct cudaExternalMemoryHandleDesc d;
  memset(&d, 0, sizeof d);
  d.type = cudaExternalMemoryHandleTypeOpaqueWin32;
  d.handle.win32.handle = H(0x1234);
  d.handle.win32.name = H(0x5678);
  d.size = 1 << 20;
  d.flags = cudaExternalMemoryDedicated;
  if (reserved) d.reserved[5] = 1;
  cudaExternalMemory_t mem = (cudaExternalMemory_t)SENTINEL;
  rc(key, cudaImportExternalMemory(&mem, &d));
  printf("%s.mem=%#llx\n", key, HEX(mem));
  calls(key);
}

static void ext_buffer(const char *key, cudaExternalMemory_t mem, int reserved) {
  struct cudaExternalMemoryBufferDesc d;
  memset(&d, 0, sizeof d);
  d.offset = 4096;
  d.size = 65536;
  d.flags = 0;
  if (reserved) d.reserved[15] = 7;
  void *ptr = SENTINEL;
  rc(key, cudaExternalMemoryGetMappedBuffer(&ptr, mem, &d));
  printf("%s.ptr=%#llx\n", key, HEX(ptr));
  calls(key);
}

static void ext_mipmap(const char *key, cudaExternalMemory_t mem, int reserved) {
  struct cudaExternalMemoryMipmappedArrayDesc d;
  memset(&d, 0, sizeof d);
  d.offset = 8;
  d.formatDesc = channel(8, 16, 32, 0, cudaChannelFormatKindFloat);
  d.extent.width = 64;
  d.extent.height = 32;
  d.extent.depth = 2;
  d.flags = 4;
  d.numLevels = 3;
  if (reserved) d.reserved[0] = 1;
  cudaMipmappedArray_t mipmap = (cudaMipmappedArray_t)SENTINEL;
  rc(key, cudaExternalMemoryGetMappedMipmappedArray(&mipmap, mem, &d));
  printf("%s.mipmap=%#llx\n", key, HEX(mipmap));
  calls(key);
}

static void ext_semaphore(const char *key, int reserved) {
  struct cudaExternalSemaphoreHandleDesc d;
  memset(&d, 0, sizeof d);
  d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = 7;
  d.flags = 0;
  if (reserved) d.reserved[3] = 2;
  cudaExternalSemaphore_t sem = (cudaExternalSemaphore_t)SENTINEL;
  rc(key, cudaImportExternalSemaphore(&sem, &d));
  printf("%s.sem=%#llx\n", key, HEX(sem));
  calls(key);
}

static void sem_signal(const char *key, cudaExternalSemaphore_t sem) {
  struct cudaExternalSemaphoreSignalParams p;
  memset(&p, 0, sizeof p);
  p.params.fence.value = 42;
  p.params.keyedMutex.key = 9;
  p.flags = 1;
  rc(key, cudaSignalExternalSemaphoresAsync(&sem, &p, 1, STREAM));
  calls(key);
}

static void sem_wait(const char *key, cudaExternalSemaphore_t sem) {
  struct cudaExternalSemaphoreWaitParams p;
  memset(&p, 0, sizeof p);
  p.params.fence.value = 43;
  p.params.keyedMutex.key = 10;
  p.params.keyedMutex.timeoutMs = 5;
  p.flags = 0;
  rc(key, cudaWaitExternalSemaphoresAsync(&sem, &p, 1, STREAM));
  calls(key);
}

/* ---- Texture and surface objects ------------------------------------------------------------- */

enum res_kind { RES_PITCH2D, RES_LINEAR, RES_ARRAY, RES_FLAGS };
static struct cudaResourceDesc resource(enum res_kind kind) {
  struct cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  if (kind == RES_LINEAR) {
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = H(0xD200);
    r.res.linear.desc = channel(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    r.res.linear.sizeInBytes = 4096;
  } else if (kind == RES_ARRAY) {
    r.resType = cudaResourceTypeArray;
    r.res.array.array = (cudaArray_t)H(0xA100);
  } else {
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = H(0xD100);
    r.res.pitch2D.desc = channel(32, 0, 0, 0, cudaChannelFormatKindFloat);
    r.res.pitch2D.width = 64;
    r.res.pitch2D.height = 32;
    r.res.pitch2D.pitchInBytes = 256;
    if (kind == RES_FLAGS) r.flags = 1;
  }
  return r;
}

enum view_kind { VIEW_NULL, VIEW_PLAIN, VIEW_RESERVED };
static void texture(const char *key, enum res_kind rk, enum view_kind vk) {
  struct cudaResourceDesc r = resource(rk);
  struct cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  t.addressMode[0] = cudaAddressModeClamp;
  t.addressMode[1] = cudaAddressModeMirror;
  t.addressMode[2] = cudaAddressModeBorder;
  t.filterMode = cudaFilterModeLinear;
  t.readMode = cudaReadModeNormalizedFloat;
  t.sRGB = 1;
  t.borderColor[0] = 0.25f;
  t.borderColor[3] = 1.0f;
  t.normalizedCoords = 1;
  t.maxAnisotropy = 8;
  t.mipmapFilterMode = cudaFilterModeLinear;
  t.mipmapLevelBias = 0.5f;
  t.minMipmapLevelClamp = 1.0f;
  t.maxMipmapLevelClamp = 4.0f;
  t.disableTrilinearOptimization = 1;
  t.seamlessCubemap = 1;
  struct cudaResourceViewDesc v;
  memset(&v, 0, sizeof v);
  v.format = cudaResViewFormatFloat1;
  v.width = 64;
  v.height = 32;
  v.depth = 0;
  v.firstMipmapLevel = 0;
  v.lastMipmapLevel = 0;
  v.firstLayer = 1;
  v.lastLayer = 2;
  if (vk == VIEW_RESERVED) v.reserved[2] = 1;
  cudaTextureObject_t obj = 77;
  rc(key, cudaCreateTextureObject(&obj, &r, &t, vk == VIEW_NULL ? NULL : &v));
  printf("%s.obj=%llu\n", key, (unsigned long long)obj);
  calls(key);
}

static void surface(const char *key, enum res_kind rk) {
  struct cudaResourceDesc r = resource(rk);
  cudaSurfaceObject_t obj = 77;
  rc(key, cudaCreateSurfaceObject(&obj, &r));
  printf("%s.obj=%llu\n", key, (unsigned long long)obj);
  calls(key);
}

/* A queried pitch-2D resource, field by field; `tail` counts the non-zero bytes of the union
 * after the pitch2D member (0xAB-prefilled, so the stub must have cleared them). */
static void get_resource(const char *key, int surf, unsigned long long object) {
  struct cudaResourceDesc r;
  memset(&r, 0xAB, sizeof r);
  rc(key, surf ? cudaGetSurfaceObjectResourceDesc(&r, object)
               : cudaGetTextureObjectResourceDesc(&r, object));
  const unsigned char *u = (const unsigned char *)&r.res;
  int tail = 0;
  for (size_t i = sizeof r.res.pitch2D; i < sizeof r.res; i++) tail += u[i] != 0;
  printf("%s.resType=%u\n", key, (unsigned)r.resType);
  printf("%s.ptr=%#llx\n", key, HEX(r.res.pitch2D.devPtr));
  printf("%s.desc=%d,%d,%d,%d,%d\n", key, r.res.pitch2D.desc.x, r.res.pitch2D.desc.y,
         r.res.pitch2D.desc.z, r.res.pitch2D.desc.w, (int)r.res.pitch2D.desc.f);
  printf("%s.size=%zu,%zu,%zu\n", key, r.res.pitch2D.width, r.res.pitch2D.height,
         r.res.pitch2D.pitchInBytes);
  printf("%s.tail=%d\n", key, tail);
  printf("%s.flags=%u\n", key, r.flags);
  calls(key);
}

static void get_view(const char *key, unsigned long long object) {
  struct cudaResourceViewDesc v;
  memset(&v, 0xAB, sizeof v);
  rc(key, cudaGetTextureObjectResourceViewDesc(&v, object));
  int reserved = 0;
  for (int i = 0; i < 16; i++) reserved += v.reserved[i] != 0;
  printf("%s.view=%u %zu,%zu,%zu %u-%u %u-%u\n", key, (unsigned)v.format, v.width, v.height,
         v.depth, v.firstMipmapLevel, v.lastMipmapLevel, v.firstLayer, v.lastLayer);
  printf("%s.reserved=%d\n", key, reserved);
  calls(key);
}

static void get_texture_desc(const char *key, unsigned long long object) {
  struct cudaTextureDesc t;
  memset(&t, 0xAB, sizeof t);
  rc(key, cudaGetTextureObjectTextureDesc(&t, object));
  printf("%s.tex=%d,%d,%d %d %d %d %g,%g,%g,%g %d %u %d %g %g %g %d\n", key, (int)t.addressMode[0],
         (int)t.addressMode[1], (int)t.addressMode[2], (int)t.filterMode, (int)t.readMode, t.sRGB,
         t.borderColor[0], t.borderColor[1], t.borderColor[2], t.borderColor[3],
         t.normalizedCoords, t.maxAnisotropy, (int)t.mipmapFilterMode, t.mipmapLevelBias,
         t.minMipmapLevelClamp, t.maxMipmapLevelClamp, t.disableTrilinearOptimization);
  printf("%s.seamless=%d\n", key, t.seamlessCubemap);
  calls(key);
}

/* ---- cudaMemcpyBatchAsync / cudaMemcpy3DBatchAsync ------------------------------------------- */

static void memcpy_batch(const char *key, size_t count) {
  void *const dsts[2] = {H(0xB001), H(0xB002)};
  const void *const srcs[2] = {H(0xB101), H(0xB102)};
  const size_t sizes[2] = {16, 32};
  rc(key, cudaMemcpyBatchAsync(dsts, srcs, sizes, count, (struct cudaMemcpyAttributes *)H(0xB200),
                               (size_t *)H(0xB300), 1, STREAM));
  calls(key);
}

static void memcpy_3d_batch(const char *key, size_t count) {
  rc(key, cudaMemcpy3DBatchAsync(count, (struct cudaMemcpy3DBatchOp *)H(0xB400), 0, STREAM));
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

  add_node("node_null", GRAPH, EDGES_NULL, NP_KERNEL);
  add_node("node_zero", GRAPH, EDGES_ZERO, NP_KERNEL);
  add_node("node_programmatic", GRAPH, EDGES_PROGRAMMATIC, NP_KERNEL);
  add_node("node_bad", (cudaGraph_t)BAD, EDGES_NULL, NP_KERNEL);
  add_node("node_ctx", GRAPH, EDGES_NULL, NP_KERNEL_CTX);

  exec_update("update_ok", (cudaGraphExec_t)H(0xE000), 1);
  exec_update("update_refused", (cudaGraphExec_t)H(0xE001), 1);
  exec_update("update_bad", (cudaGraphExec_t)BAD, 1);
  exec_update("update_no_info", (cudaGraphExec_t)H(0xE000), 0);

  entry_point("ep_found", "cuInit", 1);
  entry_point("ep_missing", "cuNoSuchFunction", 1);
  entry_point("ep_found_no_status", "cuInit", 0);
  entry_point("ep_missing_no_status", "cuNoSuchFunction", 0);

  mem_pool("pool_create", 5);
  mem_pool_access("pool_access", (cudaMemPool_t)H(0x9100));
  mem_pool_access("pool_access_bad", (cudaMemPool_t)BAD);
  entry_point("ep_null", NULL, 1);

  choose("choose_ok", 1);
  choose("choose_null", 0);

  update_deps("upd_null", STREAM, EDGES_NULL);
  update_deps("upd_zero", STREAM, EDGES_ZERO);
  update_deps("upd_programmatic", STREAM, EDGES_PROGRAMMATIC);
  update_deps("upd_bad", (cudaStream_t)BAD, EDGES_NULL);

  ext_memory("extmem_ok", 0);
  ext_memory("extmem_reserved", 1);
  ext_buffer("extbuf_ok", (cudaExternalMemory_t)H(0xC000), 0);
  ext_buffer("extbuf_reserved", (cudaExternalMemory_t)H(0xC000), 1);
  ext_buffer("extbuf_bad", (cudaExternalMemory_t)BAD, 0);
  ext_mipmap("extmip_ok", (cudaExternalMemory_t)H(0xC000), 0);
  ext_mipmap("extmip_reserved", (cudaExternalMemory_t)H(0xC000), 1);
  ext_semaphore("extsem_ok", 0);
  ext_semaphore("extsem_reserved", 1);
  sem_signal("signal_ok", (cudaExternalSemaphore_t)H(0xC100));
  sem_signal("signal_bad", (cudaExternalSemaphore_t)BAD);
  sem_wait("wait_ok", (cudaExternalSemaphore_t)H(0xC100));

  texture("tex_pitch2d", RES_PITCH2D, VIEW_PLAIN);
  texture("tex_linear_no_view", RES_LINEAR, VIEW_NULL);
  texture("tex_res_flags", RES_FLAGS, VIEW_PLAIN);
  texture("tex_view_reserved", RES_PITCH2D, VIEW_RESERVED);
  surface("surf_array", RES_ARRAY);
  surface("surf_flags", RES_FLAGS);
  get_resource("texres_ok", 0, 0x7E01);
  get_resource("texres_bad", 0, 0xBAD);
  get_resource("surfres_ok", 1, 0x5F01);
  get_view("view_ok", 0x7E01);
  get_view("view_bad", 0xBAD);
  get_texture_desc("texdesc_ok", 0x7E01);
  get_texture_desc("texdesc_bad", 0xBAD);

  memcpy_batch("batch_ok", 2);
  memcpy_batch("batch_error", 0);
  memcpy_3d_batch("batch3d_ok", 2);

  set_params("np_kernel", NULL, (cudaGraphNode_t)H(0x300), NP_KERNEL);
  set_params("np_kernel_entry", NULL, (cudaGraphNode_t)H(0x300), NP_KERNEL_ENTRY);
  set_params("np_kernel_ctx", NULL, (cudaGraphNode_t)H(0x300), NP_KERNEL_CTX);
  set_params("np_kernel_function", NULL, (cudaGraphNode_t)H(0x300), NP_KERNEL_FUNCTION);
  set_params("np_host", NULL, (cudaGraphNode_t)H(0x300), NP_HOST);
  set_params("np_host_spin", NULL, (cudaGraphNode_t)H(0x300), NP_HOST_SPIN);
  set_params("np_alloc", NULL, (cudaGraphNode_t)H(0x300), NP_ALLOC);
  set_params("np_batch", NULL, (cudaGraphNode_t)H(0x300), NP_BATCH);
  set_params("np_bad", NULL, (cudaGraphNode_t)BAD, NP_HOST);
  set_params("xnp_host", (cudaGraphExec_t)H(0xE000), (cudaGraphNode_t)H(0x300), NP_HOST);
  set_params("xnp_host_spin", (cudaGraphExec_t)H(0xE000), (cudaGraphNode_t)H(0x300), NP_HOST_SPIN);
  return 0;
}
