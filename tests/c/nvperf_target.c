/* Perfworks' target library without a GPU, compiled against NVIDIA's nvperf_target.h of one
 * major (CUPTI's include folder) and linked either to libstubs_nvperf_target.so or, for
 * comparison, to NVIDIA's libnvperf_target.so itself (tests/nvperf.rs). Prints one line per
 * call: the release NVPW_QueryVersionNumber answers for the SDK's API set (12.x, 13.x), an
 * unknown API set (the error path: NVPA_STATUS_INVALID_ARGUMENT), NVPW_InitializeTarget,
 * NVPW_GetDeviceCount (0 without a GPU). Then whether libnvperf_target.so is mapped. With
 * -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
/* As nvperf_host.c: the header's non-static inline text function. */
#define inline static inline
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

int main(void) {
#ifdef NVPW_SDK_VERSION
  query("sdk", NVPW_SDK_VERSION);
#endif
  query("unknown-api-set", 0);

  NVPW_InitializeTarget_Params target;
  memset(&target, 0, sizeof target);
  target.structSize = NVPW_InitializeTarget_Params_STRUCT_SIZE;
  printf("NVPW_InitializeTarget rc=%d\n", (int)NVPW_InitializeTarget(&target));

  NVPW_GetDeviceCount_Params count;
  memset(&count, 0, sizeof count);
  count.structSize = NVPW_GetDeviceCount_Params_STRUCT_SIZE;
  count.numDevices = 99;
  int rc = (int)NVPW_GetDeviceCount(&count);
  printf("NVPW_GetDeviceCount rc=%d devices=%zu\n", rc, count.numDevices);

  printf("mapped libnvperf_target.so=%d\n", loaded("libnvperf_target.so"));
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvperf_target_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s missing=%u\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)", s.missing);
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
