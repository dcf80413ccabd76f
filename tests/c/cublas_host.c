/* cuBLAS through cublas_v2.h of one major, linked either to libstubs_cublas.so or, for
 * comparison, to NVIDIA's libcublas itself (tests/cublas.rs). Prints one line per call: the
 * library's properties and version, what cublasCreate answers (without a GPU, the library's own
 * "not initialized"), a status string, and SGEMM through the 32- and (12.x+ headers) 64-bit-index
 * entry points with no handle: the library's own answer. With -DWITH_STATUS (the stub build),
 * also what the stub says (cuda_stubs.h). */
#include <cublas_v2.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  static const char *const names[3] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int p = 0; p < 3; p++) {
    int value = -1;
    int rc = (int)cublasGetProperty((libraryPropertyType)p, &value);
    printf("cublasGetProperty(%s) rc=%d value=%d\n", names[p], rc, value);
  }
  int version = 0;
  int rc = (int)cublasGetVersion(NULL, &version);
  printf("cublasGetVersion rc=%d version=%d\n", rc, version);
  cublasHandle_t handle = NULL;
  rc = (int)cublasCreate(&handle);
  printf("cublasCreate rc=%d\n", rc);
  if (rc == 0) cublasDestroy(handle);
  const char *text = cublasGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED);
  printf("cublasGetStatusString(15)=%s\n", text ? text : "(null)");
  const char *name = cublasGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED);
  printf("cublasGetStatusName(1)=%s\n", name ? name : "(null)");
  float alpha = 1.0f, beta = 0.0f;
  rc = (int)cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, NULL, 1, NULL, 1, &beta,
                        NULL, 1);
  printf("cublasSgemm(no handle) rc=%d\n", rc);
#if CUBLAS_VER_MAJOR >= 12 /* the _64 entry points came with 12.0 */
  rc = (int)cublasSgemm_64(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, NULL, 1, NULL, 1,
                           &beta, NULL, 1);
  printf("cublasSgemm_64(no handle) rc=%d\n", rc);
#endif
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cublas_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
