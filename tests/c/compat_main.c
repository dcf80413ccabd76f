/* The program of tests/tests/compat.rs: links (weakly, so any subset may be present)
 * libcalls12.so / libcalls13.so (tests/c/abi_versions_calls.c against the 12.9 / 13.5 headers,
 * each linked against NVIDIA's own libcudart.so.12 / .13) and libnvrtccalls12.so / 13
 * (tests/c/compat_nvrtc_calls.c, linked against NVIDIA's libnvrtc.so.12 / .13). Runs their
 * calls (the 12 ones first, or the 13 ones with the argument "13-first"), then prints every
 * loaded object whose file name holds "cudart" or "nvrtc" as `mapped <kind> <path>`, <kind>
 * being `compat` (exports cuda_stubs_compat_major), `stub` (cuda_stubs_marker) or `real`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

void calls_cuda12(void) __attribute__((weak));
void calls_cuda13(void) __attribute__((weak));
void nvrtc_calls12(void) __attribute__((weak));
void nvrtc_calls13(void) __attribute__((weak));

static void call(void (*calls)(void)) {
  if (calls != NULL) calls();
}

static int mapped(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *slash = strrchr(info->dlpi_name, '/');
  const char *base = slash != NULL ? slash + 1 : info->dlpi_name;
  if (strstr(base, "cudart") == NULL && strstr(base, "nvrtc") == NULL) return 0;
  if (strstr(base, "calls") != NULL) return 0;
  /* By path, RTLD_NOLOAD: this very object (a dlsym on it also searches its dependencies,
   * which for a compatibility library hold the stub's marker, never the compat one). */
  void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
  const char *kind = h == NULL                                  ? "unknown"
                     : dlsym(h, "cuda_stubs_compat_major") != NULL ? "compat"
                     : dlsym(h, "cuda_stubs_marker") != NULL       ? "stub"
                                                                   : "real";
  printf("mapped %s %s\n", kind, info->dlpi_name);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "13-first") == 0) {
    call(calls_cuda13);
    call(calls_cuda12);
    call(nvrtc_calls13);
    call(nvrtc_calls12);
  } else {
    call(calls_cuda12);
    call(calls_cuda13);
    call(nvrtc_calls12);
    call(nvrtc_calls13);
  }
  dl_iterate_phdr(mapped, NULL);
  return 0;
}
