/* cuSPARSE through cusparse.h of one major, linked either to libstubs_cusparse.so or, for
 * comparison, to NVIDIA's libcusparse itself (tests/cusparse.rs). Prints one line per call: the
 * library's properties, what cusparseCreate answers (without a GPU, the library's own "not
 * initialized"), an error string, a dense-vector descriptor of the generic API (host-side: no
 * GPU), and with 11.x's header a function of the legacy API 12.0 removed. With -DWITH_STATUS (the
 * stub build), also what the stub says. */
/* NVIDIA's own switch: cusparse.h marks its deprecated API, which -Werror would refuse. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>
#include <stdint.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  static const char *const names[3] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int p = 0; p < 3; p++) {
    int value = -1;
    int rc = (int)cusparseGetProperty((libraryPropertyType)p, &value);
    printf("cusparseGetProperty(%s) rc=%d value=%d\n", names[p], rc, value);
  }
  cusparseHandle_t handle = NULL;
  int rc = (int)cusparseCreate(&handle);
  printf("cusparseCreate rc=%d\n", rc);
  if (rc == 0) cusparseDestroy(handle);
  const char *text = cusparseGetErrorString(CUSPARSE_STATUS_NOT_SUPPORTED);
  printf("cusparseGetErrorString(10)=%s\n", text ? text : "(null)");
  const char *name = cusparseGetErrorName(CUSPARSE_STATUS_NOT_INITIALIZED);
  printf("cusparseGetErrorName(1)=%s\n", name ? name : "(null)");
  cusparseDnVecDescr_t vec = NULL;
  static float values[4];
  rc = (int)cusparseCreateDnVec(&vec, 4, values, CUDA_R_32F);
  printf("cusparseCreateDnVec rc=%d\n", rc);
  if (rc == 0) {
    int64_t size = 0;
    void *data = NULL;
    cudaDataType type;
    rc = (int)cusparseDnVecGet(vec, &size, &data, &type);
    printf("cusparseDnVecGet rc=%d size=%lld same=%d type=%d\n", rc, (long long)size,
           data == (void *)values, (int)type);
    printf("cusparseDestroyDnVec rc=%d\n", (int)cusparseDestroyDnVec(vec));
  }
#if CUSPARSE_VER_MAJOR < 12 /* the legacy API, removed in 12.0 */
  csrgemm2Info_t info = NULL;
  rc = (int)cusparseCreateCsrgemm2Info(&info);
  printf("cusparseCreateCsrgemm2Info rc=%d\n", rc);
  if (rc == 0) cusparseDestroyCsrgemm2Info(info);
#endif
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cusparse_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
