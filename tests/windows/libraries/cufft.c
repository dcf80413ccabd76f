/* cuFFT on Windows (tests/windows/win_math.c runs it as the command `cufft`): its version,
 * then a plan handle, which needs a device. */
#include <stdio.h>

#include <cufft.h>

void cmd_cufft(void) {
  int v = -1, major = -1, minor = -1, patch = -1;
  cufftResult rc = cufftGetVersion(&v);
  printf("cufftGetVersion rc=%d v=%d\n", (int)rc, v);
  cufftGetProperty(MAJOR_VERSION, &major);
  cufftGetProperty(MINOR_VERSION, &minor);
  rc = cufftGetProperty(PATCH_LEVEL, &patch);
  printf("cufftGetProperty rc=%d\n", (int)rc);
  if (rc == CUFFT_SUCCESS) printf("version cufft %d.%d.%d\n", major, minor, patch);
  cufftHandle plan = 0;
  rc = cufftCreate(&plan);
  printf("cufftCreate rc=%d\n", (int)rc);
  if (rc == CUFFT_SUCCESS) cufftDestroy(plan);
}
