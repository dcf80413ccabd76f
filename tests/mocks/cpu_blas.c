/* A CPU BLAS for nvBLAS's tests (tests/nvblas.rs): nvBLAS passes each call it does not run on a
 * GPU, every call on a machine without one, to the CPU BLAS its configuration names
 * (NVBLAS_CPU_BLAS_LIB). The few routines the tests call, column-major, no transposition, each
 * writing its Fortran name to stderr so that the test sees the call arrived here. Built as a
 * shared library by the test (compile_c with -shared). */
#include <complex.h>
#include <stdio.h>

#define GEMM(name, T)                                                                      \
  void name(const char *ta, const char *tb, const int *m, const int *n, const int *k,      \
            const T *alpha, const T *a, const int *lda, const T *b, const int *ldb,        \
            const T *beta, T *c, const int *ldc) {                                         \
    fprintf(stderr, "cpu_blas: " #name " %c%c %d %d %d\n", *ta, *tb, *m, *n, *k);          \
    for (int i = 0; i < *m; i++)                                                           \
      for (int j = 0; j < *n; j++) {                                                       \
        T s = 0;                                                                           \
        for (int l = 0; l < *k; l++) s += a[i + l * *lda] * b[l + j * *ldb];               \
        c[i + j * *ldc] = *alpha * s + *beta * c[i + j * *ldc];                            \
      }                                                                                    \
  }

GEMM(sgemm_, float)
GEMM(dgemm_, double)
GEMM(zgemm_, double complex)

/* C = alpha * A * A^T + beta * C, the upper triangle (uplo "U", trans "N"). */
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc) {
  fprintf(stderr, "cpu_blas: dsyrk_ %c%c %d %d\n", *uplo, *trans, *n, *k);
  for (int j = 0; j < *n; j++)
    for (int i = 0; i <= j; i++) {
      double s = 0;
      for (int l = 0; l < *k; l++) s += a[i + l * *lda] * a[j + l * *lda];
      c[i + j * *ldc] = *alpha * s + *beta * c[i + j * *ldc];
    }
}
