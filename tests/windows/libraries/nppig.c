/* NPP's image geometry transforms on Windows (tests/windows/win_math.c runs it as the
 * command `nppig`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: a large DLL),
 * where the stub answers NPP_CUDA_KERNEL_EXECUTION_ERROR to every call. */
#include <stdio.h>
#include <string.h>

#include <nppi_geometry_transforms.h>

void cmd_nppig(void) {
  NppStreamContext ctx;
  memset(&ctx, 0, sizeof ctx);
  NppiSize roi = {8, 8};
  static Npp8u a[64], out[64];
  /* Not every call uses each of them. */
  (void)ctx, (void)roi, (void)a, (void)out;
  NppiRect rect = {0, 0, 640, 480};
  const double quad[4][2] = {{10, 20}, {600, 30}, {620, 470}, {5, 460}};
  double c[2][3] = {{0}};
  printf("nppiGetAffineTransform rc=%d\n", (int)nppiGetAffineTransform(rect, quad, c));
  printf("nppiMirror_8u_C1R_Ctx rc=%d\n", (int)nppiMirror_8u_C1R_Ctx(a, 8, out, 8, roi, NPP_HORIZONTAL_AXIS, ctx));
}
