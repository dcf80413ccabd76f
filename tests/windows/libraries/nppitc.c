/* NPP's image threshold and compare operations on Windows (tests/windows/win_math.c runs it as
 * the command `nppitc`): a call NPP refuses before any device work (NULL images), and one that
 * would launch a kernel (no device: NPP's own error). */
#include <stdio.h>
#include <string.h>

#include <nppi_threshold_and_compare_operations.h>

void cmd_nppitc(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  NppStatus rc = nppiThreshold_8u_C1R_Ctx(NULL, 8, NULL, 8, roi, 128, NPP_CMP_LESS, ctx);
  printf("nppiThreshold_8u_C1R_Ctx(NULL) rc=%d\n", (int)rc);
  /* Pointers no device has: without a driver the launch fails before any is read. */
  static Npp8u a[64], b[64], out[64];
  rc = nppiCompare_8u_C1R_Ctx(a, 8, b, 8, out, 8, roi, NPP_CMP_EQ, ctx);
  printf("nppiCompare_8u_C1R_Ctx rc=%d\n", (int)rc);
}
