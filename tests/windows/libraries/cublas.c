/* cuBLAS on Windows (tests/windows/win_math.c runs it as the command `cublas`): its version
 * and the runtime it was built with, then a handle, which needs a device, and the status's
 * name (a text the stub answers itself without a library). */
#include <stdio.h>

#include <cublas_v2.h>

void cmd_cublas(void) {
  int major = -1, minor = -1, patch = -1;
  cublasGetProperty(MAJOR_VERSION, &major);
  cublasGetProperty(MINOR_VERSION, &minor);
  cublasStatus_t rc = cublasGetProperty(PATCH_LEVEL, &patch);
  printf("cublasGetProperty rc=%d\n", (int)rc);
  if (rc == CUBLAS_STATUS_SUCCESS) printf("version cublas %d.%d.%d\n", major, minor, patch);
  printf("cublasGetCudartVersion %zu\n", cublasGetCudartVersion());
  cublasHandle_t h = NULL;
  rc = cublasCreate(&h);
  printf("cublasCreate rc=%d\n", (int)rc);
  const char *name = cublasGetStatusName(rc);
  printf("text cublasGetStatusName %s\n", name ? name : "(null)");
  if (rc == CUBLAS_STATUS_SUCCESS) cublasDestroy(h);
}
