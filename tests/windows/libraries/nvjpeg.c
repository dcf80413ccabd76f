/* nvJPEG on Windows (tests/windows/win_math.c runs it as the command `nvjpeg`): its own version
 * and the runtime it was built with, then a handle, which needs a device (NVIDIA's answers
 * NVJPEG_STATUS_EXECUTION_FAILED without one), and what a handle-less call answers. */
#include <stdio.h>

#include <nvjpeg.h>

void cmd_nvjpeg(void) {
  int v[3] = {-1, -1, -1}, cudart[3] = {-1, -1, -1};
  nvjpegStatus_t rc = NVJPEG_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == NVJPEG_STATUS_SUCCESS; i++) rc = nvjpegGetProperty((libraryPropertyType)i, &v[i]);
  printf("nvjpegGetProperty rc=%d\n", (int)rc);
  if (rc == NVJPEG_STATUS_SUCCESS) printf("version nvjpeg %d.%d.%d\n", v[0], v[1], v[2]);
  rc = NVJPEG_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == NVJPEG_STATUS_SUCCESS; i++)
    rc = nvjpegGetCudartProperty((libraryPropertyType)i, &cudart[i]);
  printf("nvjpegGetCudartProperty rc=%d cudart=%d.%d.%d\n", (int)rc, cudart[0], cudart[1], cudart[2]);
  nvjpegHandle_t h = NULL;
  rc = nvjpegCreateSimple(&h);
  printf("nvjpegCreateSimple rc=%d\n", (int)rc);
  if (rc == NVJPEG_STATUS_SUCCESS) nvjpegDestroy(h);
  size_t padding = 0;
  printf("nvjpegGetDeviceMemoryPadding rc=%d\n", (int)nvjpegGetDeviceMemoryPadding(&padding, NULL));
}
