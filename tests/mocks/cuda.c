/* Mock libcuda.so.1 (the driver), built by build.rs with the real soname.
 *
 *   MOCK_DRIVER_VERSION  what cuDriverGetVersion reports (13000, or 11080 for an old driver)
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
  (void)error;
  *text = "mock driver error string";
  return 0;
}

EXPORT int cuGetErrorName(int error, const char **text) {
  (void)error;
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

/* CUmemPoolProps grew between 11.8 and 13.x (the stub exports 13's layout): an 11.x driver
 * must never see the call (4242), a 13.x one gets it (returns 0, writes a pool handle). */
EXPORT int cuMemPoolCreate(void **pool, const void *props) {
  (void)props;
  if (MOCK_DRIVER_VERSION < 12000) return NEVER_CALLED;
  *pool = (void *)0x9001;
  return 0;
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
