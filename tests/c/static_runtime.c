/* A program with NVIDIA's runtime linked statically (libcudart_static.a, as CuPy links it) that
 * calls cuBLAS and cuFFT through their stubs (tests/static_runtime.rs). The math stubs must not
 * load a dynamic runtime beside the static one: a process has one runtime.
 *
 * Arguments: "load-runtime-stub" first dlopens libstubs_cudart.so without calling it, as a
 * process that has the runtime stub (another extension, a package loading every stub);
 * "ask-runtime-stub" then asks its status after the math calls, which runs its search. Prints
 * the static runtime's version, the math libraries' answers and the stubs' statuses, and every
 * libcudart file the process has mapped. */
#define _POSIX_C_SOURCE 200809L
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cuda_stubs.h"

typedef int (*status_fn)(cuda_stubs_status *);

static void print_status(const char *name, status_fn status) {
  cuda_stubs_status s;
  if (status && status(&s) == 0) {
    printf("%s status bound=%d version=%d found_by=%s\n", name, s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("%s status message=%s\n", name, s.message ? s.message : "(null)");
  }
}

int main(int argc, char **argv) {
  int load_stub = 0, ask_stub = 0;
  for (int i = 1; i < argc; i++) {
    load_stub |= strcmp(argv[i], "load-runtime-stub") == 0;
    ask_stub |= strcmp(argv[i], "ask-runtime-stub") == 0;
  }
  void *runtime_stub = NULL;
  if (load_stub) {
    runtime_stub = dlopen("libstubs_cudart.so", RTLD_NOW | RTLD_LOCAL);
    printf("runtime stub loaded=%d\n", runtime_stub != NULL);
  }

  int version = 0;
  int rc = (int)cudaRuntimeGetVersion(&version);
  printf("cudaRuntimeGetVersion (static) rc=%d version=%d\n", rc, version);

  int major = -1;
  rc = (int)cublasGetProperty(MAJOR_VERSION, &major);
  printf("cublasGetProperty(MAJOR_VERSION) rc=%d value=%d\n", rc, major);
  cublasHandle_t handle = NULL;
  rc = (int)cublasCreate(&handle);
  printf("cublasCreate rc=%d\n", rc);
  if (rc == 0) cublasDestroy(handle);
  int fft_version = 0;
  rc = (int)cufftGetVersion(&fft_version);
  printf("cufftGetVersion rc=%d version=%d\n", rc, fft_version);

  print_status("cublas", cuda_stubs_cublas_status);
  print_status("cufft", cuda_stubs_cufft_status);
  if (runtime_stub && ask_stub) {
    status_fn status = (status_fn)dlsym(runtime_stub, "cuda_stubs_cudart_status");
    print_status("cudart", status);
  }

  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  while (maps && fgets(line, sizeof line, maps)) {
    char *path = strchr(line, '/');
    if (!path || !strstr(path, "/libcudart.so")) continue;
    path[strcspn(path, "\n")] = 0;
    if (strcmp(path, last) != 0) printf("mapped %s\n", path);
    strncpy(last, path, sizeof last - 1);
  }
  if (maps) fclose(maps);
  return 0;
}
