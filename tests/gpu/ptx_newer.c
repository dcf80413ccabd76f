#define _POSIX_C_SOURCE 199309L
/* Issue 36 on a GPU: PTX newer than the driver. Loads a saxpy module (PTX or CUBIN, from a file
 * made by NVIDIA's NVRTC / nvJitLink 13.5) through one driver entry point, launches it on 2^20
 * floats and counts wrong results. Built twice by tests/gpu/ptx_newer.sh: linked normally
 * (-lcuda) and against the stubs (-lstubs_cuda).
 *
 *   ptx_newer FILE MODE     MODE: data | data-ex | fatbin | file | library | library-file |
 *                           link (cuLinkCreate, cuLinkAddData of FILE as PTX, cuLinkComplete,
 *                           cuModuleLoadData of the linked CUBIN)
 *   ptx_newer FILE bench N  N loads and unloads of FILE with cuModuleLoadData: microseconds
 *                           for the first and the mean of the rest
 *
 * Prints one line: "MODE: load=<CUresult> launch=<CUresult> wrong=<count>" (and the JIT log
 * sizes and wall time for data-ex). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  rewind(f);
  char *b = malloc(*n + 1);
  if (fread(b, 1, *n, f) != *n) return NULL;
  b[*n] = 0;
  fclose(f);
  return b;
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  const char *path = argv[1], *mode = argv[2];
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
    printf("%s: no device\n", mode);
    return 1;
  }
  size_t size;
  char *image = read_file(path, &size);
  if (!image) return 2;
  if (strcmp(mode, "bench") == 0) {
    int n = argc > 3 ? atoi(argv[3]) : 100;
    double first = 0, rest = 0;
    for (int i = 0; i < n; i++) {
      CUmodule m;
      double t0 = now_us();
      CUresult r = cuModuleLoadData(&m, image);
      double t = now_us() - t0;
      if (r) {
        printf("bench: load=%d\n", r);
        return 1;
      }
      cuModuleUnload(m);
      if (i == 0) first = t; else rest += t;
    }
    printf("bench: first_us=%.1f rest_mean_us=%.2f n=%d\n", first, rest / (n - 1), n);
    return 0;
  }
  CUmodule module = NULL;
  CUlibrary library = NULL;
  CUfunction fn = NULL;
  CUresult load;
  char info[4096] = "", error[4096] = "";
  if (strcmp(mode, "data") == 0) {
    load = cuModuleLoadData(&module, image);
  } else if (strcmp(mode, "data-ex") == 0) {
    CUjit_option o[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                        CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME, CU_JIT_MAX_REGISTERS,
                        CU_JIT_LOG_VERBOSE};
    void *v[] = {info, (void *)(size_t)sizeof info, error, (void *)(size_t)sizeof error, 0, (void *)(size_t)32,
                 (void *)(size_t)1};
    load = cuModuleLoadDataEx(&module, image, 7, o, v);
    float ms;
    memcpy(&ms, &v[4], sizeof ms);
    printf("data-ex: info_log_bytes=%zu error_log_bytes=%zu wall_ms=%.1f\n", (size_t)v[1], (size_t)v[3], ms);
    if (error[0]) printf("data-ex: error log: %.300s\n", error);
  } else if (strcmp(mode, "fatbin") == 0) {
    load = cuModuleLoadFatBinary(&module, image);
  } else if (strcmp(mode, "file") == 0) {
    load = cuModuleLoad(&module, path);
  } else if (strcmp(mode, "library") == 0 || strcmp(mode, "library-file") == 0) {
    load = strcmp(mode, "library") == 0
               ? cuLibraryLoadData(&library, image, NULL, NULL, 0, NULL, NULL, 0)
               : cuLibraryLoadFromFile(&library, path, NULL, NULL, 0, NULL, NULL, 0);
  } else if (strcmp(mode, "link") == 0) {
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME};
    void *v[] = {error, (void *)(size_t)sizeof error, 0};
    CUlinkState state;
    CUresult created = cuLinkCreate(3, o, v, &state);
    CUresult added = created ? created : cuLinkAddData(state, CU_JIT_INPUT_PTX, image, size + 1, "saxpy", 0, NULL, NULL);
    void *cubin = NULL;
    size_t cubin_size = 0;
    CUresult done = added ? added : cuLinkComplete(state, &cubin, &cubin_size);
    float ms;
    memcpy(&ms, &v[2], sizeof ms);
    printf("link: add=%d complete=%d cubin_bytes=%zu wall_ms=%.1f\n", added, done, cubin_size, ms);
    if (error[0]) printf("link: error log: %.300s\n", error);
    load = done ? done : cuModuleLoadData(&module, cubin);
    if (!created) cuLinkDestroy(state); /* the module holds its own copy of the CUBIN */
  } else {
    return 2;
  }
  if (load == CUDA_SUCCESS) {
    if (library) {
      CUkernel k;
      load = cuLibraryGetKernel(&k, library, "saxpy");
      if (!load) load = cuKernelGetFunction(&fn, k);
    } else {
      load = cuModuleGetFunction(&fn, module, "saxpy");
    }
  }
  CUresult launch = CUDA_ERROR_NOT_READY;
  long wrong = -1;
  if (load == CUDA_SUCCESS) {
    int n = 1 << 20;
    float a = 2.0f, *hx = malloc(n * 4), *hy = malloc(n * 4);
    for (int i = 0; i < n; i++) hx[i] = (float)i, hy[i] = 1.0f;
    CUdeviceptr x, y;
    cuMemAlloc(&x, n * 4);
    cuMemAlloc(&y, n * 4);
    cuMemcpyHtoD(x, hx, n * 4);
    cuMemcpyHtoD(y, hy, n * 4);
    void *args[] = {&a, &x, &y, &n};
    launch = cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
    if (!launch) launch = cuCtxSynchronize();
    cuMemcpyDtoH(hy, y, n * 4);
    wrong = 0;
    for (int i = 0; i < n; i++) wrong += hy[i] != a * (float)i + 1.0f;
  }
  printf("%s: load=%d launch=%d wrong=%ld\n", mode, load, launch, wrong);
  return load || launch || wrong;
}
