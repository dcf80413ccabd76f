/* cuStateVec without a GPU, compiled against NVIDIA's custatevec.h and custatevecEx.h of one
 * major and linked either to libstubs_custatevec.so or, for comparison, to NVIDIA's
 * libcustatevec.so.1 itself (tests/custatevec.rs). Prints one line per call: cuStateVec's own
 * version (both ways it reports it), every error name and string, the logger's host-only
 * calls, what custatevecCreate answers without a GPU, calls taking a handle with none, and the
 * extended API's state-vector configuration (a host-only dictionary) and a NULL destroy. Then
 * which CUDA libraries the process has mapped (dlopen RTLD_NOLOAD): a cuStateVec of another
 * release must not have brought its cuBLAS in. With -DWITH_STATUS (the stub build), also what
 * the stub says (cuda_stubs.h). */
#include <custatevec.h>
#include <custatevecEx.h>
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
  printf("custatevecGetVersion version=%zu\n", custatevecGetVersion());
  int32_t parts[3] = {-1, -1, -1};
  int rc = 0;
  for (int p = 0; p < 3; p++) rc |= (int)custatevecGetProperty((libraryPropertyType)p, &parts[p]);
  printf("custatevecGetProperty rc=%d version=%d.%d.%d\n", rc, parts[0], parts[1], parts[2]);

  for (int code = 0; code <= 21; code++) {
    printf("custatevecGetErrorName(%d) = %s\n", code,
           text(custatevecGetErrorName((custatevecStatus_t)code)));
    printf("custatevecGetErrorString(%d) = %s\n", code,
           text(custatevecGetErrorString((custatevecStatus_t)code)));
  }

  printf("custatevecLoggerSetLevel rc=%d\n", (int)custatevecLoggerSetLevel(0));
  printf("custatevecLoggerSetMask rc=%d\n", (int)custatevecLoggerSetMask(0));
  printf("custatevecLoggerForceDisable rc=%d\n", (int)custatevecLoggerForceDisable());

  custatevecHandle_t handle = NULL;
  rc = (int)custatevecCreate(&handle);
  printf("custatevecCreate rc=%d\n", rc);

  size_t size = 0;
  rc = (int)custatevecGetDefaultWorkspaceSize(NULL, &size);
  printf("custatevecGetDefaultWorkspaceSize(no handle) rc=%d\n", rc);
  rc = (int)custatevecDestroy(NULL);
  printf("custatevecDestroy(no handle) rc=%d\n", rc);

  custatevecExDictionaryDescriptor_t config = NULL;
  rc = (int)custatevecExConfigureStateVectorSingleDevice(&config, CUDA_C_64F, 10, 10, 0, 0);
  printf("custatevecExConfigureStateVectorSingleDevice rc=%d config=%s\n", rc,
         config ? "set" : "NULL");
  if (config) printf("custatevecExDictionaryDestroy rc=%d\n", (int)custatevecExDictionaryDestroy(config));
  rc = (int)custatevecExDictionaryDestroy(NULL);
  printf("custatevecExDictionaryDestroy(NULL) rc=%d\n", rc);

  printf("mapped libcustatevec.so.1=%d libcublas.so.12=%d libcublas.so.13=%d\n",
         loaded("libcustatevec.so.1"), loaded("libcublas.so.12"), loaded("libcublas.so.13"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_custatevec_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
