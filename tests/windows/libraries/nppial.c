/* NPP's image arithmetic and logical operations on Windows (tests/windows/win_math.c runs it as the
 * command `nppial`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_arithmetic_and_logical_operations.h>

void cmd_nppial(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  printf("nppiAddC_8u_C1RSfs_Ctx rc=%d\n", (int)nppiAddC_8u_C1RSfs_Ctx(a, 8, 1, out, 8, roi, 0, ctx));
}
