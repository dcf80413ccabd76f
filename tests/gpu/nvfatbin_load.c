/* GPU proof of the nvFatbin stub (tests/gpu/nvfatbin.sh): NVRTC compiles a kernel for the
 * device's architecture to PTX (compute_XY) and to a CUBIN (sm_XY); nvFatbin puts both into one
 * fatbinary (nvFatbinCreate, AddPTX, AddCubin, Size, Get); the driver loads it
 * (cuModuleLoadData), launches the kernel on 1 Mi floats and the result is checked on the host.
 * Then a fatbinary of the PTX alone, which the driver JIT-compiles. Built against the machine's
 * CUDA headers, linked either to the stubs (libstubs_nvfatbin, libstubs_nvrtc, libstubs_cuda) or
 * normally (libnvfatbin, libnvrtc, libcuda). Prints the fatbinaries' sizes and FNV-1a hashes
 * (the two builds must make the same bytes) and PASS/FAIL lines; exits non-zero on a failure. */
#include <cuda.h>
#include <nvFatbin.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT (1 << 20)

#define CHECK(what, call)                                                                  \
  do {                                                                                     \
    int rc_ = (int)(call);                                                                 \
    if (rc_ != 0) {                                                                        \
      printf("FAIL %s rc=%d\n", what, rc_);                                                \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static const char *source =
    "extern \"C\" __global__ void scale(float *x, float a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = x[i] * a + 1.0f;\n"
    "}\n";

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* NVRTC's output for `option` (PTX with "--gpu-architecture=compute_XY", else a CUBIN). */
static int compile(const char *arch_option, int cubin, char **out, size_t *size) {
  nvrtcProgram prog = NULL;
  CHECK("nvrtcCreateProgram", nvrtcCreateProgram(&prog, source, "scale.cu", 0, NULL, NULL));
  const char *options[] = {arch_option};
  nvrtcResult rc = nvrtcCompileProgram(prog, 1, options);
  if (rc != NVRTC_SUCCESS) {
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    char *log = calloc(1, n + 1);
    if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS) printf("log: %s\n", log);
    free(log);
    printf("FAIL nvrtcCompileProgram(%s) rc=%d\n", arch_option, (int)rc);
    return 1;
  }
  if (cubin) {
    CHECK("nvrtcGetCUBINSize", nvrtcGetCUBINSize(prog, size));
    *out = malloc(*size);
    CHECK("nvrtcGetCUBIN", *out ? nvrtcGetCUBIN(prog, *out) : 1);
  } else {
    CHECK("nvrtcGetPTXSize", nvrtcGetPTXSize(prog, size));
    *out = malloc(*size);
    CHECK("nvrtcGetPTX", *out ? nvrtcGetPTX(prog, *out) : 1);
  }
  nvrtcDestroyProgram(&prog);
  return 0;
}

/* Builds a fatbinary of `ptx` (and `cubin` when not NULL) for `arch` ("90"). */
static int fatbin(const char *name, const char *arch, const char *ptx, size_t ptx_size,
                  const char *cubin, size_t cubin_size, void **out, size_t *size) {
  nvFatbinHandle h = NULL;
  const char *options[] = {"-64"};
  CHECK("nvFatbinCreate", nvFatbinCreate(&h, options, 1));
  CHECK("nvFatbinAddPTX", nvFatbinAddPTX(h, ptx, ptx_size, arch, "scale", NULL));
  if (cubin) CHECK("nvFatbinAddCubin", nvFatbinAddCubin(h, cubin, cubin_size, arch, "scale"));
  CHECK("nvFatbinSize", nvFatbinSize(h, size));
  *out = malloc(*size);
  CHECK("nvFatbinGet", *out ? nvFatbinGet(h, *out) : 1);
  CHECK("nvFatbinDestroy", nvFatbinDestroy(&h));
  printf("fatbin %s: %zu bytes, fnv1a %016llx\n", name, *size,
         (unsigned long long)fnv1a(*out, *size));
  return 0;
}

/* Loads `image`, runs scale(x, 2, n) and checks x[i] == 2 * i + 1. */
static int run(const char *name, const void *image) {
  CUmodule module = NULL;
  CHECK("cuModuleLoadData", cuModuleLoadData(&module, image));
  CUfunction fn = NULL;
  CHECK("cuModuleGetFunction", cuModuleGetFunction(&fn, module, "scale"));
  float *host = malloc(sizeof(float) * COUNT);
  if (!host) return 1;
  for (int i = 0; i < COUNT; i++) host[i] = (float)(i % 1000);
  CUdeviceptr x = 0;
  CHECK("cuMemAlloc", cuMemAlloc(&x, sizeof(float) * COUNT));
  CHECK("cuMemcpyHtoD", cuMemcpyHtoD(x, host, sizeof(float) * COUNT));
  float a = 2.0f;
  int n = COUNT;
  void *args[] = {&x, &a, &n};
  CHECK("cuLaunchKernel", cuLaunchKernel(fn, COUNT / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CHECK("cuCtxSynchronize", cuCtxSynchronize());
  CHECK("cuMemcpyDtoH", cuMemcpyDtoH(host, x, sizeof(float) * COUNT));
  int bad = 0;
  for (int i = 0; i < COUNT; i++)
    if (host[i] != (float)(i % 1000) * 2.0f + 1.0f) bad++;
  cuMemFree(x);
  cuModuleUnload(module);
  free(host);
  printf("%s %s: %d of %d elements wrong\n", bad ? "FAIL" : "PASS", name, bad, COUNT);
  return bad != 0;
}

int main(void) {
  unsigned vmajor = 0, vminor = 0;
  CHECK("nvFatbinVersion", nvFatbinVersion(&vmajor, &vminor));
  int rmajor = 0, rminor = 0;
  CHECK("nvrtcVersion", nvrtcVersion(&rmajor, &rminor));
  CHECK("cuInit", cuInit(0));
  int driver = 0;
  CHECK("cuDriverGetVersion", cuDriverGetVersion(&driver));
  CUdevice dev = 0;
  CHECK("cuDeviceGet", cuDeviceGet(&dev, 0));
  int cc_major = 0, cc_minor = 0;
  CHECK("cuDeviceGetAttribute",
        cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK("cuDeviceGetAttribute",
        cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  printf("nvFatbinVersion %u.%u, nvrtcVersion %d.%d, driver %d, sm_%d%d\n", vmajor, vminor,
         rmajor, rminor, driver, cc_major, cc_minor);
  CUcontext ctx = NULL;
  CHECK("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK("cuCtxSetCurrent", cuCtxSetCurrent(ctx));

  char arch[16], ptx_option[48], cubin_option[48];
  snprintf(arch, sizeof arch, "%d%d", cc_major, cc_minor);
  snprintf(ptx_option, sizeof ptx_option, "--gpu-architecture=compute_%s", arch);
  snprintf(cubin_option, sizeof cubin_option, "--gpu-architecture=sm_%s", arch);
  char *ptx = NULL, *cubin = NULL;
  size_t ptx_size = 0, cubin_size = 0;
  if (compile(ptx_option, 0, &ptx, &ptx_size) || compile(cubin_option, 1, &cubin, &cubin_size))
    return 1;
  printf("nvrtc: PTX %zu bytes, CUBIN %zu bytes\n", ptx_size, cubin_size);

  void *both = NULL, *ptx_only = NULL;
  size_t both_size = 0, ptx_only_size = 0;
  if (fatbin("ptx+cubin", arch, ptx, ptx_size, cubin, cubin_size, &both, &both_size) ||
      fatbin("ptx", arch, ptx, ptx_size, NULL, 0, &ptx_only, &ptx_only_size))
    return 1;
  int failed = run("cuModuleLoadData(ptx+cubin fatbin)", both);
  failed |= run("cuModuleLoadData(ptx fatbin, JIT)", ptx_only);
  free(both);
  free(ptx_only);
  free(ptx);
  free(cubin);
  cuDevicePrimaryCtxRelease(dev);
  return failed;
}
