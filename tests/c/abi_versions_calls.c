/* One C source compiled twice into a shared library: against the CUDA 12.9 headers
 * (libcalls12.so, linked as cuda-stubs-cudart-12.pc links: the link-time stub
 * libstubs_cudart_abi12.so) and against the 13.5 headers (libcalls13.so, linked as
 * cuda-stubs-cudart.pc links: libstubs_cudart.so). tests/tests/abi_versions.rs loads both into
 * one process (tests/c/abi_versions_main.c). Each calls the functions whose prototype differs
 * between the two headers with its own header's prototype — cudaMemAdvise (int device /
 * struct cudaMemLocation), cudaGraphAddDependencies (4 / 5 arguments), cudaStreamGetCaptureInfo
 * (12.x headers: `_v2`, 6 arguments / 13.x: 7), cudaGetDeviceProperties (12.x headers:
 * `_v2`, 1032 bytes / 13.x: 1008) and cudaSignalExternalSemaphoresAsync (12.x headers: `_v2`,
 * which 13.0 renamed to the plain name) — and prints `<12|13>.<call>=...` with the results, and after
 * each `<12|13>.<call>.got=...`: what the mock runtime received (mock_take_calls of
 * tests/mocks/cudart_abi.c; "no-mock" on NVIDIA's runtimes). */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if CUDART_VERSION >= 13000
#define TAG "13"
#define CALLS calls_cuda13
#else
#define TAG "12"
#define CALLS calls_cuda12
#endif

#define HEX(p) ((unsigned long long)(uintptr_t)(p))

/* Any loaded object's mock_take_calls: the mock runtime may be loaded by path beside a
 * compatibility library of the same soname (tests/tests/compat.rs), which a dlopen of the
 * soname returns instead. */
static int find_take(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  void *lib = info->dlpi_name[0] != '\0' ? dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD) : NULL;
  if (lib != NULL && *(void **)data == NULL) *(void **)data = dlsym(lib, "mock_take_calls");
  return *(void **)data != NULL;
}

static void got(const char *call) {
  static const char *sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};
  void (*take)(char *, size_t) = NULL;
  for (size_t i = 0; i < sizeof sonames / sizeof *sonames && take == NULL; i++) {
    void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (lib != NULL) *(void **)&take = dlsym(lib, "mock_take_calls");
  }
  if (take == NULL) dl_iterate_phdr(find_take, (void *)&take);
  char buf[1024] = "no-mock";
  if (take != NULL) take(buf, sizeof buf);
  printf("%s.%s.got=%s\n", TAG, call, buf);
}

__attribute__((visibility("default"))) void CALLS(void);

void CALLS(void) {
#if CUDART_VERSION >= 13000
  struct cudaMemLocation location = {0};
  location.type = cudaMemLocationTypeDevice;
  location.id = 3;
  int rc = (int)cudaMemAdvise((void *)0x5000, 64, cudaMemAdviseSetPreferredLocation, location);
#else
  int rc = (int)cudaMemAdvise((void *)0x5000, 64, cudaMemAdviseSetPreferredLocation, 3);
#endif
  printf("%s.advise=%d\n", TAG, rc);
  got("advise");

  cudaGraphNode_t from[2] = {(cudaGraphNode_t)0x101, (cudaGraphNode_t)0x102};
  cudaGraphNode_t to[2] = {(cudaGraphNode_t)0x201, (cudaGraphNode_t)0x202};
#if CUDART_VERSION >= 13000
  rc = (int)cudaGraphAddDependencies((cudaGraph_t)0x77, from, to, NULL, 2);
#else
  rc = (int)cudaGraphAddDependencies((cudaGraph_t)0x77, from, to, 2);
#endif
  printf("%s.deps=%d\n", TAG, rc);
  got("deps");

  enum cudaStreamCaptureStatus status = (enum cudaStreamCaptureStatus)-1;
  unsigned long long id = 0;
  cudaGraph_t graph = NULL;
  const cudaGraphNode_t *deps = NULL;
  size_t n = 0;
#if CUDART_VERSION >= 13000
  const cudaGraphEdgeData *edges = NULL;
  rc = (int)cudaStreamGetCaptureInfo((cudaStream_t)0x55, &status, &id, &graph, &deps, &edges, &n);
  printf("%s.capture=%d status=%d id=%llu graph=%#llx n=%zu dep0=%#llx edge0=%s\n", TAG, rc,
         (int)status, id, HEX(graph), n, HEX(deps ? deps[0] : NULL),
         edges == NULL ? "null" : edges[0].type ? "nondefault" : "default");
#else
  rc = (int)cudaStreamGetCaptureInfo((cudaStream_t)0x55, &status, &id, &graph, &deps, &n);
  printf("%s.capture=%d status=%d id=%llu graph=%#llx n=%zu dep0=%#llx\n", TAG, rc, (int)status,
         id, HEX(graph), n, HEX(deps ? deps[0] : NULL));
#endif
  got("capture");

  struct cudaDeviceProp prop;
  prop.name[0] = '\0';
  rc = (int)cudaGetDeviceProperties(&prop, 3);
#if CUDART_VERSION >= 13000
  /* deviceNumaId: a 13.0 field (older runtimes: from cudaDeviceGetAttribute). */
  printf("%s.props=%d size=%zu name=%s sms=%d numa=%d\n", TAG, rc, sizeof prop,
         rc == 0 ? prop.name : "-", rc == 0 ? prop.multiProcessorCount : 0,
         rc == 0 ? prop.deviceNumaId : 0);
#else
  /* clockRate: a field 13.0 removed (13.x: from cudaDeviceGetAttribute). */
  printf("%s.props=%d size=%zu name=%s sms=%d clock=%d\n", TAG, rc, sizeof prop,
         rc == 0 ? prop.name : "-", rc == 0 ? prop.multiProcessorCount : 0,
         rc == 0 ? prop.clockRate : 0);
#endif
  got("props");

  cudaExternalSemaphore_t sem = (cudaExternalSemaphore_t)0x4001;
  struct cudaExternalSemaphoreSignalParams signal;
  memset(&signal, 0, sizeof signal);
  signal.params.fence.value = 42;
  signal.params.keyedMutex.key = 9;
  signal.flags = 1;
  rc = (int)cudaSignalExternalSemaphoresAsync(&sem, &signal, 1, (cudaStream_t)0x5000);
  printf("%s.signal=%d\n", TAG, rc);
  got("signal");
}
