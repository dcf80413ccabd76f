/* A stand-in for the driver, nvcuda.dll, built with MinGW for the Windows tests (wine has no
 * CUDA driver): recognisable answers, and a check that a stack walk from inside the driver
 * unwinds through the stub's frames back to the program (the traced entry is such a frame;
 * Windows walks it only through its .pdata/.xdata unwind data). */
#include <windows.h>

#include <stdio.h>

__declspec(dllexport) int cuInit(unsigned flags) {
  (void)flags;
  return 0;
}

__declspec(dllexport) int cuDriverGetVersion(int *v) {
  *v = 12080;
  return 0;
}

/* 3 devices; prints whether RtlCaptureStackBackTrace reaches a return address inside the
 * program's own module (the .exe), i.e. the unwinder got past every frame in between. */
__declspec(dllexport) int cuDeviceGetCount(int *n) {
  void *frames[32];
  USHORT got = RtlCaptureStackBackTrace(0, 32, frames, NULL);
  HMODULE exe = GetModuleHandleA(NULL);
  int reached = 0;
  for (USHORT i = 0; i < got; i++) {
    HMODULE m = NULL;
    if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)frames[i], &m) &&
        m == exe)
      reached = 1;
  }
  printf("fake nvcuda: stack walk reaches the program: %s\n", reached ? "yes" : "no");
  fflush(stdout);
  *n = 3;
  return 0;
}
