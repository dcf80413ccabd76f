/* A program linked DIRECTLY against NVIDIA's library (libnvrtc.so.12 with -DUSE_NVRTC, or
 * libcudart.so.12 with -DUSE_CUDART), not against a stub: the preload tests run it with
 * LD_PRELOAD=libstubs_<lib>.so, so that its calls go through the stub, which must find the
 * already-loaded real library (RTLD_NOLOAD) and forward to it.
 *
 * Prints the same one-line-per-call format as probe.c, and whether the stub is in the process. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(USE_NVRTC)
typedef struct _nvrtcProgram *nvrtcProgram;
extern int nvrtcVersion(int *major, int *minor);
extern int nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                              const char *const *headers, const char *const *includeNames);
extern int nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options);
extern int nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
extern int nvrtcGetPTX(nvrtcProgram prog, char *ptx);
extern int nvrtcDestroyProgram(nvrtcProgram *prog);
#define STUB "libstubs_nvrtc.so"
#define CALLED nvrtcVersion
#elif defined(USE_CUDART)
extern int cudaRuntimeGetVersion(int *runtimeVersion);
extern int cudaGetDeviceCount(int *count);
#define STUB "libstubs_cudart.so"
#define CALLED cudaRuntimeGetVersion
#else
#error define USE_NVRTC or USE_CUDART
#endif

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  void *stub = dlopen(STUB, RTLD_LAZY | RTLD_NOLOAD);
  printf("stub %s %s\n", STUB, stub ? "loaded" : "absent");
  /* Which object the program's reference resolves to. */
  Dl_info info;
  memset(&info, 0, sizeof info);
  if (dladdr((void *)&CALLED, &info) && info.dli_fname) {
    const char *base = strrchr(info.dli_fname, '/');
    printf("resolved-in %s\n", base ? base + 1 : info.dli_fname);
  }
#if defined(USE_NVRTC)
  int major = -7777, minor = -7777;
  int r = nvrtcVersion(&major, &minor);
  printf("nvrtcVersion rc=%d out=%d.%d\n", r, major, minor);
  static const char src[] = "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n";
  nvrtcProgram prog = NULL;
  r = nvrtcCreateProgram(&prog, src, "k.cu", 0, NULL, NULL);
  printf("nvrtcCreateProgram rc=%d\n", r);
  const char *options[] = {"--gpu-architecture=compute_80"};
  r = nvrtcCompileProgram(prog, 1, options);
  printf("nvrtcCompileProgram rc=%d\n", r);
  size_t size = 0;
  r = nvrtcGetPTXSize(prog, &size);
  static char ptx[1 << 16];
  int has_entry = 0;
  if (r == 0 && size <= sizeof ptx && nvrtcGetPTX(prog, ptx) == 0) has_entry = strstr(ptx, ".entry k(") != NULL;
  printf("nvrtcGetPTX rc=%d entry=%d\n", r, has_entry);
  nvrtcDestroyProgram(&prog);
#else
  int v = -7777, n = -7777;
  int r = cudaRuntimeGetVersion(&v);
  printf("cudaRuntimeGetVersion rc=%d out=%d\n", r, v);
  r = cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount rc=%d out=%d\n", r, n);
#endif
  return 0;
}
