/* The cost a module load that needs no JIT pays for going through the driver stub (issue 36:
 * "a module load that needs no JIT costs <= 1 us more than direct linking"): N
 * cuModuleLoadData + cuModuleUnload pairs of a CUBIN, after a warm-up, in `run_loop` (what
 * callgrind's --toggle-collect counts). Linked by benches/module_load.sh against a driver
 * directly, or against libstubs_cuda.so, which forwards to the same driver. No header: the
 * prototypes are cuda.h's (every major), spelled with plain types.
 *
 *   module_load N        prints "pairs=N ns_per_pair=X" (CLOCK_MONOTONIC, the loop alone)
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cuInit(unsigned flags);
int cuDeviceGet(int *device, int ordinal);
int cuDevicePrimaryCtxRetain(void **ctx, int device);
int cuCtxSetCurrent(void *ctx);
int cuModuleLoadData(void **module, const void *image);
int cuModuleUnload(void *module);

/* A CUBIN's ELF header for sm_90 (EM_CUDA, e_flags as nvJitLink 13.5 writes them): what the
 * driver stub reads to decide (its first bytes: ELF, passed through) and what the stand-in
 * driver checks. */
static unsigned char cubin[64];

static void make_cubin(void) {
  memcpy(cubin, "\x7f" "ELF", 4);
  cubin[4] = 2, cubin[5] = 1, cubin[6] = 1, cubin[7] = 65, cubin[8] = 8;
  cubin[16] = 2, cubin[18] = 190, cubin[20] = 1, cubin[52] = 64;
  unsigned flags = 0x06000004u | 90u << 8;
  memcpy(cubin + 48, &flags, 4);
}

__attribute__((noinline)) int run_loop(long n) {
  for (long i = 0; i < n; i++) {
    void *module = NULL;
    int rc = cuModuleLoadData(&module, cubin);
    if (rc != 0) return rc;
    if ((rc = cuModuleUnload(module)) != 0) return rc;
  }
  return 0;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000;
  make_cubin();
  int device = 0;
  void *ctx = NULL;
  int rc = cuInit(0);
  if (!rc) rc = cuDeviceGet(&device, 0);
  if (!rc) rc = cuDevicePrimaryCtxRetain(&ctx, device);
  if (!rc) rc = cuCtxSetCurrent(ctx);
  /* Warm-up: the stub's first call binds the driver and resolves the entry points. */
  if (!rc) rc = run_loop(100);
  if (rc) {
    printf("setup rc=%d\n", rc);
    return 1;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  rc = run_loop(n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
  printf("pairs=%ld ns_per_pair=%.1f rc=%d\n", n, ns / n, rc);
  return rc != 0;
}
