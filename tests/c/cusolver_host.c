/* cuSOLVER through cusolverDn.h / cusolverSp.h of one major, linked either to
 * libstubs_cusolver.so or, for comparison, to NVIDIA's libcusolver itself (tests/cusolver.rs).
 * Prints one line per call: the library's properties, what the dense and sparse handles answer
 * (without a GPU, the library's own "not initialized"), and a host-side parameter object. With
 * -DWITH_STATUS (the stub build), also what the stub says. */
/* NVIDIA's own switches: cusparse.h and cusolverSp.h mark their deprecated API (cusolverSp:
 * "please use cuDSS"), which -Werror would refuse. */
#define DISABLE_CUSPARSE_DEPRECATED
#define DISABLE_CUSOLVER_DEPRECATED
#include <cusolverDn.h>
#include <cusolverSp.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  static const char *const names[3] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int p = 0; p < 3; p++) {
    int value = -1;
    int rc = (int)cusolverGetProperty((libraryPropertyType)p, &value);
    printf("cusolverGetProperty(%s) rc=%d value=%d\n", names[p], rc, value);
  }
  cusolverDnHandle_t dn = NULL;
  int rc = (int)cusolverDnCreate(&dn);
  printf("cusolverDnCreate rc=%d\n", rc);
  if (rc == 0) cusolverDnDestroy(dn);
  cusolverSpHandle_t sp = NULL;
  rc = (int)cusolverSpCreate(&sp);
  printf("cusolverSpCreate rc=%d\n", rc);
  if (rc == 0) cusolverSpDestroy(sp);
  cusolverDnParams_t params = NULL;
  rc = (int)cusolverDnCreateParams(&params);
  printf("cusolverDnCreateParams rc=%d\n", rc);
  if (rc == 0) printf("cusolverDnDestroyParams rc=%d\n", (int)cusolverDnDestroyParams(params));
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cusolver_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
