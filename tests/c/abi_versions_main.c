/* Links libcalls12.so (compiled against CUDA 12.9 headers) and libcalls13.so (13.5 headers),
 * each linked for its own cudart ABI (tests/c/abi_versions_calls.c): both run in this one
 * process, through the one libstubs_cudart.so. Prints each library's calls, then every mapped
 * object whose name holds "stubs_cudart" (`mapped <file name>`). Either library may be absent
 * (weak references): a program linking only one runs only its calls. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>

void calls_cuda12(void) __attribute__((weak));
void calls_cuda13(void) __attribute__((weak));

static void call(void (*calls)(void)) {
  if (calls != NULL) calls();
}

static int mapped(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *slash = strrchr(info->dlpi_name, '/');
  const char *base = slash != NULL ? slash + 1 : info->dlpi_name;
  if (strstr(base, "stubs_cudart") != NULL) printf("mapped %s\n", base);
  return 0;
}

int main(int argc, char **argv) {
  /* Either order: each caller's binding was fixed when its library was loaded. */
  if (argc > 1 && strcmp(argv[1], "13-first") == 0) {
    call(calls_cuda13);
    call(calls_cuda12);
  } else {
    call(calls_cuda12);
    call(calls_cuda13);
  }
  dl_iterate_phdr(mapped, NULL);
  return 0;
}
