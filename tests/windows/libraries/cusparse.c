/* cuSPARSE on Windows (tests/windows/win_math.c runs it as the command `cusparse`): its
 * version, then a handle, which needs a device (the real library also prints why), and the
 * status's name. */
#include <stdio.h>

#include <cusparse.h>

void cmd_cusparse(void) {
  int major = -1, minor = -1, patch = -1;
  cusparseGetProperty(MAJOR_VERSION, &major);
  cusparseGetProperty(MINOR_VERSION, &minor);
  cusparseStatus_t rc = cusparseGetProperty(PATCH_LEVEL, &patch);
  printf("cusparseGetProperty rc=%d\n", (int)rc);
  if (rc == CUSPARSE_STATUS_SUCCESS) printf("version cusparse %d.%d.%d\n", major, minor, patch);
  cusparseHandle_t h = NULL;
  rc = cusparseCreate(&h);
  printf("cusparseCreate rc=%d\n", (int)rc);
  const char *name = cusparseGetErrorName(rc);
  printf("text cusparseGetErrorName %s\n", name ? name : "(null)");
  if (rc == CUSPARSE_STATUS_SUCCESS) cusparseDestroy(h);
}
