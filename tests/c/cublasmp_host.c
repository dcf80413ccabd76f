/* cuBLASMp without a GPU, compiled against NVIDIA's cublasmp.h of one major and linked either
 * to libstubs_cublasmp.so or, for comparison, to NVIDIA's libcublasmp.so.0 itself
 * (tests/cublasmp.rs). The driver is the tests' stand-in with no device: NVIDIA's file needs
 * libcuda.so.1 to be loaded at all. Prints one line per call: the version, every status
 * string, the logger's host-only calls, cublasMpNumroc (host arithmetic: it proves the call
 * reached the library), what cublasMpCreate answers without a GPU, and calls taking a handle
 * with none. Then which CUDA libraries the process has mapped (dlopen RTLD_NOLOAD): a copy of
 * another release must not have brought its cuBLAS in. With -DWITH_STATUS (the stub build),
 * also what the stub says (cuda_stubs.h). */
#include <cublasmp.h>
#include <dlfcn.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

static int loaded(const char *soname) {
  void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (h) dlclose(h);
  return h != NULL;
}

int main(void) {
  int version = -1;
  int rc = (int)cublasMpGetVersion(&version);
  printf("cublasMpGetVersion rc=%d version=%d\n", rc, version);

  for (int code = 0; code <= 8; code++)
    printf("cublasMpGetStatusString(%d) = %s\n", code,
           text(cublasMpGetStatusString((cublasMpStatus_t)code)));

  printf("cublasMpLoggerSetLevel rc=%d\n", (int)cublasMpLoggerSetLevel(0));
  printf("cublasMpLoggerSetMask rc=%d\n", (int)cublasMpLoggerSetMask(0));
  printf("cublasMpLoggerForceDisable rc=%d\n", (int)cublasMpLoggerForceDisable());

  printf("cublasMpNumroc(100, 8, 1, 0, 2) = %lld\n",
         (long long)cublasMpNumroc(100, 8, 1, 0, 2));

  cublasMpHandle_t handle = NULL;
  rc = (int)cublasMpCreate(&handle, NULL);
  printf("cublasMpCreate rc=%d\n", rc);
  rc = (int)cublasMpDestroy(NULL);
  printf("cublasMpDestroy(no handle) rc=%d\n", rc);
  cudaStream_t stream = NULL;
  rc = (int)cublasMpGetStream(NULL, &stream);
  printf("cublasMpGetStream(no handle) rc=%d\n", rc);

  printf("mapped libcublasmp.so.0=%d libcublas.so.12=%d libcublas.so.13=%d libnccl.so.2=%d\n",
         loaded("libcublasmp.so.0"), loaded("libcublas.so.12"), loaded("libcublas.so.13"),
         loaded("libnccl.so.2"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cublasmp_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
