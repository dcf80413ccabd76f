/* cuSPARSELt on Windows (tests/windows/win_math.c runs it as the command `cusparselt`; CUDA 12
 * and 13, no 11.x exists): its own version, then a handle, which needs a device (NVIDIA's
 * answers CUSPARSE_STATUS_NOT_INITIALIZED without one), and the status's name. */
/* cuSPARSELt 0.8's cusparseLt.h uses C11's alignas without including <stdalign.h>. */
#include <stdalign.h>
#include <stdio.h>

/* The cusparse.h that 0.8's cusparseLt.h includes marks its deprecated API, which this file
 * does not use. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparseLt.h>

void cmd_cusparselt(void) {
  int v[3] = {-1, -1, -1};
  cusparseStatus_t rc = CUSPARSE_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == CUSPARSE_STATUS_SUCCESS; i++)
    rc = cusparseLtGetProperty((libraryPropertyType)i, &v[i]);
  printf("cusparseLtGetProperty rc=%d\n", (int)rc);
  if (rc == CUSPARSE_STATUS_SUCCESS) printf("version cusparselt %d.%d.%d\n", v[0], v[1], v[2]);
  cusparseLtHandle_t h;
  rc = cusparseLtInit(&h);
  printf("cusparseLtInit rc=%d\n", (int)rc);
  const char *name = cusparseLtGetErrorName(rc);
  printf("text cusparseLtGetErrorName %s\n", name ? name : "(null)");
  if (rc == CUSPARSE_STATUS_SUCCESS) cusparseLtDestroy(&h);
}
