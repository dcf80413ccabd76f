/* nvBLAS on Windows (tests/windows/win_math.c runs it as the command `nvblas`): BLAS level 3 in
 * `nvblas64_<major>.dll` beside cuBLAS's DLL, which it imports. No version function (the DLL's
 * name says the major) and no routine returns a status: each call's output is printed. Without
 * a GPU NVIDIA's DLL hands every call to the CPU BLAS its configuration names (the test's
 * nvblas.conf: tests/mocks/cpu_blas.c built with MinGW); with none configured it calls through
 * a NULL pointer (11.8, 12.9 and 13.5 alike). A call the stub cannot make (no DLL: Windows has
 * no next definition of a name to hand it to) leaves every element of its output NaN, printed
 * `nan` (msvcrt and MinGW spell a NaN differently), and counts in the stub's `missing`: the
 * `status nvblas missing=` line, the stub build's only. */
#include <windows.h>

#include <math.h>
#include <string.h>
#include <stdio.h>

#include <nvblas.h>

#include "cuda_stubs.h"

static void print(const char *call, const double *v, int n) {
  printf("%s", call);
  for (int i = 0; i < n; i++) {
    if (isnan(v[i])) printf(" nan");
    else printf(" %g", v[i]);
  }
  printf("\n");
}

void cmd_nvblas(void) {
  const int n = 2, m = 1;
  const char no = 'N', up = 'U';
  const double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, one = 1, zero = 0;
  double c[4] = {0};
  dgemm_(&no, &no, &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
  print("dgemm_", c, 4);
  double d[4] = {1, 1, 1, 1};
  dgemm(&no, &no, &n, &n, &n, &one, a, &n, b, &n, &one, d, &n);
  print("dgemm", d, 4);
  double e[4] = {0};
  dsyrk_(&up, &no, &n, &n, &one, a, &n, &zero, e, &n);
  const double upper[3] = {e[0], e[2], e[3]};
  print("dsyrk_", upper, 3);
  const float fa[4] = {1, 0, 0, 1}, fb[4] = {2, 3, 4, 5}, two = 2, fzero = 0;
  float fc[4] = {0};
  sgemm_(&no, &no, &n, &n, &n, &two, fa, &n, fb, &n, &fzero, fc, &n);
  const double fcd[4] = {fc[0], fc[1], fc[2], fc[3]};
  print("sgemm_", fcd, 4);
  const cuDoubleComplex za[1] = {{0, 1}}, zb[1] = {{0, 1}}, zone = {1, 0}, zzero = {0, 0};
  cuDoubleComplex zc[1] = {{0, 0}};
  zgemm_(&no, &no, &m, &m, &m, &zone, za, &m, zb, &m, &zzero, zc, &m);
  const double zcd[2] = {zc[0].x, zc[0].y};
  print("zgemm_", zcd, 2);
  /* The stub's count of calls not made (no line in the normal build). */
  HMODULE stub = GetModuleHandleA("stubs_nvblas.dll");
  FARPROC f = stub ? GetProcAddress(stub, "cuda_stubs_nvblas_status") : NULL;
  if (f) {
    cuda_stubs_status s;
    memset(&s, 0, sizeof s);
    if (((int (*)(cuda_stubs_status *))(void (*)(void))f)(&s) == 0)
      printf("status nvblas missing=%u\n", (unsigned)s.missing);
  }
}
