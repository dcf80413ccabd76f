/* nvJPEG2000 on Windows (tests/windows/win_math.c runs it as the command `nvjpeg2k`): its own
 * version and the runtime it was built with, a handle (which NVIDIA's makes without a device),
 * and what a handle-less call answers. */
#include <stdio.h>

/* 0.9's nvjpeg2k.h names two enums by their tag alone (C++): declared first. */
#include "c-prelude/nvjpeg2k.h"
#include <nvjpeg2k.h>

void cmd_nvjpeg2k(void) {
  int v[3] = {-1, -1, -1}, cudart[3] = {-1, -1, -1};
  nvjpeg2kStatus_t rc = NVJPEG2K_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == NVJPEG2K_STATUS_SUCCESS; i++)
    rc = nvjpeg2kGetProperty((libraryPropertyType)i, &v[i]);
  printf("nvjpeg2kGetProperty rc=%d\n", (int)rc);
  if (rc == NVJPEG2K_STATUS_SUCCESS) printf("version nvjpeg2k %d.%d.%d\n", v[0], v[1], v[2]);
  rc = NVJPEG2K_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == NVJPEG2K_STATUS_SUCCESS; i++)
    rc = nvjpeg2kGetCudartProperty((libraryPropertyType)i, &cudart[i]);
  printf("nvjpeg2kGetCudartProperty rc=%d cudart=%d.%d.%d\n", (int)rc, cudart[0], cudart[1], cudart[2]);
  nvjpeg2kHandle_t h = NULL;
  rc = nvjpeg2kCreateSimple(&h);
  printf("nvjpeg2kCreateSimple rc=%d\n", (int)rc);
  if (rc == NVJPEG2K_STATUS_SUCCESS) nvjpeg2kDestroy(h);
  nvjpeg2kDecodeState_t state = NULL;
  printf("nvjpeg2kDecodeStateCreate rc=%d\n", (int)nvjpeg2kDecodeStateCreate(NULL, &state));
}
