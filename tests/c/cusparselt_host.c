/* cuSPARSELt without a GPU, compiled against NVIDIA's cusparseLt.h of one major and linked either
 * to libstubs_cusparselt.so or, for comparison, to NVIDIA's libcusparseLt.so.0 itself
 * (tests/cusparselt.rs). Prints one line per call: the library's properties (its own version),
 * what cusparseLtInit answers without a GPU, what the calls needing an initialized handle answer
 * after that (cusparseLtGetVersion, a descriptor), the NULL-pointer answers, every error name and
 * string, and the size and alignment of the opaque structs the caller allocates (the ABI the
 * header and the library share). With -DWITH_STATUS (the stub build), also what the stubs say
 * (cuda_stubs.h), and with STUBS_TESTS_RUNTIME_AFTER set, the runtime called after cuSPARSELt
 * was bound. */
/* cuSPARSELt 0.8's cusparseLt.h uses C11's alignas without including <stdalign.h> (0.10's does):
 * a C program includes it first. */
#include <stdalign.h>
/* NVIDIA's switch: the cusparse.h that cusparseLt.h includes marks its deprecated API, which
 * -Werror would refuse. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparseLt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_STATUS
#include <cuda_runtime_api.h>

#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

#define SIZE(type) \
  printf("cusparseLt sizeof(%s)=%zu alignof=%zu\n", #type, sizeof(type), alignof(type))

int main(void) {
  static const char *const names[3] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int p = 0; p < 3; p++) {
    int value = -1;
    int rc = (int)cusparseLtGetProperty((libraryPropertyType)p, &value);
    printf("cusparseLtGetProperty(%s) rc=%d value=%d\n", names[p], rc, value);
  }
  printf("cusparseLtGetProperty(NULL) rc=%d\n", (int)cusparseLtGetProperty(MAJOR_VERSION, NULL));

  cusparseLtHandle_t handle;
  memset(&handle, 0, sizeof handle);
  int rc = (int)cusparseLtInit(&handle);
  printf("cusparseLtInit rc=%d\n", rc);
  int version = -1;
  int vrc = (int)cusparseLtGetVersion(&handle, &version);
  /* With a GPU (rc 0) the version is the library's; without one the handle is not initialized
   * and the call refuses it. */
  printf("cusparseLtGetVersion rc=%d version=%d\n", vrc, rc == 0 ? version : -1);
  cusparseLtMatDescriptor_t matrix;
  memset(&matrix, 0, sizeof matrix);
  printf("cusparseLtDenseDescriptorInit rc=%d\n",
         (int)cusparseLtDenseDescriptorInit(&handle, &matrix, 32, 32, 32, 16, CUDA_R_16F,
                                            CUSPARSE_ORDER_ROW));
  if (rc == 0) printf("cusparseLtDestroy rc=%d\n", (int)cusparseLtDestroy(&handle));
  printf("cusparseLtInit(NULL) rc=%d\n", (int)cusparseLtInit(NULL));

  for (int code = -1; code <= 12; code++)
    printf("cusparseLtGetErrorName(%d) = %s\n", code,
           text(cusparseLtGetErrorName((cusparseStatus_t)code)));
  for (int code = -1; code <= 12; code++)
    printf("cusparseLtGetErrorString(%d) = %s\n", code,
           text(cusparseLtGetErrorString((cusparseStatus_t)code)));

  SIZE(cusparseLtHandle_t);
  SIZE(cusparseLtMatDescriptor_t);
  SIZE(cusparseLtMatmulDescriptor_t);
  SIZE(cusparseLtMatmulAlgSelection_t);
  SIZE(cusparseLtMatmulPlan_t);

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cusparselt_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
  if (getenv("STUBS_TESTS_RUNTIME_AFTER") != NULL) {
    int runtime = 0;
    rc = (int)cudaRuntimeGetVersion(&runtime);
    printf("runtime after rc=%d version=%d\n", rc, runtime);
    if (cuda_stubs_cudart_status(&s) == 0)
      printf("runtime status bound=%d version=%d message=%s\n", s.bound, s.version,
             s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
