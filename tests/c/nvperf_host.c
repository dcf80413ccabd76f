/* Perfworks' host library without a GPU, compiled against NVIDIA's nvperf_host.h and
 * nvperf_target.h of one major (CUPTI's include folder) and linked either to
 * libstubs_nvperf_host.so or, for comparison, to NVIDIA's libnvperf_host.so itself
 * (tests/nvperf.rs). Prints one line per call: the release NVPW_QueryVersionNumber answers for
 * the SDK's API set (12.x, 13.x; 11.8's header has no NVPW_SDK_VERSION), an unknown API set
 * (the error path: NVPA_STATUS_INVALID_ARGUMENT), NVPW_InitializeHost, the chips
 * NVPW_GetSupportedChipNames lists, NVPW_InitializeTarget and NVPW_GetDeviceCount (0 without a
 * GPU), and the texts of the codes the stub answers. Then whether libnvperf_host.so is mapped.
 * With -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
/* 12.x's and 13.x's nvperf_common.h define NVPW_NVPAStatusToString `inline` without `static`:
 * C11 emits no definition of such a function for a call the compiler does not inline. */
#define inline static inline
#include <nvperf_host.h>
#include <nvperf_target.h>
#undef inline

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static int loaded(const char *soname) {
  void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (h) dlclose(h);
  return h != NULL;
}

static void query(const char *what, uint64_t api_set) {
  NVPW_QueryVersionNumber_Params p;
  memset(&p, 0, sizeof p);
  p.structSize = NVPW_QueryVersionNumber_Params_STRUCT_SIZE;
  p.apiSet = api_set;
  int rc = (int)NVPW_QueryVersionNumber(&p);
  printf("NVPW_QueryVersionNumber %s rc=%d release=%u.%u.%u\n", what, rc, p.relMajor, p.relMinor,
         p.relPatch);
}

static void status_text(NVPA_Status code) {
#ifdef NVPW_SDK_VERSION
  const char *name = NULL, *comment = NULL;
  NVPW_NVPAStatusToString(code, &name, &comment);
  printf("text %d = %s\n", (int)code, name ? name : "(null)");
#else
  /* 11.8's nvperf_common.h has no text function. */
  printf("text %d = (no text function)\n", (int)code);
#endif
}

int main(void) {
#ifdef NVPW_SDK_VERSION
  query("sdk", NVPW_SDK_VERSION);
#endif
  query("unknown-api-set", 0);

  NVPW_InitializeHost_Params host;
  memset(&host, 0, sizeof host);
  host.structSize = NVPW_InitializeHost_Params_STRUCT_SIZE;
  printf("NVPW_InitializeHost rc=%d\n", (int)NVPW_InitializeHost(&host));

  NVPW_GetSupportedChipNames_Params chips;
  memset(&chips, 0, sizeof chips);
  chips.structSize = NVPW_GetSupportedChipNames_Params_STRUCT_SIZE;
  int rc = (int)NVPW_GetSupportedChipNames(&chips);
  int has_ga100 = 0;
  for (size_t i = 0; rc == 0 && i < chips.numChipNames; i++)
    has_ga100 |= strcmp(chips.ppChipNames[i], "GA100") == 0;
  printf("NVPW_GetSupportedChipNames rc=%d chips=%zu GA100=%d\n", rc, chips.numChipNames,
         has_ga100);

  NVPW_InitializeTarget_Params target;
  memset(&target, 0, sizeof target);
  target.structSize = NVPW_InitializeTarget_Params_STRUCT_SIZE;
  printf("NVPW_InitializeTarget rc=%d\n", (int)NVPW_InitializeTarget(&target));

  NVPW_GetDeviceCount_Params count;
  memset(&count, 0, sizeof count);
  count.structSize = NVPW_GetDeviceCount_Params_STRUCT_SIZE;
  count.numDevices = 99;
  rc = (int)NVPW_GetDeviceCount(&count);
  printf("NVPW_GetDeviceCount rc=%d devices=%zu\n", rc, count.numDevices);

  status_text(NVPA_STATUS_NOT_LOADED);
  status_text(NVPA_STATUS_FUNCTION_NOT_FOUND);
  status_text(NVPA_STATUS_INVALID_ARGUMENT);

  printf("mapped libnvperf_host.so=%d\n", loaded("libnvperf_host.so"));
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvperf_host_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s missing=%u\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)", s.missing);
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
