/* cuFFTW's FFTW API, compiled against NVIDIA's cufftw.h of one major and linked either to
 * libstubs_cufftw.so or, for comparison, to NVIDIA's libcufftw itself (tests/cufftw.rs). Prints
 * one line per call: host allocation, what the planners answer (without a GPU, NULL: FFTW's own
 * "cannot plan"), and wisdom import, whose result 12.x's header declares (`int`: 1 success, 0
 * failure) and 11.8's does not (`void`). With -DWITH_STATUS (the stub build), also what the stub
 * says (cuda_stubs.h). */
#include <cufftw.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  fftw_complex *in = (fftw_complex *)fftw_malloc(sizeof(fftw_complex) * 8);
  fftw_complex *out = (fftw_complex *)fftw_malloc(sizeof(fftw_complex) * 8);
  printf("fftw_malloc %s\n", in && out ? "memory" : "NULL");
  if (in)
    for (int i = 0; i < 8; i++) {
      in[i][0] = i;
      in[i][1] = 0;
    }
  fftw_plan p = fftw_plan_dft_1d(8, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  printf("fftw_plan_dft_1d %s\n", p ? "plan" : "NULL");
  if (p) {
    fftw_execute(p);
    printf("fftw_execute out[1]=%g\n", out[1][0]);
    fftw_destroy_plan(p);
  }
  float *real = (float *)fftwf_malloc(sizeof(float) * 16);
  fftwf_complex *half = (fftwf_complex *)fftwf_malloc(sizeof(fftwf_complex) * 9);
  int n[1] = {16};
  fftwf_plan q = fftwf_plan_many_dft_r2c(1, n, 1, real, NULL, 1, 16, half, NULL, 1, 9,
                                         FFTW_ESTIMATE);
  printf("fftwf_plan_many_dft_r2c %s\n", q ? "plan" : "NULL");
  if (q) fftwf_destroy_plan(q);
#if CUFFT_VERSION >= 11000 /* 12.x's header and newer: `int` (11.8's: `void`) */
  FILE *empty = tmpfile();
  printf("fftw_import_wisdom_from_file %d\n", fftw_import_wisdom_from_file(empty));
  if (empty) fclose(empty);
#endif
  fftwf_free(half);
  fftwf_free(real);
  fftw_free(out);
  fftw_free(in);
  fftw_cleanup();
  printf("fftw_cleanup done\n");

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cufftw_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s missing=%u\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)", s.missing);
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
