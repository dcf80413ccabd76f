/* A stand-in for the driver, nvcuda.dll, built with MinGW for the Windows tests (wine has no
 * CUDA driver): recognisable answers, the arguments it got, and the frames a stack walk from
 * inside the driver finds (the stub's traced entry is one; Windows walks it only through its
 * .pdata/.xdata unwind data). */
#include <windows.h>

#include <stdio.h>
#include <string.h>

__declspec(dllexport) int cuInit(unsigned flags) {
  (void)flags;
  return 0;
}

__declspec(dllexport) int cuDriverGetVersion(int *v) {
  *v = 12080;
  return 0;
}

/* Eleven arguments, seven of them on the stack (Win64 passes four in registers): printed, so
 * that the program can see each arrived where its prototype put it, through the stub's
 * resolver on the first call and its traced entry when traced. */
__declspec(dllexport) int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                                         unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                         void *stream, void **params, void **extra) {
  printf("fake nvcuda: cuLaunchKernel %p %u %u %u %u %u %u %u %p %p %p\n", f, gx, gy, gz, bx, by,
         bz, shmem, stream, (void *)params, (void *)extra);
  fflush(stdout);
  return 0;
}

/* 3 devices; prints the modules of the first frames RtlCaptureStackBackTrace finds above this
 * one ("stack walk: stubs_cuda.dll > program"): Windows walks each frame by its unwind data
 * (.pdata/.xdata), so a stub frame without correct data breaks or derails the walk. */
__declspec(dllexport) int cuDeviceGetCount(int *n) {
  void *frames[8];
  USHORT got = RtlCaptureStackBackTrace(1, 8, frames, NULL);
  printf("fake nvcuda: stack walk:");
  for (USHORT i = 0; i < got && i < 2; i++) {
    HMODULE m = NULL;
    char path[MAX_PATH] = "?";
    if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)frames[i], &m))
      GetModuleFileNameA(m, path, sizeof path);
    const char *base = strrchr(path, '\\');
    printf("%s%s", i ? " > " : " ",
           m == GetModuleHandleA(NULL) ? "program" : base ? base + 1 : path);
  }
  printf("\n");
  fflush(stdout);
  *n = 3;
  return 0;
}
