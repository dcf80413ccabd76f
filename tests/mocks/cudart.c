/* Mock libcudart, built by build.rs once per variant with the real soname.
 *
 *   MOCK_MAJOR          11, 12 or 13: which major's symbol set is exported
 *   MOCK_PARTIAL        only cudaRuntimeGetVersion and cudaMalloc/cudaFree (per-symbol failure)
 *   MOCK_VERSION_FAILS  cudaRuntimeGetVersion returns 35 like 11.8 without a driver
 *   MOCK_REPORTED_VERSION  what cudaRuntimeGetVersion reports instead (a too-old 10.2)
 *   MOCK_ALL_SYMBOLS    also exports the functions the major lacks, returning 4242: a stub that
 *                       gates by major must never call them
 *   MOCK_REENTER        a constructor calls cudaGetDeviceCount through the global scope (the
 *                       stub's export, which interposes), from inside the stub's search
 *
 * Every value is recognisable: the version is 11080 / 12090 / 13000, cudaGetDeviceCount
 * writes 100 + major, cudaMalloc writes 0x10000 * major + size. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <execinfo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MOCK_MAJOR
#error MOCK_MAJOR must be defined
#endif

#define EXPORT __attribute__((visibility("default")))

#if defined(MOCK_REPORTED_VERSION)
#define MOCK_VERSION MOCK_REPORTED_VERSION
#elif MOCK_MAJOR == 11
#define MOCK_VERSION 11080
#elif MOCK_MAJOR == 12
#define MOCK_VERSION 12090
#else
#define MOCK_VERSION 13000
#endif

/* Calls of a function the loaded major lacks: never expected. */
#define NEVER_CALLED 4242

/* With MOCK_BACKTRACE set: unwinds from here (glibc's backtrace, i.e. the .eh_frame unwind
 * tables of every frame, the stubs' asm resolver and traced entry included) and says whether
 * the program's `main` (exported with -rdynamic) was reached. */
static void mock_backtrace(const char *where) {
  if (!getenv("MOCK_BACKTRACE")) return;
  void *frames[64];
  int n = backtrace(frames, 64), main_seen = 0;
  for (int i = 0; i < n; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_sname && strcmp(info.dli_sname, "main") == 0)
      main_seen = 1;
  }
  printf("mock-backtrace %s main=%s\n", where, main_seen ? "yes" : "no");
}

EXPORT int cudaRuntimeGetVersion(int *version) {
  mock_backtrace("cudaRuntimeGetVersion");
#ifdef MOCK_VERSION_FAILS
  (void)version;
  return 35; /* cudaErrorInsufficientDriver */
#else
  *version = MOCK_VERSION;
  return 0;
#endif
}

EXPORT int cudaMalloc(void **p, size_t size) {
  *p = (void *)(uintptr_t)(0x10000u * MOCK_MAJOR + size);
  return 0;
}

EXPORT int cudaFree(void *p) { return p == NULL ? 1 : 0; }

#ifndef MOCK_PARTIAL
EXPORT int cudaDriverGetVersion(int *version) {
  *version = 0;
  return 0;
}

EXPORT int cudaGetDeviceCount(int *count) {
  mock_backtrace("cudaGetDeviceCount");
  *count = 100 + MOCK_MAJOR;
  return 0;
}

EXPORT int cudaDeviceSynchronize(void) { return 0; }

/* NULL for 999, as 13.x's runtime without a driver answers for some codes: the stub must replace it. */
EXPORT const char *cudaGetErrorString(int error) {
  static char text[64];
  if (error == 999)
    return NULL;
  snprintf(text, sizeof text, "mock cudart %d: error %d", MOCK_MAJOR, error);
  return text;
}

EXPORT const char *cudaGetErrorName(int error) {
  static char text[64];
  if (error == 999)
    return NULL;
  snprintf(text, sizeof text, "mockCudart%dError%d", MOCK_MAJOR, error);
  return text;
}

/* Removed in CUDA 13. */
#if MOCK_MAJOR < 13 || defined(MOCK_ALL_SYMBOLS)
EXPORT int cudaThreadSynchronize(void) { return MOCK_MAJOR < 13 ? 0 : NEVER_CALLED; }
#endif
#endif /* MOCK_PARTIAL */

/* A struct returned through a hidden result pointer (sret): the fields echo the arguments. */
struct mock_channel_desc {
  int x, y, z, w, f;
};
EXPORT struct mock_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  struct mock_channel_desc d = {x, y, z, w, f};
  return d;
}

#ifdef MOCK_REENTER
/* What a library whose own exports the stub interposes on does when it calls one of them while
 * it is loaded: the call reaches the stub, on the thread running the stub's search. */
__attribute__((constructor)) static void mock_reenter(void) {
  int (*count)(int *) = (int (*)(int *))dlsym(RTLD_DEFAULT, "cudaGetDeviceCount");
  int n = -1;
  int rc = count ? count(&n) : -1;
  fprintf(stderr, "mock constructor: cudaGetDeviceCount rc=%d n=%d\n", rc, n);
}
#endif
