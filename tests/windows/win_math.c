/* The Windows probe of the libraries tests/tests/windows_math.rs covers (the math libraries,
 * NVML and the framework libraries with a file here): built twice per CUDA major with MinGW,
 * against that major's own NVIDIA headers — once linked to the cuda-stubs DLLs' import
 * libraries, once to NVIDIA's DLLs themselves (the "normal" build; NVML to a stand-in
 * nvml.dll) — and run under wine, so that the two builds' outputs can be compared line by
 * line. No GPU and no driver: each library's version, then what it answers without a device.
 *
 * Each library's calls are in libraries/<name>.c (`void cmd_<name>(void)`), compiled with this
 * file; which ones (those the major has), the test says in win_math_libraries.h, which it
 * writes from the specs: `WIN_MATH_LIBRARY(<name>)` each. One command per argument, one line
 * per call, flushed (wine's stdout is a pipe):
 *
 *   <name>       "== <name>", then that library's lines: `<call> rc=<status> ...`, one
 *                `version <name> <version>` when the library answered its version, and
 *                `text <call> <string>` for an error text
 *   status:LIB   the stub's cuda_stubs_LIB_status (looked up with GetProcAddress in
 *                stubs_LIB.dll: "status LIB none" in the normal build)
 *   load:PATH    LoadLibraryA(PATH) (a DLL the program loaded itself)
 *   loaded:NAME  whether the process has a DLL of that name (GetModuleHandleA) */
#include <windows.h>

#include <stdio.h>
#include <string.h>

#include "cuda_stubs.h"

#define WIN_MATH_LIBRARY(name) void cmd_##name(void);
#include "win_math_libraries.h"
#undef WIN_MATH_LIBRARY

static void cmd_status(const char *lib) {
  char dll[64], fn[64];
  snprintf(dll, sizeof dll, "stubs_%s.dll", lib);
  snprintf(fn, sizeof fn, "cuda_stubs_%s_status", lib);
  HMODULE stub = GetModuleHandleA(dll);
  FARPROC f = stub ? GetProcAddress(stub, fn) : NULL;
  if (!f) {
    printf("status %s none\n", lib);
    return;
  }
  cuda_stubs_status s;
  memset(&s, 0, sizeof s);
  int rc = ((int (*)(cuda_stubs_status *))(void (*)(void))f)(&s);
  printf("status %s rc=%d bound=%d version=%d\n", lib, rc, s.bound, s.version);
  printf("status %s found_by=%s\n", lib, s.found_by ? s.found_by : "(null)");
  printf("status %s path=%s\n", lib, s.path ? s.path : "(null)");
  printf("status %s message=%s\n", lib, s.message ? s.message : "(null)");
}

/* Runs the library command `a`; 0 when no library has that name. */
static int library_command(const char *a) {
#define WIN_MATH_LIBRARY(name)  \
  if (!strcmp(a, #name)) {      \
    printf("== %s\n", #name);   \
    cmd_##name();               \
    return 1;                   \
  }
#include "win_math_libraries.h"
#undef WIN_MATH_LIBRARY
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (library_command(a)) continue;
    if (!strncmp(a, "status:", 7)) cmd_status(a + 7);
    else if (!strncmp(a, "load:", 5)) {
      HMODULE h = LoadLibraryA(a + 5);
      printf("load %s\n", h ? "ok" : "failed");
    } else if (!strncmp(a, "loaded:", 7)) {
      printf("loaded %s %d\n", a + 7, GetModuleHandleA(a + 7) != NULL);
    } else {
      fprintf(stderr, "unknown command %s\n", a);
      return 2;
    }
  }
  return 0;
}
