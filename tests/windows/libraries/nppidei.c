/* NPP's image data exchange and initialization on Windows (tests/windows/win_math.c runs it as the
 * command `nppidei`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_data_exchange_and_initialization.h>

void cmd_nppidei(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  printf("nppiSet_8u_C1R_Ctx rc=%d\n", (int)nppiSet_8u_C1R_Ctx(7, out, 8, roi, ctx));
}
