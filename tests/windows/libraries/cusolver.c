/* cuSOLVER on Windows (tests/windows/win_math.c runs it as the command `cusolver`): its
 * version, then a dense handle, which needs a device. Loading NVIDIA's DLL loads what it
 * imports: cuBLAS, cuBLASLt and (12.x, 13.x) cuSPARSE, which in 12.x imports nvJitLink. */
#include <stdio.h>

#include <cusolverDn.h>

void cmd_cusolver(void) {
  int major = -1, minor = -1, patch = -1;
  cusolverGetProperty(MAJOR_VERSION, &major);
  cusolverGetProperty(MINOR_VERSION, &minor);
  cusolverStatus_t rc = cusolverGetProperty(PATCH_LEVEL, &patch);
  printf("cusolverGetProperty rc=%d\n", (int)rc);
  if (rc == CUSOLVER_STATUS_SUCCESS) printf("version cusolver %d.%d.%d\n", major, minor, patch);
  cusolverDnHandle_t h = NULL;
  rc = cusolverDnCreate(&h);
  printf("cusolverDnCreate rc=%d\n", (int)rc);
  if (rc == CUSOLVER_STATUS_SUCCESS) cusolverDnDestroy(h);
}
