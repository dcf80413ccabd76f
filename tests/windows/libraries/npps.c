/* NPP's signal processing on Windows (tests/windows/win_math.c runs it as the
 * command `npps`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <npps.h>

void cmd_npps(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  printf("nppsSet_8u_Ctx rc=%d\n", (int)nppsSet_8u_Ctx(7, out, 64, ctx));
}
