/* NPP's image memory support on Windows (tests/windows/win_math.c runs it as the command
 * `nppisu`): run without NVIDIA's DLL only (WindowsDlls::fetched is false: its only calls,
 * nppiMalloc_*, need a device, and 13.2's reads through NULL without one), where the stub's
 * nppiMalloc answers NULL (it has no status to answer). */
#include <stdio.h>

#include <nppi_support_functions.h>

void cmd_nppisu(void) {
  int step = -1;
  Npp8u *p = nppiMalloc_8u_C1(64, 64, &step);
  printf("nppiMalloc_8u_C1 %s\n", p ? "non-null" : "null");
  if (p) nppiFree(p);
}
