/* cuDNN on Windows (tests/windows/win_math.c runs it as the command `cudnn`): its own version
 * and the runtime it was built with (each jumps into cudnn_graph64_9.dll, which the stub loads
 * first), then a handle, which needs a device, and the status's text. */
#include <stdio.h>

#include <cudnn.h>

void cmd_cudnn(void) {
  size_t v = cudnnGetVersion();
  printf("cudnnGetVersion %zu\n", v);
  /* CUDNN_VERSION is 10000 * major + 100 * minor + patch from 9.0. */
  if (v > 0) printf("version cudnn %zu.%zu.%zu\n", v / 10000, v % 10000 / 100, v % 100);
  printf("cudnnGetCudartVersion %zu\n", cudnnGetCudartVersion());
  cudnnHandle_t h = NULL;
  cudnnStatus_t rc = cudnnCreate(&h);
  printf("cudnnCreate rc=%d\n", (int)rc);
  const char *text = cudnnGetErrorString(rc);
  printf("text cudnnGetErrorString %s\n", text ? text : "(null)");
  if (rc == CUDNN_STATUS_SUCCESS) cudnnDestroy(h);
}
