/* nvTIFF on Windows (tests/windows/win_math.c runs it as the command `nvtiff`; 0.8 of CUDA 12
 * and 13): its own version, a decoder, which needs a device, and decode parameters, which do
 * not. */
#include <stdio.h>

/* 0.8's nvtiff.h names an enum by its tag alone (C++): declared first. */
#include "c-prelude/nvtiff.h"
#include <nvtiff.h>

void cmd_nvtiff(void) {
  int v[3] = {-1, -1, -1};
  nvtiffStatus_t rc = NVTIFF_STATUS_SUCCESS;
  for (int i = 0; i < 3 && rc == NVTIFF_STATUS_SUCCESS; i++) rc = nvtiffGetProperty((libraryPropertyType)i, &v[i]);
  printf("nvtiffGetProperty rc=%d\n", (int)rc);
  if (rc == NVTIFF_STATUS_SUCCESS) printf("version nvtiff %d.%d.%d\n", v[0], v[1], v[2]);
  nvtiffDecoder_t d = NULL;
  rc = nvtiffDecoderCreateSimple(&d, NULL);
  printf("nvtiffDecoderCreateSimple rc=%d\n", (int)rc);
  if (rc == NVTIFF_STATUS_SUCCESS) nvtiffDecoderDestroy(d, NULL);
  nvtiffDecodeParams_t params = NULL;
  rc = nvtiffDecodeParamsCreate(&params);
  printf("nvtiffDecodeParamsCreate rc=%d\n", (int)rc);
  if (rc == NVTIFF_STATUS_SUCCESS) nvtiffDecodeParamsDestroy(params);
}
