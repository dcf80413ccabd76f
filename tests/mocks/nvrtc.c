/* Mock libnvrtc, built by build.rs once per variant with the real soname.
 *
 *   MOCK_MAJOR        11, 12 or 13
 *   MOCK_ALL_SYMBOLS  also exports the functions the major lacks, returning 4242
 *
 * nvrtcVersion answers 11.8 / 12.9 / 13.0; the "PTX" is the text "// mock ptx <major>". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef MOCK_MAJOR
#error MOCK_MAJOR must be defined
#endif

#define EXPORT __attribute__((visibility("default")))
#define NEVER_CALLED 4242
#define STR2(x) #x
#define STR(x) STR2(x)
#define MOCK_MAJOR_TEXT STR(MOCK_MAJOR)

#if MOCK_MAJOR == 11
#define MOCK_MINOR 8
#elif MOCK_MAJOR == 12
#define MOCK_MINOR 9
#else
#define MOCK_MINOR 0
#endif

typedef struct mock_program *nvrtcProgram;

EXPORT int nvrtcVersion(int *major, int *minor) {
  *major = MOCK_MAJOR;
  *minor = MOCK_MINOR;
  return 0;
}

/* NULL for 999 (no nvrtcResult): the stub must replace it. */
EXPORT const char *nvrtcGetErrorString(int result) {
  static char text[64];
  if (result == 999)
    return NULL;
  snprintf(text, sizeof text, "mock nvrtc %d: result %d", MOCK_MAJOR, result);
  return text;
}

EXPORT int nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int n,
                              const char *const *headers, const char *const *names) {
  (void)src, (void)name, (void)n, (void)headers, (void)names;
  *prog = (nvrtcProgram)(uintptr_t)(0x7000u + MOCK_MAJOR);
  return 0;
}

EXPORT int nvrtcCompileProgram(nvrtcProgram prog, int n, const char *const *options) {
  (void)options;
  return prog == (nvrtcProgram)(uintptr_t)(0x7000u + MOCK_MAJOR) && n >= 0 ? 0 : 5;
}

EXPORT int nvrtcDestroyProgram(nvrtcProgram *prog) {
  *prog = NULL;
  return 0;
}

static const char ptx_text[] = "// mock ptx " MOCK_MAJOR_TEXT;

EXPORT int nvrtcGetPTXSize(nvrtcProgram prog, size_t *size) {
  (void)prog;
  *size = sizeof ptx_text;
  return 0;
}

EXPORT int nvrtcGetPTX(nvrtcProgram prog, char *ptx) {
  (void)prog;
  memcpy(ptx, ptx_text, sizeof ptx_text);
  return 0;
}

/* Removed in CUDA 13 (replaced by nvrtcGetLTOIR). */
#if MOCK_MAJOR < 13 || defined(MOCK_ALL_SYMBOLS)
static const char nvvm_text[] = "mock nvvm " MOCK_MAJOR_TEXT;
EXPORT int nvrtcGetNVVMSize(nvrtcProgram prog, size_t *size) {
  (void)prog;
  *size = sizeof nvvm_text;
  return MOCK_MAJOR < 13 ? 0 : NEVER_CALLED;
}
EXPORT int nvrtcGetNVVM(nvrtcProgram prog, char *nvvm) {
  (void)prog;
  memcpy(nvvm, nvvm_text, sizeof nvvm_text);
  return MOCK_MAJOR < 13 ? 0 : NEVER_CALLED;
}
#endif

/* Added in CUDA 12. */
#if MOCK_MAJOR >= 12 || defined(MOCK_ALL_SYMBOLS)
EXPORT int nvrtcGetLTOIRSize(nvrtcProgram prog, size_t *size) {
  (void)prog;
  *size = 1000u + MOCK_MAJOR;
  return MOCK_MAJOR >= 12 ? 0 : NEVER_CALLED;
}
#endif
