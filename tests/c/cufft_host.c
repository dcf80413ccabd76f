/* cuFFT's host API, compiled against NVIDIA's cufft.h / cufftXt.h of one major and linked
 * either to libstubs_cufft.so or, for comparison, to NVIDIA's libcufft itself
 * (tests/cufft.rs). Prints one line per call: the library's version and properties, then what
 * planning answers (without a GPU, the library's own error), and the JIT-callback setter, which
 * 12.x's header binds to `__cufftXtSetJITCallback_12_7` and 13.x's to the plain name (plan 0 is
 * invalid: the library's own answer). With -DWITH_STATUS (the stub build), also what the stub
 * says (cuda_stubs.h). */
#include <cufft.h>
#include <cufftXt.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  int version = 0;
  int rc = (int)cufftGetVersion(&version);
  printf("cufftGetVersion rc=%d version=%d\n", rc, version);
  int major = -1, minor = -1;
  rc = (int)cufftGetProperty(MAJOR_VERSION, &major);
  printf("cufftGetProperty(MAJOR_VERSION) rc=%d value=%d\n", rc, major);
  rc = (int)cufftGetProperty(MINOR_VERSION, &minor);
  printf("cufftGetProperty(MINOR_VERSION) rc=%d value=%d\n", rc, minor);

  cufftHandle plan = 0;
  rc = (int)cufftPlan1d(&plan, 1024, CUFFT_C2C, 1);
  printf("cufftPlan1d rc=%d\n", rc);
  size_t size = 0;
  rc = (int)cufftEstimate1d(1024, CUFFT_C2C, 1, &size);
  printf("cufftEstimate1d rc=%d\n", rc);
#if CUFFT_VERSION >= 11400 /* 12.9's header and newer declare it (11.8's has none) */
  rc = (int)cufftXtSetJITCallback(0, "cb", "", 0, CUFFT_CB_LD_COMPLEX, NULL);
  printf("cufftXtSetJITCallback rc=%d\n", rc);
#endif

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cufft_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
