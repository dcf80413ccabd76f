/* One C source compiled twice into a shared library linked against NVIDIA's own libnvrtc
 * (tests/tests/compat.rs): against the 12.9 headers and libnvrtc.so.12 (CALLS
 * nvrtc_calls12, TAG "12"), and against the 13.5 headers and libnvrtc.so.13. Compiles one
 * kernel and prints `nvrtc<TAG>.version=<major>.<minor>` and `nvrtc<TAG>.compile=<rc>
 * ptx=<first line of the PTX>`: whichever NVRTC the process bound answers both libraries. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((visibility("default"))) void CALLS(void);

void CALLS(void) {
  int major = 0, minor = 0;
  int rc = (int)nvrtcVersion(&major, &minor);
  printf("nvrtc%s.version=%d %d.%d\n", TAG, rc, major, minor);
  nvrtcProgram prog = NULL;
  rc = (int)nvrtcCreateProgram(&prog, "extern \"C\" __global__ void k(int *p) { *p = 1; }",
                               "k.cu", 0, NULL, NULL);
  if (rc == 0) {
    const char *options[] = {"--gpu-architecture=compute_75"};
    rc = (int)nvrtcCompileProgram(prog, 1, options);
  }
  char first[64] = "-";
  size_t size = 0;
  if (rc == 0 && nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
    char *ptx = malloc(size);
    if (ptx != NULL && nvrtcGetPTX(prog, ptx) == NVRTC_SUCCESS) {
      size_t n = strcspn(ptx, "\n");
      if (n >= sizeof first) n = sizeof first - 1;
      memcpy(first, ptx, n);
      first[n] = '\0';
    }
    free(ptx);
  }
  if (prog != NULL) nvrtcDestroyProgram(&prog);
  printf("nvrtc%s.compile=%d ptx=%s\n", TAG, rc, first);
}
