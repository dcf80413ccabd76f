/* cuTENSOR without a GPU, compiled against NVIDIA's cutensor.h of one major and linked either to
 * libstubs_cutensor.so or, for comparison, to NVIDIA's libcutensor.so.2 itself
 * (tests/cutensor.rs). Prints one line per call: cuTENSOR's own version and the runtime it was
 * built with, every error string, the logger's host-only calls, what cutensorCreate answers
 * without a GPU, the calls taking a handle with none, and (a header of cuTENSOR 2.3 or later)
 * a block-sparse call, which 2.2.0 exports without declaring it. With -DWITH_STATUS (the stub
 * build), also what the stubs say (cuda_stubs.h). The compute descriptors
 * (CUTENSOR_COMPUTE_DESC_32F …) are data the stub does not export: not used here. */
#include <cutensor.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

int main(void) {
  printf("cutensorGetVersion version=%zu\n", cutensorGetVersion());
  printf("cutensorGetCudartVersion version=%zu\n", cutensorGetCudartVersion());

  for (int code = 0; code <= 21; code++)
    printf("cutensorGetErrorString(%d) = %s\n", code,
           text(cutensorGetErrorString((cutensorStatus_t)code)));

  printf("cutensorLoggerSetLevel rc=%d\n", (int)cutensorLoggerSetLevel(0));
  printf("cutensorLoggerSetMask rc=%d\n", (int)cutensorLoggerSetMask(0));
  printf("cutensorLoggerForceDisable rc=%d\n", (int)cutensorLoggerForceDisable());

  cutensorHandle_t handle = NULL;
  int rc = (int)cutensorCreate(&handle);
  printf("cutensorCreate rc=%d\n", rc);

  int64_t extent[2] = {4, 4};
  cutensorTensorDescriptor_t desc = NULL;
  rc = (int)cutensorCreateTensorDescriptor(NULL, &desc, 2, extent, NULL, CUTENSOR_R_32F, 4);
  printf("cutensorCreateTensorDescriptor(no handle) rc=%d\n", rc);
  cutensorPlanPreference_t pref = NULL;
  rc = (int)cutensorCreatePlanPreference(NULL, &pref, CUTENSOR_ALGO_DEFAULT, CUTENSOR_JIT_MODE_NONE);
  printf("cutensorCreatePlanPreference(no handle) rc=%d\n", rc);

#if CUTENSOR_MAJOR * 100 + CUTENSOR_MINOR >= 203
  rc = (int)cutensorDestroyBlockSparseTensorDescriptor(NULL);
  printf("cutensorDestroyBlockSparseTensorDescriptor(NULL) (header %d) rc=%d\n", CUTENSOR_VERSION,
         rc);
#endif

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cutensor_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
