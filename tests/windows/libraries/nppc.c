/* NPP's core on Windows (tests/windows/win_math.c runs it as the command `nppc`): its version,
 * which needs no device (13.x's nppcore.h declares nothing else), and in 11.x and 12.x the
 * legacy stream query. With no library the stub answers version 0.0.0, never NULL. */
#include <stdio.h>

/* npp.h for NPP_VERSION_MAJOR (nppcore.h alone does not define it). */
#include <npp.h>

void cmd_nppc(void) {
  const NppLibraryVersion *v = nppGetLibVersion();
  if (!v) {
    printf("nppGetLibVersion null\n");
    return;
  }
  printf("nppGetLibVersion %d.%d.%d\n", v->major, v->minor, v->build);
  if (v->major > 0) printf("version nppc %d.%d.%d\n", v->major, v->minor, v->build);
#if NPP_VERSION_MAJOR < 13
  printf("nppGetStream %s\n", nppGetStream() ? "non-null" : "null");
#endif
}
