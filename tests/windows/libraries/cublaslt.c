/* cuBLASLt on Windows (tests/windows/win_math.c runs it as the command `cublaslt`): its
 * version and the runtime it was built with, then a handle, which needs a device. */
#include <stdio.h>

#include <cublasLt.h>

void cmd_cublaslt(void) {
  int major = -1, minor = -1, patch = -1;
  printf("cublasLtGetVersion %zu\n", cublasLtGetVersion());
  cublasLtGetProperty(MAJOR_VERSION, &major);
  cublasLtGetProperty(MINOR_VERSION, &minor);
  cublasStatus_t rc = cublasLtGetProperty(PATCH_LEVEL, &patch);
  printf("cublasLtGetProperty rc=%d\n", (int)rc);
  if (rc == CUBLAS_STATUS_SUCCESS) printf("version cublaslt %d.%d.%d\n", major, minor, patch);
  printf("cublasLtGetCudartVersion %zu\n", cublasLtGetCudartVersion());
  cublasLtHandle_t h = NULL;
  rc = cublasLtCreate(&h);
  printf("cublasLtCreate rc=%d\n", (int)rc);
  if (rc == CUBLAS_STATUS_SUCCESS) cublasLtDestroy(h);
}
