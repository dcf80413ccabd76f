/* nvBLAS's routines, compiled against NVIDIA's nvblas.h of one major and linked either to
 * libstubs_nvblas.so or, for comparison, to NVIDIA's libnvblas itself (tests/nvblas.rs). Each
 * call's result is printed: without a GPU nvBLAS passes every call to the CPU BLAS its
 * configuration names (the test's tests/mocks/cpu_blas.c). Both names of a routine, Fortran's
 * (`dgemm_`) and the plain one (`dgemm`). With -DWITH_STATUS (the stub build), also what the
 * stub says (cuda_stubs.h); with the argument `status`, only that. */
#include <nvblas.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"

static void print_status(void) {
  cuda_stubs_status s;
  if (cuda_stubs_nvblas_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
    printf("status missing=%u\n", (unsigned)s.missing);
  }
}
#endif

int main(int argc, char **argv) {
#ifdef WITH_STATUS
  /* `status`: what the stub binds, no routine called (NVIDIA's 11.8 and 12.9 nvBLAS fail when
   * loaded by dlopen on a machine without a GPU: tests/nvblas.rs). */
  if (argc > 1 && strcmp(argv[1], "status") == 0) {
    print_status();
    return 0;
  }
#else
  (void)argc;
  (void)argv;
#endif
  printf("start\n");
  fflush(stdout);
  const int n = 2;
  const char no = 'N', up = 'U';
  {
    const double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, one = 1, zero = 0;
    double c[4] = {0};
    dgemm_(&no, &no, &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
    printf("dgemm_ %g %g %g %g\n", c[0], c[1], c[2], c[3]);
    double d[4] = {1, 1, 1, 1};
    dgemm(&no, &no, &n, &n, &n, &one, a, &n, b, &n, &one, d, &n);
    printf("dgemm %g %g %g %g\n", d[0], d[1], d[2], d[3]);
    double e[4] = {0};
    dsyrk_(&up, &no, &n, &n, &one, a, &n, &zero, e, &n);
    printf("dsyrk_ %g %g %g\n", e[0], e[2], e[3]);
  }
  {
    const float a[4] = {1, 0, 0, 1}, b[4] = {2, 3, 4, 5}, two = 2, zero = 0;
    float c[4] = {0};
    sgemm_(&no, &no, &n, &n, &n, &two, a, &n, b, &n, &zero, c, &n);
    printf("sgemm_ %g %g %g %g\n", c[0], c[1], c[2], c[3]);
  }
  {
    const cuDoubleComplex a[1] = {{0, 1}}, b[1] = {{0, 1}}, one = {1, 0}, zero = {0, 0};
    cuDoubleComplex c[1] = {{0, 0}};
    const int m = 1;
    zgemm_(&no, &no, &m, &m, &m, &one, a, &m, b, &m, &zero, c, &m);
    printf("zgemm_ %g %g\n", c[0].x, c[0].y);
  }

#ifdef WITH_STATUS
  print_status();
#endif
  return 0;
}
