/* The Windows probe: built twice per CUDA major by tests/tests/windows.rs with MinGW, against
 * that major's own NVIDIA headers — once linked to the cuda-stubs DLLs' import libraries, once
 * to NVIDIA's DLLs themselves (the "normal" build) — and run under wine, so that the two
 * builds' outputs can be compared line by line. HEADER_MAJOR (11, 12, 13) says which headers.
 * One command per argument, one line per call, flushed (wine's stdout is a pipe):
 *
 *   nvrtc        nvrtcVersion, a kernel compiled to PTX (and to LTO-IR with -dlto, 12+)
 *   nvjitlink    that LTO-IR linked to a CUBIN by nvJitLink (-arch=sm_75 -lto; 12+)
 *   cudart       cudaRuntimeGetVersion, cudaGetDeviceCount, cudaGetErrorName of its result,
 *                cudaPeekAtLastError, cudaGetLastError twice
 *   driver       cuInit, cuDriverGetVersion, cuDeviceGetCount, cuLaunchKernel (built with WITH_DRIVER only: the
 *                normal build then links nvcuda.dll, which NVRTC 13.5 itself probes)
 *   status:LIB   the stub's cuda_stubs_LIB_status (looked up with GetProcAddress in
 *                stubs_LIB.dll: "status LIB none" in the normal build)
 *   load:PATH    LoadLibraryA(PATH) before any CUDA call (a program that loaded a CUDA DLL
 *                itself) */
#include <windows.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVJITLINK_NO_INLINE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#if HEADER_MAJOR >= 12
#include <nvJitLink.h>
#endif

#include "cuda_stubs.h"

static const char KERNEL[] =
    "extern \"C\" __global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }\n";

/* The kernel compiled by NVRTC with `opt` (NULL: none); returns PTX, or LTO-IR with -dlto. */
static char *compile(const char *opt, int lto, size_t *size) {
  nvrtcProgram prog;
  nvrtcResult rc = nvrtcCreateProgram(&prog, KERNEL, "scale.cu", 0, NULL, NULL);
  printf("nvrtcCreateProgram rc=%d\n", (int)rc);
  if (rc != NVRTC_SUCCESS) return NULL;
  const char *opts[2] = {"-arch=compute_75", opt};
  if (lto) opts[0] = "-arch=sm_75";
  rc = nvrtcCompileProgram(prog, opt ? 2 : 1, opts);
  printf("nvrtcCompileProgram(%s) rc=%d\n", opt ? opt : "", (int)rc);
  char *out = NULL;
  if (rc == NVRTC_SUCCESS) {
#if HEADER_MAJOR >= 12
    if (lto) {
      rc = nvrtcGetLTOIRSize(prog, size);
      out = malloc(*size);
      if (rc == NVRTC_SUCCESS) rc = nvrtcGetLTOIR(prog, out);
      printf("nvrtcGetLTOIR rc=%d nonempty=%d\n", (int)rc, *size > 0);
    } else
#endif
    {
      rc = nvrtcGetPTXSize(prog, size);
      out = malloc(*size);
      if (rc == NVRTC_SUCCESS) rc = nvrtcGetPTX(prog, out);
      printf("nvrtcGetPTX rc=%d entry=%d\n", (int)rc, strstr(out, ".entry scale") != NULL);
    }
  }
  nvrtcDestroyProgram(&prog);
  return out;
}

static void cmd_nvrtc(void) {
  int major = -1, minor = -1;
  nvrtcResult rc = nvrtcVersion(&major, &minor);
  printf("nvrtcVersion rc=%d %d.%d\n", (int)rc, major, minor);
  if (rc != NVRTC_SUCCESS) {
    printf("nvrtcGetErrorString %s\n", nvrtcGetErrorString(rc));
    return;
  }
  size_t size = 0;
  free(compile(NULL, 0, &size));
#if HEADER_MAJOR >= 12
  free(compile("-dlto", 1, &size));
#endif
}

static void cmd_nvjitlink(void) {
#if HEADER_MAJOR >= 12
  unsigned major = 0, minor = 0;
  nvJitLinkResult rc = nvJitLinkVersion(&major, &minor);
  printf("nvJitLinkVersion rc=%d %u.%u\n", (int)rc, major, minor);
  size_t size = 0;
  char *ltoir = compile("-dlto", 1, &size);
  if (!ltoir) return;
  nvJitLinkHandle h;
  const char *opts[] = {"-arch=sm_75", "-lto"};
  rc = nvJitLinkCreate(&h, 2, opts);
  printf("nvJitLinkCreate rc=%d\n", (int)rc);
  if (rc != NVJITLINK_SUCCESS) return;
  rc = nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, ltoir, size, "scale");
  printf("nvJitLinkAddData rc=%d\n", (int)rc);
  rc = nvJitLinkComplete(h);
  printf("nvJitLinkComplete rc=%d\n", (int)rc);
  size_t cubin_size = 0;
  rc = nvJitLinkGetLinkedCubinSize(h, &cubin_size);
  char *cubin = malloc(cubin_size ? cubin_size : 1);
  if (rc == NVJITLINK_SUCCESS) rc = nvJitLinkGetLinkedCubin(h, cubin);
  printf("nvJitLinkGetLinkedCubin rc=%d elf=%d\n", (int)rc,
         cubin_size > 4 && memcmp(cubin, "\177ELF", 4) == 0);
  nvJitLinkDestroy(&h);
  free(cubin);
  free(ltoir);
#endif
}

static void cmd_cudart(void) {
  int v = -1, n = -1;
  cudaError_t rc = cudaRuntimeGetVersion(&v);
  printf("cudaRuntimeGetVersion rc=%d v=%d\n", (int)rc, v);
  rc = cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount rc=%d\n", (int)rc);
  const char *name = cudaGetErrorName(rc);
  printf("cudaGetErrorName %s\n", name ? name : "(null)");
  printf("cudaPeekAtLastError rc=%d\n", (int)cudaPeekAtLastError());
  printf("cudaGetLastError rc=%d\n", (int)cudaGetLastError());
  printf("cudaGetLastError rc=%d\n", (int)cudaGetLastError());
}

#ifdef WITH_DRIVER
static void cmd_driver(void) {
  int v = -1, n = -1;
  printf("cuInit rc=%d\n", (int)cuInit(0));
  CUresult rc = cuDriverGetVersion(&v);
  printf("cuDriverGetVersion rc=%d v=%d\n", (int)rc, v);
  rc = cuDeviceGetCount(&n);
  printf("cuDeviceGetCount rc=%d n=%d\n", (int)rc, n);
  /* Distinct values in every argument slot, registers and stack. */
  rc = cuLaunchKernel((CUfunction)0x1001, 2, 3, 4, 5, 6, 7, 8, (CUstream)0x1009, (void **)0x100a,
                      (void **)0x100b);
  printf("cuLaunchKernel rc=%d\n", (int)rc);
}
#endif

static void cmd_status(const char *lib) {
  char dll[64], fn[64];
  snprintf(dll, sizeof dll, "stubs_%s.dll", lib);
  snprintf(fn, sizeof fn, "cuda_stubs_%s_status", lib);
  HMODULE stub = GetModuleHandleA(dll);
  FARPROC f = stub ? GetProcAddress(stub, fn) : NULL;
  if (!f) {
    printf("status %s none\n", lib);
    return;
  }
  cuda_stubs_status s;
  memset(&s, 0, sizeof s);
  int rc = ((int (*)(cuda_stubs_status *))(void (*)(void))f)(&s);
  printf("status %s rc=%d bound=%d version=%d\n", lib, rc, s.bound, s.version);
  printf("status %s found_by=%s\n", lib, s.found_by ? s.found_by : "(null)");
  printf("status %s path=%s\n", lib, s.path ? s.path : "(null)");
  printf("status %s message=%s\n", lib, s.message ? s.message : "(null)");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "nvrtc")) cmd_nvrtc();
    else if (!strcmp(a, "nvjitlink")) cmd_nvjitlink();
    else if (!strcmp(a, "cudart")) cmd_cudart();
#ifdef WITH_DRIVER
    else if (!strcmp(a, "driver")) cmd_driver();
#endif
    else if (!strncmp(a, "status:", 7)) cmd_status(a + 7);
    else if (!strncmp(a, "load:", 5)) {
      HMODULE h = LoadLibraryA(a + 5);
      printf("load %s\n", h ? "ok" : "failed");
    } else {
      fprintf(stderr, "unknown command %s\n", a);
      return 2;
    }
  }
  return 0;
}
