/* The stubs' own C API through cuda_stubs.h, compiled as C and as C++ (tests/packaging.rs):
 * the header must declare the status functions with C linkage in both, and the program links
 * them from the stubs. Prints one line per library. */
#include "cuda_stubs.h"

#include <stdio.h>

int main(void) {
  typedef int (*status_fn)(struct cuda_stubs_status *);
  const status_fn fns[11] = {cuda_stubs_cudart_status,   cuda_stubs_nvrtc_status,
                             cuda_stubs_cuda_status,     cuda_stubs_nvjitlink_status,
                             cuda_stubs_curand_status,   cuda_stubs_cufft_status,
                             cuda_stubs_nvml_status,     cuda_stubs_cublas_status,
                             cuda_stubs_cublaslt_status, cuda_stubs_cusparse_status,
                             cuda_stubs_cusolver_status};
  const char *const names[11] = {"cudart", "nvrtc",  "cuda",     "nvjitlink", "curand",  "cufft",
                                 "nvml",   "cublas", "cublaslt", "cusparse",  "cusolver"};
  for (int i = 0; i < 11; i++) {
    cuda_stubs_status s;
    int rc = fns[i](&s);
    printf("%s rc=%d bound=%d version=%d found_by=%s\n", names[i], rc, s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
  }
  printf("null rc=%d\n", cuda_stubs_nvrtc_status(0));
  return 0;
}
