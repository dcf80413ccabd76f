/* A program linked against NVIDIA's own libnvrtc, for README's LD_PRELOAD recipe. */
#include <nvrtc.h>
#include <stdio.h>

int main(void) {
  int major = 0, minor = 0;
  nvrtcResult rc = nvrtcVersion(&major, &minor);
  printf("nvrtcVersion rc=%d %d.%d\n", (int)rc, major, minor);
  return rc == NVRTC_SUCCESS ? 0 : 1;
}
