/* Loads libgpu12.so (CUDA 12.9 headers, the stub's 12 ABI) and libgpu13.so (13.x headers, the
 * 13 ABI) into one process (tests/gpu/abi_versions.c) and runs both; exits non-zero on a FAIL. */
#include <stdio.h>
int run_cuda12(void);
int run_cuda13(void);
int main(void) {
  int failed = run_cuda12() + run_cuda13();
  printf("%s\n", failed ? "FAILED" : "ALL PASS");
  return failed != 0;
}
