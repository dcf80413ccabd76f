/* cuDSS on Windows (tests/windows/win_math.c runs it as the command `cudss`; CUDA 12 and 13, no
 * 11.x exists): its own version, then a handle, which needs a device, and a host-side object
 * (a configuration), which does not. NVIDIA's `cudss64_1.dll` is not fetched (301 / 165 MB):
 * the stub is run without a DLL only. */
#include <stdio.h>

#include <cudss.h>

void cmd_cudss(void) {
  int v[3] = {-1, -1, -1};
  cudssStatus_t rc = CUDSS_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == CUDSS_STATUS_SUCCESS; i++) rc = cudssGetProperty((libraryPropertyType)i, &v[i]);
  printf("cudssGetProperty rc=%d\n", (int)rc);
  if (rc == CUDSS_STATUS_SUCCESS) printf("version cudss %d.%d.%d\n", v[0], v[1], v[2]);
  cudssHandle_t h = NULL;
  rc = cudssCreate(&h);
  printf("cudssCreate rc=%d\n", (int)rc);
  if (rc == CUDSS_STATUS_SUCCESS) cudssDestroy(h);
  cudssConfig_t config = NULL;
  rc = cudssConfigCreate(&config);
  printf("cudssConfigCreate rc=%d\n", (int)rc);
  if (rc == CUDSS_STATUS_SUCCESS) cudssConfigDestroy(config);
}
