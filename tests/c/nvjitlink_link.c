/* A program built against NVIDIA's own nvJitLink.h (12.9's or 13.5's, from the wheels; with
 * -DNVJITLINK_NO_INLINE for the plain names) and linked only against libstubs_nvjitlink.so:
 * its calls reach the stub under the ABI names the header binds them to (__nvJitLinkCreate_12_9,
 * __nvJitLinkCreate_13_5 or nvJitLinkCreate). HEADER_MAJOR (12 or 13) says which header, so that
 * the calls only 13.x declares are compiled in only there. One command per argument:
 *
 *   version                        nvJitLinkVersion: "nvJitLinkVersion rc=N out=MAJOR.MINOR"
 *   link:ltoir|ptx:IN:OUT          create (-arch=sm_80, and -lto for LTO-IR), add IN, complete,
 *                                  get the CUBIN into OUT, destroy; "NAME rc=N" per call, the
 *                                  error log after the first failure (which ends the command);
 *                                  13.x header: also nvJitLinkGetLinkedLTOIRSize after complete
 *   status                         cuda_stubs_nvjitlink_status
 *   call:NAME                      the stub's export NAME (dlsym) with zero arguments: "call
 *                                  NAME rc=N" (status-returning functions whose real function
 *                                  or fallback accepts that)
 *   callall:FILE                   call:NAME for each name of FILE, printed "callall NAME rc=N"
 *                                  (only where no real library is bound: the fallbacks ignore
 *                                  their arguments) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvJitLink.h>

#include "cuda_stubs.h"

#ifndef HEADER_MAJOR
#error "HEADER_MAJOR (12 or 13) must be defined"
#endif

typedef unsigned (*any_status_fn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                                  uintptr_t, uintptr_t, uintptr_t);

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
    buf[n] = 0;
    *size = (size_t)n;
  } else {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static void error_log(nvJitLinkHandle handle) {
  size_t size = 0;
  if (nvJitLinkGetErrorLogSize(handle, &size) != NVJITLINK_SUCCESS || size == 0) return;
  char *log = calloc(1, size + 1);
  if (log && nvJitLinkGetErrorLog(handle, log) == NVJITLINK_SUCCESS) {
    for (char *c = log; *c; c++)
      if (*c == '\n') *c = ' ';
    printf("error-log: %s\n", log);
  }
  free(log);
}

static void link_one(const char *arg) {
  char kind[16] = {0}, in[4096] = {0}, out[4096] = {0};
  if (!arg || sscanf(arg, "%15[^:]:%4095[^:]:%4095[^\n]", kind, in, out) != 3) {
    printf("link bad-argument\n");
    return;
  }
  int lto = strcmp(kind, "ltoir") == 0;
  size_t size = 0;
  char *data = read_file(in, &size);
  if (!data) {
    printf("link cannot-read %s\n", in);
    return;
  }
  const char *options[] = {"-arch=sm_80", "-lto"};
  nvJitLinkHandle handle = NULL;
  nvJitLinkResult r = nvJitLinkCreate(&handle, lto ? 2 : 1, options);
  printf("nvJitLinkCreate rc=%d\n", (int)r);
  if (r != NVJITLINK_SUCCESS) {
    free(data);
    return;
  }
  /* PTX is text: its size counts the terminating NUL. */
  r = nvJitLinkAddData(handle, lto ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_PTX, data,
                       lto ? size : size + 1, in);
  printf("nvJitLinkAddData rc=%d\n", (int)r);
  if (r == NVJITLINK_SUCCESS) {
    r = nvJitLinkComplete(handle);
    printf("nvJitLinkComplete rc=%d\n", (int)r);
  }
  if (r != NVJITLINK_SUCCESS) {
    error_log(handle);
  } else {
#if HEADER_MAJOR >= 13
    size_t ltoir = 0;
    printf("nvJitLinkGetLinkedLTOIRSize rc=%d\n", (int)nvJitLinkGetLinkedLTOIRSize(handle, &ltoir));
#endif
    size_t cubin_size = 0;
    r = nvJitLinkGetLinkedCubinSize(handle, &cubin_size);
    printf("nvJitLinkGetLinkedCubinSize rc=%d out=%zu\n", (int)r, cubin_size);
    char *cubin = r == NVJITLINK_SUCCESS && cubin_size > 0 ? malloc(cubin_size) : NULL;
    if (cubin) {
      r = nvJitLinkGetLinkedCubin(handle, cubin);
      printf("nvJitLinkGetLinkedCubin rc=%d\n", (int)r);
      FILE *f = r == NVJITLINK_SUCCESS ? fopen(out, "wb") : NULL;
      if (f) {
        fwrite(cubin, 1, cubin_size, f);
        fclose(f);
      }
      free(cubin);
    }
  }
  r = nvJitLinkDestroy(&handle);
  printf("nvJitLinkDestroy rc=%d handle=%s\n", (int)r, handle ? "kept" : "null");
  free(data);
}

static void status(void) {
  cuda_stubs_status s;
  memset(&s, 0, sizeof s);
  int r = cuda_stubs_nvjitlink_status(&s);
  printf("status nvjitlink rc=%d bound=%d version=%d resolved=%u missing=%u\n", r, s.bound,
         s.version, s.resolved, s.missing);
  printf("status nvjitlink path=%s\n", s.path ? s.path : "(null)");
  printf("status nvjitlink message=%s\n", s.message ? s.message : "(null)");
}

static void call(const char *label, const char *name) {
  void *sym = dlsym(RTLD_DEFAULT, name);
  if (!sym) {
    printf("%s %s not-exported\n", label, name);
    return;
  }
  any_status_fn fn = (any_status_fn)sym;
  printf("%s %s rc=%u\n", label, name, fn(0, 0, 0, 0, 0, 0, 0, 0));
}

static void callall(const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) {
    printf("callall cannot-open\n");
    return;
  }
  char name[256];
  while (fscanf(f, "%255s", name) == 1) call("callall", name);
  fclose(f);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 1; i < argc; i++) {
    const char *cmd = argv[i];
    const char *colon = strchr(cmd, ':');
    const char *arg = colon ? colon + 1 : NULL;
    size_t len = colon ? (size_t)(colon - cmd) : strlen(cmd);
    if (len == 7 && strncmp(cmd, "version", len) == 0) {
      unsigned major = 7777, minor = 7777;
      nvJitLinkResult r = nvJitLinkVersion(&major, &minor);
      printf("nvJitLinkVersion rc=%d out=%u.%u\n", (int)r, major, minor);
    } else if (len == 4 && strncmp(cmd, "link", len) == 0) {
      link_one(arg);
    } else if (len == 6 && strncmp(cmd, "status", len) == 0) {
      status();
    } else if (len == 4 && strncmp(cmd, "call", len) == 0 && arg) {
      call("call", arg);
    } else if (len == 7 && strncmp(cmd, "callall", len) == 0) {
      callall(arg);
    } else {
      printf("unknown command %s\n", cmd);
      return 2;
    }
  }
  return 0;
}
