/* Mock libcuda.so.1 (the driver), built by build.rs with the real soname.
 *
 *   MOCK_DRIVER_VERSION  what cuDriverGetVersion reports (13000, or 12080 / 12040 / 11080 for an
 *                        older driver)
 *   MOCK_ALL_SYMBOLS     also exports entry points newer than the driver, returning 4242
 *
 * cuDeviceGet writes 700 + ordinal; cuInit accepts only flags 0, like the real driver. */
#include <stddef.h>

#ifndef MOCK_DRIVER_VERSION
#error MOCK_DRIVER_VERSION must be defined
#endif

#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define NEVER_CALLED 4242

EXPORT int cuDriverGetVersion(int *version) {
  *version = MOCK_DRIVER_VERSION;
  return 0;
}

EXPORT int cuInit(unsigned flags) { return flags == 0 ? 0 : 1; /* CUDA_ERROR_INVALID_VALUE */ }

EXPORT int cuDeviceGet(int *device, int ordinal) {
  *device = 700 + ordinal;
  return 0;
}

EXPORT int cuGetErrorString(int error, const char **text) {
  if (error == 999) { /* a failure with NULL written: the stub must write its own text */
    *text = NULL;
    return 1;
  }
  *text = "mock driver error string";
  return 0;
}

EXPORT int cuGetErrorName(int error, const char **text) {
  if (error == 999) { /* a failure with NULL written: the stub must write its own text */
    *text = NULL;
    return 1;
  }
  *text = "MOCK_DRIVER_ERROR_NAME";
  return 0;
}

/* Added in CUDA 12.0. */
#if MOCK_DRIVER_VERSION >= 12000 || defined(MOCK_ALL_SYMBOLS)
EXPORT int cuLibraryLoadData(void **library, const void *code, void *jit_options, void **jit_values,
                             unsigned n_jit, void *lib_options, void **lib_values, unsigned n_lib) {
  (void)code, (void)jit_options, (void)jit_values, (void)n_jit, (void)lib_options, (void)lib_values,
      (void)n_lib;
  *library = (void *)0x4c1b;
  return MOCK_DRIVER_VERSION >= 12000 ? 0 : NEVER_CALLED;
}
#endif

/* cuMemAlloc_v2 (CUDA 3.2 ABI) two ways: the export writes 0xd15, what cuGetProcAddress hands
 * out for ("cuMemAlloc", 3020) writes 0x3020, so a test sees which one the stub bound. */
EXPORT int cuMemAlloc_v2(unsigned long long *dptr, size_t bytes) {
  (void)bytes;
  *dptr = 0xd15;
  return 0;
}
static int mem_alloc_3020(unsigned long long *dptr, size_t bytes) {
  (void)bytes;
  *dptr = 0x3020;
  return 0;
}
/* The CUDA 11.3 prototype of cuGetProcAddress. Knows only cuMemAlloc at 3020 with the legacy
 * stream flag; anything else is CUDA_ERROR_NOT_FOUND (500), so the stub falls back to dlsym. */
EXPORT int cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
  if (strcmp(symbol, "cuMemAlloc") == 0 && version == 3020 && flags == 1) {
    *pfn = (void *)mem_alloc_3020;
    return 0;
  }
  *pfn = NULL;
  return 500;
}

/* CUmemPoolProps (88 bytes) has CUmemLocation {int type; int id;} at offset 8 in 11.8 and 12.9;
 * 13.5 made `id` an anonymous union {int id; struct {..} localized;} of the same 4 bytes. Every
 * driver gets the call (same ABI); this mock reads each major's own layout: allocType must be
 * 1 (pinned) and location.type 1 (device), else 1 (CUDA_ERROR_INVALID_VALUE); the pool written
 * is 0x9000 + 16 * location.id + the driver's major. */
struct mem_location {
  int type;
#if MOCK_DRIVER_VERSION >= 13000
  union {
    int id;
    struct {
      unsigned char deviceId, localityDomainId;
    } localized;
  };
#else
  int id;
#endif
};
struct mem_pool_props {
  int allocType;
  int handleTypes;
  struct mem_location location;
  void *win32SecurityAttributes;
  unsigned char tail[64]; /* 11.8: reserved[64]; 12.0+: maxSize, usage, reserved */
};
_Static_assert(sizeof(struct mem_pool_props) == 88, "CUmemPoolProps");
EXPORT int cuMemPoolCreate(void **pool, const struct mem_pool_props *props) {
  if (props == NULL || props->allocType != 1 || props->location.type != 1) return 1;
  *pool = (void *)(size_t)(0x9000 + 16 * props->location.id + MOCK_DRIVER_VERSION / 1000);
  return 0;
}

/* CUgraphNodeParams (256 bytes in 12.9 and 13.5): type at 0, a 232-byte union at 16. 13.x grew
 * some member structs into union bytes a 12.x driver never reads (host node: syncMode at 16,
 * preferred context at 24; event record: context at 8). This mock reads its own major's host
 * and event-record layouts: fn 0x1111 / userData 0x2222 (host) or event 0x3333 give 0, else 1.
 * A 12.x driver that finds non-zero bytes where only 13.x callers write (a 13-only field
 * reached it) returns 4242; 13.x reads syncMode/ctx and encodes them: 100 + syncMode, or 200
 * when a context is set. The handle arguments must be 0x6100 (node) / 0x6200 (exec). An 11.x
 * driver has none of these entry points. */
#if MOCK_DRIVER_VERSION >= 12000
struct node_params {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    unsigned char bytes[232];
    struct {
      void *fn, *userData;
#if MOCK_DRIVER_VERSION >= 13000
      unsigned syncMode;
      void *ctx;
#endif
    } host;
    struct {
      void *event;
#if MOCK_DRIVER_VERSION >= 13000
      void *ctx;
#endif
    } eventRecord;
  } u;
  long long reserved2;
};
_Static_assert(sizeof(struct node_params) == 256, "CUgraphNodeParams");
static int node_params_check(const struct node_params *p) {
  if (p == NULL) return 1;
  if (MOCK_DRIVER_VERSION < 13000) {
    size_t from = p->type == 3 ? 16 : p->type == 7 ? 8 : 232;
    for (size_t i = from; i < 32 && i < 232; i++)
      if (p->u.bytes[i] != 0) return NEVER_CALLED;
  }
  if (p->type == 3) {
    if (p->u.host.fn != (void *)0x1111 || p->u.host.userData != (void *)0x2222) return 1;
#if MOCK_DRIVER_VERSION >= 13000
    if (p->u.host.ctx != NULL) return 200;
    if (p->u.host.syncMode != 0) return 100 + (int)p->u.host.syncMode;
#endif
    return 0;
  }
  if (p->type == 7) {
    if (p->u.eventRecord.event != (void *)0x3333) return 1;
#if MOCK_DRIVER_VERSION >= 13000
    if (p->u.eventRecord.ctx != NULL) return 200;
#endif
    return 0;
  }
  return 1;
}
EXPORT int cuGraphNodeSetParams(void *node, struct node_params *params) {
  return node == (void *)0x6100 ? node_params_check(params) : 1;
}
EXPORT int cuGraphExecNodeSetParams(void *exec, void *node, struct node_params *params) {
  return exec == (void *)0x6200 && node == (void *)0x6100 ? node_params_check(params) : 1;
}
/* Writes node 0x6300 on success. */
EXPORT int cuGraphAddNode_v2(void **node, void *graph, const void *deps, const void *edges,
                             size_t n, struct node_params *params) {
  (void)deps, (void)edges;
  int rc = graph == (void *)0x6000 && n == 0 ? node_params_check(params) : 1;
  if (rc == 0) *node = (void *)0x6300;
  return rc;
}
#endif

/* Floating-point arguments (s0, s1 on aarch64, xmm0, xmm1 on x86-64): 0 only when both
 * arrive exactly as the probe passed them, through the first-call resolver and the traced
 * entry, which must keep every vector register across the Rust code they run. */
EXPORT int cuTexRefSetMipmapLevelClamp(void *tex, float min_clamp, float max_clamp) {
  return tex == (void *)0xf10 && min_clamp == 1.5f && max_clamp == -2.25f ? 0 : 1;
}

/* Eleven arguments, five of them on the x86-64 stack: 0 when each has the value the probe
 * passes, else 1000 + the position of the first that differs (the traced entry copies stack
 * arguments; this is how a test sees that it copied them right). */
EXPORT int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shmem, void *stream, void **params, void **extra) {
  const unsigned long long got[11] = {(unsigned long long)(size_t)f, gx, gy, gz, bx, by, bz, shmem,
                                      (unsigned long long)(size_t)stream,
                                      (unsigned long long)(size_t)params,
                                      (unsigned long long)(size_t)extra};
  for (int i = 0; i < 11; i++)
    if (got[i] != 0xf00u + (unsigned)i) return 1000 + i;
  return 0;
}
