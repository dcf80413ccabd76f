/* cuFFTW on Windows (tests/windows/win_math.c runs it as the command `cufftw`): FFTW 3's API
 * over cuFFT, in `cufftw64_<n>.dll` beside cuFFT's DLL, which it imports. No version function
 * (the DLL's name says the major) and no call returns a status: host allocation, what the
 * planners answer without a device (NULL, FFTW's "cannot plan", from NVIDIA's DLL of every
 * major; the stub's fallback with no DLL), and a plan's result where one is made. */
#include <stdio.h>

#include <cufftw.h>

void cmd_cufftw(void) {
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
  fftwf_plan q =
      fftwf_plan_many_dft_r2c(1, n, 1, real, NULL, 1, 16, half, NULL, 1, 9, FFTW_ESTIMATE);
  printf("fftwf_plan_many_dft_r2c %s\n", q ? "plan" : "NULL");
  if (q) fftwf_destroy_plan(q);
  fftwf_free(half);
  fftwf_free(real);
  fftw_free(out);
  fftw_free(in);
  fftw_cleanup();
  printf("fftw_cleanup done\n");
}
