/* cuTENSOR on Windows (tests/windows/win_math.c runs it as the command `cutensor`): its own
 * version and the runtime it was built with, then a handle, which needs a device (NVIDIA's
 * answers CUTENSOR_STATUS_CUDA_ERROR without one), and the status's text. */
#include <stdio.h>

#include <cutensor.h>

void cmd_cutensor(void) {
  size_t v = cutensorGetVersion();
  printf("cutensorGetVersion %zu\n", v);
  /* CUTENSOR_VERSION is 10000 * major + 100 * minor + patch; the patch is not the wheel's
   * (2.8.1's answers 20800). */
  if (v > 0) printf("version cutensor %zu.%zu\n", v / 10000, v % 10000 / 100);
  printf("cutensorGetCudartVersion %zu\n", cutensorGetCudartVersion());
  cutensorHandle_t h = NULL;
  cutensorStatus_t rc = cutensorCreate(&h);
  printf("cutensorCreate rc=%d\n", (int)rc);
  const char *text = cutensorGetErrorString(rc);
  printf("text cutensorGetErrorString %s\n", text ? text : "(null)");
  if (rc == CUTENSOR_STATUS_SUCCESS) cutensorDestroy(h);
}
