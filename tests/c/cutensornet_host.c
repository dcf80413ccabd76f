/* cuTensorNet without a GPU, compiled against NVIDIA's cutensornet.h of one major and linked
 * either to libstubs_cutensornet.so or, for comparison, to NVIDIA's libcutensornet.so.2 itself
 * (tests/cutensornet.rs). Prints one line per call: cuTensorNet's own version and the runtime it
 * was built with, every error string, the logger's host-only calls, what cutensornetCreate
 * answers without a GPU and the last error it leaves, calls taking a handle with none. Then
 * which CUDA libraries the process has mapped (dlopen RTLD_NOLOAD): a cuTensorNet of another
 * release must not have brought its cuBLAS in. With -DWITH_STATUS (the stub build), also what
 * the stub says (cuda_stubs.h). */
#include <cutensornet.h>
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
  printf("cutensornetGetVersion version=%zu\n", cutensornetGetVersion());
  printf("cutensornetGetCudartVersion version=%zu\n", cutensornetGetCudartVersion());

  for (int code = 0; code <= 30; code++)
    printf("cutensornetGetErrorString(%d) = %s\n", code,
           text(cutensornetGetErrorString((cutensornetStatus_t)code)));

  printf("cutensornetLoggerSetLevel rc=%d\n", (int)cutensornetLoggerSetLevel(0));
  printf("cutensornetLoggerSetMask rc=%d\n", (int)cutensornetLoggerSetMask(0));
  printf("cutensornetLoggerForceDisable rc=%d\n", (int)cutensornetLoggerForceDisable());

  cutensornetHandle_t handle = NULL;
  int rc = (int)cutensornetCreate(&handle);
  printf("cutensornetCreate rc=%d\n", rc);
  /* Only whether it is NULL, and whether it is empty: its words are the library's. */
  const char *last = cutensornetGetLastError();
  printf("cutensornetGetLastError null=%d empty=%d\n", last == NULL, last != NULL && *last == 0);

  rc = (int)cutensornetDestroy(NULL);
  printf("cutensornetDestroy(no handle) rc=%d\n", rc);
  cutensornetWorkspaceDescriptor_t work = NULL;
  rc = (int)cutensornetCreateWorkspaceDescriptor(NULL, &work);
  printf("cutensornetCreateWorkspaceDescriptor(no handle) rc=%d\n", rc);

  printf("mapped libcutensornet.so.2=%d libcublas.so.12=%d libcublas.so.13=%d\n",
         loaded("libcutensornet.so.2"), loaded("libcublas.so.12"), loaded("libcublas.so.13"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cutensornet_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
  printf("stub last error=%s\n", text(cutensornetGetLastError()));
#endif
  return 0;
}
