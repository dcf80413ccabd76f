/* cuDensityMat without a GPU, compiled against NVIDIA's cudensitymat.h of one major and linked
 * either to libstubs_cudensitymat.so or, for comparison, to NVIDIA's libcudensitymat.so.0 itself
 * (tests/cudensitymat.rs). Prints one line per call: cuDensityMat's own version, what
 * cudensitymatCreate answers without a GPU, calls taking a handle or an object with none. Then
 * which CUDA libraries the process has mapped (dlopen RTLD_NOLOAD): a cuDensityMat of another
 * release must not have brought its cuBLAS in. With -DWITH_STATUS (the stub build), also what
 * the stub says (cuda_stubs.h). */
#include <cudensitymat.h>
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
  printf("cudensitymatGetVersion version=%zu\n", cudensitymatGetVersion());

  cudensitymatHandle_t handle = NULL;
  int rc = (int)cudensitymatCreate(&handle);
  printf("cudensitymatCreate rc=%d\n", rc);

  int32_t ranks = -1;
  rc = (int)cudensitymatGetNumRanks(NULL, &ranks);
  printf("cudensitymatGetNumRanks(no handle) rc=%d\n", rc);
  rc = (int)cudensitymatResetRandomSeed(NULL, 1);
  printf("cudensitymatResetRandomSeed(no handle) rc=%d\n", rc);
  cudensitymatWorkspaceDescriptor_t work = NULL;
  rc = (int)cudensitymatCreateWorkspace(NULL, &work);
  printf("cudensitymatCreateWorkspace(no handle) rc=%d\n", rc);
  rc = (int)cudensitymatDestroyWorkspace(NULL);
  printf("cudensitymatDestroyWorkspace(NULL) rc=%d\n", rc);
  rc = (int)cudensitymatDestroyState(NULL);
  printf("cudensitymatDestroyState(NULL) rc=%d\n", rc);
  rc = (int)cudensitymatDestroy(NULL);
  printf("cudensitymatDestroy(no handle) rc=%d\n", rc);

  printf("mapped libcudensitymat.so.0=%d libcublas.so.12=%d libcublas.so.13=%d\n",
         loaded("libcudensitymat.so.0"), loaded("libcublas.so.12"), loaded("libcublas.so.13"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cudensitymat_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
