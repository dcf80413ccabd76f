/* Compiled against the CUDA 12.9 headers and linked against the link-time stub
 * libstubs_cudart_abi12.so (-lstubs_cudart_abi12, as cuda-stubs-cudart-12.pc links), so every
 * name whose 12.x and 13.x prototypes differ records its CUDA 12 version
 * (cudaGraphAddDependencies@CUDA_STUBS_CUDART_12) and runs the runtime stub's CUDA 12
 * implementation. cudaGraphAddDependencies has 4 arguments here (13.x added edge data): the
 * stub must hand exactly those to a 12.x runtime, and translate on 13.x, where the same name
 * takes 5. Prints `key=value` lines, including what the mock runtime
 * received (mock_take_calls of tests/mocks/cudart_abi.c). The other sections call each family
 * the CUDA 12 versions translate for a 13.x runtime (stubs-cudart/src/adapters/abi12/); names
 * 12.x headers redirect to `_v2` (the legacy plain exports, what 11.x-built binaries call) and
 * the `_ptsz` twins are looked up in the stub with dlvsym, at their CUDA 12 version. */
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

/* The stub's CUDA 12 version of a name (not the header's redirected name): what this
 * program's own references to such names record. */
static void *stub(const char *name) {
  void *lib = dlopen("libstubs_cudart.so", RTLD_LAZY | RTLD_NOLOAD);
  return lib ? dlvsym(lib, name, "CUDA_STUBS_CUDART_12") : NULL;
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

static void textures(void) {
  struct cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = (void *)0xD100;
  res.res.pitch2D.desc.x = 8;
  res.res.pitch2D.desc.y = 16;
  res.res.pitch2D.desc.f = cudaChannelFormatKindFloat;
  res.res.pitch2D.width = 64;
  res.res.pitch2D.height = 32;
  res.res.pitch2D.pitchInBytes = 256;
  struct cudaTextureDesc tex;
  memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = cudaAddressModeClamp;
  tex.addressMode[1] = cudaAddressModeMirror;
  tex.filterMode = cudaFilterModeLinear;
  tex.normalizedCoords = 1;
  tex.maxAnisotropy = 2;
  tex.seamlessCubemap = 1;
  struct cudaResourceViewDesc view;
  memset(&view, 0, sizeof view);
  view.format = cudaResViewFormatFloat1;
  view.width = 64;
  view.height = 32;
  view.lastMipmapLevel = 2;
  view.lastLayer = 1;
  cudaTextureObject_t t = 0;
  cudaError_t r = cudaCreateTextureObject(&t, &res, &tex, &view);
  printf("tex=%d obj=%#llx\n", (int)r, t);
  calls();
  cudaSurfaceObject_t s = 0;
  r = cudaCreateSurfaceObject(&s, &res);
  printf("surf=%d obj=%#llx\n", (int)r, s);
  calls();
  struct {
    struct cudaResourceDesc r;
    unsigned char tail[96];
  } got;
  memset(&got, 0xAB, sizeof got);
  r = cudaGetTextureObjectResourceDesc(&got.r, 0x7E0D);
  printf("tex_res=%d type=%d ptr=%#llx desc=%d,%d,%d,%d,%d w=%zu h=%zu pitch=%zu tail=%d\n", (int)r,
         (int)got.r.resType, (unsigned long long)(uintptr_t)got.r.res.pitch2D.devPtr,
         got.r.res.pitch2D.desc.x, got.r.res.pitch2D.desc.y, got.r.res.pitch2D.desc.z,
         got.r.res.pitch2D.desc.w, (int)got.r.res.pitch2D.desc.f, got.r.res.pitch2D.width,
         got.r.res.pitch2D.height, got.r.res.pitch2D.pitchInBytes,
         untouched(&got, sizeof got.r, sizeof got));
  calls();
  memset(&got, 0xAB, sizeof got);
  r = cudaGetSurfaceObjectResourceDesc(&got.r, 0xBAD);
  printf("surf_res_bad=%d untouched=%d\n", (int)r, untouched(&got, 0, sizeof got));
  calls();
  struct {
    struct cudaResourceViewDesc v;
    unsigned char tail[80];
  } gv;
  memset(&gv, 0xAB, sizeof gv);
  r = cudaGetTextureObjectResourceViewDesc(&gv.v, 0x7E0D);
  printf("view=%d format=%d w=%zu h=%zu d=%zu mip=%u-%u layer=%u-%u tail=%d\n", (int)r,
         (int)gv.v.format, gv.v.width, gv.v.height, gv.v.depth, gv.v.firstMipmapLevel,
         gv.v.lastMipmapLevel, gv.v.firstLayer, gv.v.lastLayer,
         untouched(&gv, sizeof gv.v, sizeof gv));
  calls();
  struct cudaTextureDesc td;
  memset(&td, 0xAB, sizeof td);
  r = cudaGetTextureObjectTextureDesc(&td, 0x7E0D);
  printf("tex_desc=%d addr=%d,%d,%d filter=%d aniso=%u border3=%g max=%g seamless=%d\n", (int)r,
         (int)td.addressMode[0], (int)td.addressMode[1], (int)td.addressMode[2],
         (int)td.filterMode, td.maxAnisotropy, td.borderColor[3], td.maxMipmapLevelClamp,
         td.seamlessCubemap);
  calls();
}

static void external(void) {
  struct cudaExternalMemoryHandleDesc d;
  memset(&d, 0, sizeof d);
  d.type = cudaExternalMemoryHandleTypeOpaqueWin32;
  d.handle.win32.handle = (void *)0x1234;
  d.handle.win32.name = (void *)0x5678;
  d.size = 4096;
  d.flags = cudaExternalMemoryDedicated;
  cudaExternalMemory_t m = NULL;
  cudaError_t r = cudaImportExternalMemory(&m, &d);
  printf("extmem=%d mem=%#llx\n", (int)r, (unsigned long long)(uintptr_t)m);
  calls();
  struct cudaExternalMemoryBufferDesc b = {16, 1024, 0};
  void *p = NULL;
  r = cudaExternalMemoryGetMappedBuffer(&p, m, &b);
  printf("buffer=%d ptr=%#llx\n", (int)r, (unsigned long long)(uintptr_t)p);
  calls();
  p = (void *)0x5555;
  r = cudaExternalMemoryGetMappedBuffer(&p, (cudaExternalMemory_t)0xBAD, &b);
  printf("buffer_bad=%d ptr=%#llx\n", (int)r, (unsigned long long)(uintptr_t)p);
  calls();
  struct cudaExternalMemoryMipmappedArrayDesc md;
  memset(&md, 0, sizeof md);
  md.offset = 32;
  md.formatDesc.x = 32;
  md.formatDesc.f = cudaChannelFormatKindFloat;
  md.extent.width = 64;
  md.extent.height = 32;
  md.extent.depth = 1;
  md.numLevels = 3;
  cudaMipmappedArray_t mm = NULL;
  r = cudaExternalMemoryGetMappedMipmappedArray(&mm, m, &md);
  printf("mipmap=%d array=%#llx\n", (int)r, (unsigned long long)(uintptr_t)mm);
  calls();
  struct cudaExternalSemaphoreHandleDesc sd;
  memset(&sd, 0, sizeof sd);
  sd.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
  sd.handle.fd = 7;
  cudaExternalSemaphore_t sem = NULL;
  r = cudaImportExternalSemaphore(&sem, &sd);
  printf("extsem=%d sem=%#llx\n", (int)r, (unsigned long long)(uintptr_t)sem);
  calls();

  /* The legacy plain names with the _v1 parameter structs (12.x headers call _v2). */
  typedef cudaError_t (*signal_fn)(const cudaExternalSemaphore_t *,
                                   const struct cudaExternalSemaphoreSignalParams_v1 *, unsigned,
                                   cudaStream_t);
  typedef cudaError_t (*wait_fn)(const cudaExternalSemaphore_t *,
                                 const struct cudaExternalSemaphoreWaitParams_v1 *, unsigned,
                                 cudaStream_t);
  signal_fn signal = NULL, signal_ptsz = NULL;
  wait_fn wait = NULL, wait_ptsz = NULL;
  *(void **)&signal = stub("cudaSignalExternalSemaphoresAsync");
  *(void **)&signal_ptsz = stub("cudaSignalExternalSemaphoresAsync_ptsz");
  *(void **)&wait = stub("cudaWaitExternalSemaphoresAsync");
  *(void **)&wait_ptsz = stub("cudaWaitExternalSemaphoresAsync_ptsz");
  cudaExternalSemaphore_t sems[10];
  for (int i = 0; i < 10; i++) sems[i] = (cudaExternalSemaphore_t)(uintptr_t)(0x4001 + i);
  struct cudaExternalSemaphoreSignalParams_v1 sp[2];
  memset(sp, 0, sizeof sp);
  sp[0].params.fence.value = 42;
  sp[0].params.keyedMutex.key = 9;
  sp[0].flags = 1;
  sp[1].params.fence.value = 44;
  sp[1].params.keyedMutex.key = 11;
  printf("signal=%d\n", signal ? (int)signal(sems, sp, 2, (cudaStream_t)0x5000) : -1);
  calls();
  printf("signal_ptsz=%d\n", signal_ptsz ? (int)signal_ptsz(sems, sp, 1, (cudaStream_t)0x5001) : -1);
  calls();
  /* More entries than the stub converts on its stack. */
  struct cudaExternalSemaphoreWaitParams_v1 wp[10];
  memset(wp, 0, sizeof wp);
  for (int i = 0; i < 10; i++) {
    wp[i].params.fence.value = 100 + i;
    wp[i].params.keyedMutex.key = 200 + i;
    wp[i].params.keyedMutex.timeoutMs = 300 + i;
    wp[i].flags = i % 2;
  }
  printf("wait=%d\n", wait ? (int)wait(sems, wp, 10, (cudaStream_t)0x5002) : -1);
  calls();
  cudaExternalSemaphore_t bad = (cudaExternalSemaphore_t)0xBAD;
  printf("wait_bad=%d\n", wait_ptsz ? (int)wait_ptsz(&bad, wp, 1, (cudaStream_t)0x5003) : -1);
  calls();
}

static void node_params(void) {
  /* 0xAB where a 12.x caller never writes (past its member): 13.x's new fields live there. */
  struct cudaGraphNodeParams p;
  memset(&p, 0xAB, sizeof p);
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = (void *)0xF00;
  p.kernel.gridDim.x = 1;
  p.kernel.gridDim.y = 2;
  p.kernel.gridDim.z = 3;
  p.kernel.blockDim.x = 32;
  p.kernel.blockDim.y = 1;
  p.kernel.blockDim.z = 1;
  p.kernel.sharedMemBytes = 64;
  p.kernel.kernelParams = (void **)0xA00;
  p.kernel.extra = NULL;
  cudaGraphNode_t deps[1] = {(cudaGraphNode_t)0x111};
  cudaGraphNode_t out = NULL;
  cudaError_t r = cudaGraphAddNode(&out, (cudaGraph_t)0x77, deps, 1, &p);
  printf("add_kernel=%d node=%#llx\n", (int)r, (unsigned long long)(uintptr_t)out);
  calls();
  memset(&p, 0, sizeof p);
  p.type = cudaGraphNodeTypeMemAlloc;
  p.alloc.bytesize = 4096;
  p.alloc.dptr = (void *)0x5555;
  r = cudaGraphAddNode(&out, (cudaGraph_t)0x78, NULL, 0, &p);
  printf("add_alloc=%d dptr=%#llx\n", (int)r, (unsigned long long)(uintptr_t)p.alloc.dptr);
  calls();
  p.alloc.dptr = (void *)0x5555;
  r = cudaGraphAddNode(&out, (cudaGraph_t)0xBAD, NULL, 0, &p);
  printf("add_bad=%d dptr=%#llx\n", (int)r, (unsigned long long)(uintptr_t)p.alloc.dptr);
  calls();
  memset(&p, 0xAB, sizeof p);
  p.type = cudaGraphNodeTypeHost;
  p.host.fn = (cudaHostFn_t)0xF10;
  p.host.userData = (void *)0xF20;
  r = cudaGraphNodeSetParams((cudaGraphNode_t)0x222, &p);
  printf("set_host=%d\n", (int)r);
  calls();
  memset(&p, 0xAB, sizeof p);
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = (void *)0xF01;
  p.kernel.gridDim.x = p.kernel.gridDim.y = p.kernel.gridDim.z = 4;
  p.kernel.blockDim.x = p.kernel.blockDim.y = p.kernel.blockDim.z = 2;
  p.kernel.sharedMemBytes = 0;
  p.kernel.kernelParams = NULL;
  p.kernel.extra = NULL;
  r = cudaGraphExecNodeSetParams((cudaGraphExec_t)0x333, (cudaGraphNode_t)0x444, &p);
  printf("exec_set_kernel=%d\n", (int)r);
  calls();
  /* A node type 12.9 does not have. */
  memset(&p, 0, sizeof p);
  p.type = (enum cudaGraphNodeType)14;
  r = cudaGraphNodeSetParams((cudaGraphNode_t)0x222, &p);
  printf("set_unknown=%d\n", (int)r);
  calls();
}

static void batches(void) {
  void *dsts[2] = {(void *)0xB001, (void *)0xB002};
  void *srcs[2] = {(void *)0xC001, (void *)0xC002};
  size_t sizes[2] = {16, 32};
  struct cudaMemcpyAttributes *attrs = (struct cudaMemcpyAttributes *)0xA77;
  size_t *idxs = (size_t *)0x1D5;
  size_t fail = 77;
  cudaError_t r = cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail,
                                       (cudaStream_t)0x6000);
  printf("batch=%d fail=%zu\n", (int)r, fail);
  calls();
  fail = 77;
  r = cudaMemcpyBatchAsync(dsts, srcs, sizes, 0, attrs, idxs, 1, &fail, (cudaStream_t)0x6000);
  printf("batch_empty=%d fail=%#zx\n", (int)r, fail);
  calls();
  cudaError_t (*ptsz)(void **, void **, size_t *, size_t, struct cudaMemcpyAttributes *, size_t *,
                      size_t, size_t *, cudaStream_t) = NULL;
  *(void **)&ptsz = stub("cudaMemcpyBatchAsync_ptsz");
  printf("batch_ptsz=%d\n",
         ptsz ? (int)ptsz(dsts, srcs, sizes, 2, attrs, idxs, 1, NULL, (cudaStream_t)0x6001) : -1);
  calls();
  fail = 77;
  r = cudaMemcpy3DBatchAsync(2, (struct cudaMemcpy3DBatchOp *)0x3D0, &fail, 0,
                             (cudaStream_t)0x6002);
  printf("batch3d=%d fail=%zu\n", (int)r, fail);
  calls();
  cudaError_t (*ptsz3d)(size_t, struct cudaMemcpy3DBatchOp *, size_t *, unsigned long long,
                        cudaStream_t) = NULL;
  *(void **)&ptsz3d = stub("cudaMemcpy3DBatchAsync_ptsz");
  fail = 77;
  r = ptsz3d ? ptsz3d(0, (struct cudaMemcpy3DBatchOp *)0x3D0, &fail, 0, (cudaStream_t)0x6003)
             : (cudaError_t)-1;
  printf("batch3d_empty=%d fail=%#zx\n", (int)r, fail);
  calls();
}

/* Same prototypes in 12.x and 13.x, 11.x's differ: one unversioned export serves both headers. */
static void shared_with_13(void) {
  cudaGraphExec_t exec = NULL;
  cudaError_t r = cudaGraphInstantiate(&exec, (cudaGraph_t)0x7000, 1);
  printf("instantiate=%d exec=%#llx\n", (int)r, (unsigned long long)(uintptr_t)exec);
  struct cudaFuncAttributes fa;
  memset(&fa, 0xAB, sizeof fa);
  r = cudaFuncGetAttributes(&fa, (const void *)0x4321);
  printf("funcattr=%d numRegs=%d clusterDimMustBeSet=%d\n", (int)r, fa.numRegs,
         fa.clusterDimMustBeSet);
  calls();
  cudaGraphExecUpdateResultInfo info;
  memset(&info, 0, sizeof info);
  r = cudaGraphExecUpdate((cudaGraphExec_t)0xE001, (cudaGraph_t)0x7000, &info);
  printf("exec_update=%d result=%d errorNode=%#llx\n", (int)r, (int)info.result,
         (unsigned long long)(uintptr_t)info.errorNode);
  calls();
  void *fp = NULL;
  enum cudaDriverEntryPointQueryResult st = (enum cudaDriverEntryPointQueryResult)-1;
  r = cudaGetDriverEntryPoint("cuMissing", &fp, 0, &st);
  printf("entry_missing=%d fp=%#llx status=%d\n", (int)r, (unsigned long long)(uintptr_t)fp,
         (int)st);
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
  textures();
  external();
  node_params();
  batches();
  shared_with_13();
  return 0;
}
