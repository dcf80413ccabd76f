/* NPP's image color conversion on Windows (tests/windows/win_math.c runs it as the
 * command `nppicc`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_color_conversion.h>

void cmd_nppicc(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  printf("nppiRGBToGray_8u_C3C1R_Ctx rc=%d\n", (int)nppiRGBToGray_8u_C3C1R_Ctx(a, 24, out, 8, roi, ctx));
}
