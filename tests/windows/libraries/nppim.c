/* NPP's image morphological operations on Windows (tests/windows/win_math.c runs it as the
 * command `nppim`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_morphological_operations.h>

void cmd_nppim(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  printf("nppiDilate3x3_8u_C1R_Ctx rc=%d\n", (int)nppiDilate3x3_8u_C1R_Ctx(a, 8, out, 8, roi, ctx));
}
