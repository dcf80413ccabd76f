/* NPP's image statistics on Windows (tests/windows/win_math.c runs it as the
 * command `nppist`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_statistics_functions.h>

void cmd_nppist(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  size_t size = 0;
  printf("nppiSumGetBufferHostSize_8u_C1R_Ctx rc=%d\n", (int)nppiSumGetBufferHostSize_8u_C1R_Ctx(roi, &size, ctx));
}
