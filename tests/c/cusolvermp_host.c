/* cuSOLVERMp without a GPU, compiled against NVIDIA's cusolverMp.h of one major and linked
 * either to libstubs_cusolvermp.so or, for comparison, to NVIDIA's libcusolverMp.so.0 itself
 * (tests/cusolvermp.rs). The driver is the tests' stand-in with no device: NVIDIA's file needs
 * libcuda.so.1 to be loaded at all. Prints one line per call: cusolverMpGetVersion without a
 * handle, the logger's host-only calls, cusolverMpNUMROC (host arithmetic: it proves the call
 * reached the library), what cusolverMpCreate answers without a GPU, calls taking a handle with
 * none, and cusolverMpSetMathMode (CUDA 13's header only, as NVIDIA's guards it). Then which
 * CUDA libraries the process has mapped (dlopen RTLD_NOLOAD). With -DWITH_STATUS (the stub
 * build), also what the stub says (cuda_stubs.h). */
#include <cusolverMp.h>
#include <dlfcn.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static int loaded(const char *soname) {
  void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (h) dlclose(h);
  return h != NULL;
}

int main(void) {
  int version = -1;
  int rc = (int)cusolverMpGetVersion(NULL, &version);
  printf("cusolverMpGetVersion(no handle) rc=%d version=%d\n", rc, version);

  printf("cusolverMpLoggerSetLevel rc=%d\n", (int)cusolverMpLoggerSetLevel(0));
  printf("cusolverMpLoggerSetMask rc=%d\n", (int)cusolverMpLoggerSetMask(0));
  printf("cusolverMpLoggerForceDisable rc=%d\n", (int)cusolverMpLoggerForceDisable());

  printf("cusolverMpNUMROC(100, 8, 1, 0, 2) = %lld\n",
         (long long)cusolverMpNUMROC(100, 8, 1, 0, 2));

  cusolverMpHandle_t handle = NULL;
  rc = (int)cusolverMpCreate(&handle, 0, NULL);
  printf("cusolverMpCreate rc=%d\n", rc);
  rc = (int)cusolverMpDestroy(NULL);
  printf("cusolverMpDestroy(no handle) rc=%d\n", rc);
#if CUSOLVER_VERSION >= 12000
  rc = (int)cusolverMpSetMathMode(NULL, CUSOLVER_DEFAULT_MATH);
  printf("cusolverMpSetMathMode(no handle) rc=%d\n", rc);
#endif

  printf("mapped libcusolverMp.so.0=%d libcublasmp.so.0=%d libcublas.so.12=%d "
         "libcublas.so.13=%d libcusolver.so.11=%d libcusolver.so.12=%d\n",
         loaded("libcusolverMp.so.0"), loaded("libcublasmp.so.0"), loaded("libcublas.so.12"),
         loaded("libcublas.so.13"), loaded("libcusolver.so.11"), loaded("libcusolver.so.12"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cusolvermp_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
