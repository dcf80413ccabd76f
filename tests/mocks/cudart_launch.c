/* Launch-path mock of libcudart, compiled into the mock-11 / mock-12 / mock-13 cudart variants
 * next to cudart.c (same MOCK_MAJOR). It implements what nvcc-generated host code and
 * tests/cuda/launch.cu call, with the entry points each real major exports (`nm -D
 * --defined-only` of libcudart 11.8.89, 12.9.79, 13.5.37):
 *
 *   all majors   __cudaRegisterFatBinary, __cudaRegisterFatBinaryEnd, __cudaUnregisterFatBinary,
 *                __cudaRegisterFunction, __cudaRegisterVar, __cudaPushCallConfiguration,
 *                __cudaPopCallConfiguration, cudaLaunchKernel, cudaLaunchKernel_ptsz,
 *                cudaGetLastError, cudaPeekAtLastError, cudaStreamCreate, cudaStreamDestroy
 *   12 and 13    __cudaGetKernel, __cudaLaunchKernel, __cudaLaunchKernel_ptsz (11.8 has none:
 *                nvcc 12+ host code needs the stub to translate them to cudaLaunchKernel)
 *
 * Each launch that arrives prints one line on stdout (the program's own stdout, so the order
 * with its lines is kept):
 *
 *   mock-launch <entry> <device name> grid=X,Y,Z block=X,Y,Z smem=N stream=0xS args=<values>
 *
 * The argument values are decoded from the kernel argument array by the registered device name
 * (the mock knows launch.cu's kernels' signatures). __cudaGetKernel hands out a pointer into the
 * mock's kernel table, never the host function, so a handle given to cudaLaunchKernel, or a host
 * function given to __cudaLaunchKernel, is refused (cudaErrorInvalidDeviceFunction) and shows.
 *
 * Errors follow the real runtime: a failed call returns its code and makes it the calling
 * thread's last error, which cudaPeekAtLastError returns and cudaGetLastError returns and
 * clears. A grid or block with a zero dimension is cudaErrorInvalidConfiguration (9). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef MOCK_MAJOR
#error MOCK_MAJOR must be defined
#endif

#define EXPORT __attribute__((visibility("default")))

enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  INVALID_CONFIGURATION = 9,
  MISSING_CONFIGURATION = 52,
  INVALID_DEVICE_FUNCTION = 98,
};

/* The fat binary wrapper nvcc emits (__fatDeviceText): magic 0x466243b1. */
#define FATBIN_WRAPPER_MAGIC 0x466243b1

/* What cudaStreamCreate hands out: recognisable in the launch lines. */
#define MOCK_STREAM ((void *)(uintptr_t)0x57ea0)

typedef struct {
  unsigned x, y, z;
} dim3;

static __thread int last_error;

static int fail(int code) {
  last_error = code;
  return code;
}

EXPORT int cudaGetLastError(void) {
  int e = last_error;
  last_error = SUCCESS;
  return e;
}

EXPORT int cudaPeekAtLastError(void) { return last_error; }

EXPORT int cudaStreamCreate(void **stream) {
  if (stream == NULL) return fail(INVALID_VALUE);
  *stream = MOCK_STREAM;
  return SUCCESS;
}

EXPORT int cudaStreamDestroy(void *stream) {
  return stream == MOCK_STREAM ? SUCCESS : fail(INVALID_VALUE);
}

/* --- registration ------------------------------------------------------------------------ */

struct fatbin_wrapper {
  int magic;
  int version;
  const void *data;
  void *filename_or_fatbins;
};

/* The handle __cudaRegisterFatBinary returns (a void ** the program keeps). */
static void *fatbin_slot;

EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
  const struct fatbin_wrapper *w = fatCubin;
  printf("mock-register fatbinary magic=0x%x\n", w != NULL ? (unsigned)w->magic : 0u);
  fatbin_slot = fatCubin;
  return &fatbin_slot;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle) {
  printf("mock-register end %s\n", handle == &fatbin_slot ? "ok" : "wrong-handle");
}

EXPORT void __cudaUnregisterFatBinary(void **handle) {
  /* At exit (atexit from the registration constructor): stdio is flushed after this runs. */
  printf("mock-unregister %s\n", handle == &fatbin_slot ? "ok" : "wrong-handle");
}

struct kernel {
  const void *host;
  char name[64];
};

static struct kernel kernels[16];
static size_t kernel_count;

EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, void *tid, void *bid,
                                   void *bDim, void *gDim, int *wSize) {
  (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  if (handle != &fatbin_slot || kernel_count == sizeof kernels / sizeof kernels[0]) {
    printf("mock-register function %s refused\n", deviceName);
    return;
  }
  kernels[kernel_count].host = hostFun;
  snprintf(kernels[kernel_count].name, sizeof kernels[0].name, "%s", deviceName);
  kernel_count++;
  printf("mock-register function %s\n", deviceName);
}

EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global) {
  (void)handle, (void)hostVar, (void)deviceAddress, (void)ext, (void)constant, (void)global;
  printf("mock-register var %s size=%zu\n", deviceName, size);
}

static const struct kernel *by_host(const void *func) {
  for (size_t i = 0; i < kernel_count; i++)
    if (kernels[i].host == func) return &kernels[i];
  return NULL;
}

/* --- call configuration: a per-thread stack, as the runtime keeps ------------------------- */

struct config {
  dim3 grid, block;
  size_t smem;
  void *stream;
};

static __thread struct config configs[8];
static __thread unsigned config_depth;

EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, void *stream) {
  if (config_depth == sizeof configs / sizeof configs[0]) return (unsigned)fail(INVALID_VALUE);
  struct config c = {grid, block, smem, stream};
  configs[config_depth++] = c;
  return SUCCESS;
}

EXPORT int __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void **stream) {
  if (config_depth == 0) return fail(MISSING_CONFIGURATION);
  const struct config *c = &configs[--config_depth];
  *grid = c->grid;
  *block = c->block;
  *smem = c->smem;
  *stream = c->stream;
  return SUCCESS;
}

/* --- launches ---------------------------------------------------------------------------- */

/* Mirrors launch.cu's struct Params (passed by value). */
struct params {
  int count;
  float bias;
  char tag;
};

static void format_args(char *buf, size_t n, const char *name, void **args) {
  if (strcmp(name, "_Z4filliPfd") == 0) { /* fill(int, float *, double) */
    snprintf(buf, n, "%d,%p,%g", *(const int *)args[0], *(void *const *)args[1],
             *(const double *)args[2]);
  } else if (strcmp(name, "_Z5apply6ParamsPKfPf") == 0) { /* apply(Params, const float *, float *) */
    const struct params *p = args[0];
    snprintf(buf, n, "{%d,%g,%c},%p,%p", p->count, (double)p->bias, p->tag,
             *(void *const *)args[1], *(void *const *)args[2]);
  } else if (strcmp(name, "_Z6noargsv") == 0) {
    snprintf(buf, n, "none");
  } else {
    snprintf(buf, n, "unknown-signature");
  }
}

static int launch(const char *entry, const struct kernel *k, const void *what, dim3 grid,
                  dim3 block, void **args, size_t smem, void *stream) {
  if (k == NULL) {
    printf("mock-launch %s refused %p: not a registered %s\n", entry, what,
           entry[0] == '_' ? "kernel handle" : "host function");
    return fail(INVALID_DEVICE_FUNCTION);
  }
  char values[256];
  format_args(values, sizeof values, k->name, args);
  printf("mock-launch %s %s grid=%u,%u,%u block=%u,%u,%u smem=%zu stream=%p args=%s\n", entry,
         k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z, smem, stream, values);
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return fail(INVALID_CONFIGURATION);
  return SUCCESS;
}

EXPORT int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                            void *stream) {
  return launch("cudaLaunchKernel", by_host(func), func, grid, block, args, smem, stream);
}

EXPORT int cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                 size_t smem, void *stream) {
  return launch("cudaLaunchKernel_ptsz", by_host(func), func, grid, block, args, smem, stream);
}

#if MOCK_MAJOR >= 12
/* A handle is valid only as a pointer to a registered entry of the table. */
static const struct kernel *by_handle(const void *handle) {
  for (size_t i = 0; i < kernel_count; i++)
    if (handle == &kernels[i]) return &kernels[i];
  return NULL;
}

EXPORT int __cudaGetKernel(void **handle, const void *func) {
  const struct kernel *k = by_host(func);
  if (k == NULL) return fail(INVALID_DEVICE_FUNCTION);
  *handle = (void *)k;
  return SUCCESS;
}

EXPORT int __cudaLaunchKernel(void *handle, dim3 grid, dim3 block, void **args, size_t smem,
                              void *stream) {
  return launch("__cudaLaunchKernel", by_handle(handle), handle, grid, block, args, smem, stream);
}

EXPORT int __cudaLaunchKernel_ptsz(void *handle, dim3 grid, dim3 block, void **args, size_t smem,
                                   void *stream) {
  return launch("__cudaLaunchKernel_ptsz", by_handle(handle), handle, grid, block, args, smem,
                stream);
}
#endif
