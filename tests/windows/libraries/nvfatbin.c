/* nvFatbin on Windows (tests/windows/win_math.c runs it as the command `nvfatbin`; CUDA 12 and
 * 13, no 11.x exists): its version, then a fatbinary built from a small PTX kernel on the host
 * (no device needed: the size of what it built is the same through the stub), and an error's text. */
#include <stdio.h>
#include <string.h>

#include <nvFatbin.h>

/* A kernel that returns, in a PTX ISA every nvFatbin (12.4+) reads. */
static const char PTX[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry noop()\n"
    "{\n"
    "  ret;\n"
    "}\n";

void cmd_nvfatbin(void) {
  unsigned major = 0, minor = 0;
  nvFatbinResult rc = nvFatbinVersion(&major, &minor);
  printf("nvFatbinVersion rc=%d\n", (int)rc);
  if (rc == NVFATBIN_SUCCESS) printf("version nvfatbin %u.%u\n", major, minor);
  nvFatbinHandle h = NULL;
  const char *options[] = {"-64"};
  rc = nvFatbinCreate(&h, options, 1);
  printf("nvFatbinCreate rc=%d\n", (int)rc);
  if (rc == NVFATBIN_SUCCESS) {
    /* With its terminating NUL, as nvFatbinAddPTX takes PTX. */
    rc = nvFatbinAddPTX(h, PTX, sizeof PTX, "80", "noop", NULL);
    printf("nvFatbinAddPTX rc=%d\n", (int)rc);
    size_t size = 0;
    rc = nvFatbinSize(h, &size);
    printf("nvFatbinSize rc=%d size=%zu\n", (int)rc, size);
    printf("nvFatbinDestroy rc=%d\n", (int)nvFatbinDestroy(&h));
  }
  const char *text = nvFatbinGetErrorString(NVFATBIN_ERROR_INTERNAL);
  printf("text nvFatbinGetErrorString %s\n", text ? text : "(null)");
}
