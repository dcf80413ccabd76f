/* The bundled example of cuda-stubs: compiled against CUDA 13.x headers (or 12.x: it builds
 * with either, linked with -lstubs_cudart_abi12 then), linked only against libstubs_cudart.so,
 * libstubs_nvrtc.so, libstubs_cuda.so and libstubs_nvjitlink.so (never NVIDIA's libraries), and
 * run unchanged on CUDA 11.8, 12.x, 13.x or no CUDA at all.
 *
 * On every machine: reports which real libraries the stubs bound, compiles a vector add with
 * NVRTC to PTX and CUBIN (checking the bytes), links NVRTC's LTO-IR (`-dlto`) to a CUBIN with
 * nvJitLink, and prints the runtime's answers.
 * On a machine with a GPU: allocates with the runtime, loads the CUBIN with the driver API,
 * launches it with cuLaunchKernel and checks the result.
 *
 * Exit status: 0 when everything the machine allows worked, 1 otherwise. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_stubs.h"

static const char *kernel_source =
    "extern \"C\" __global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

static int failures = 0;

static void check(int ok, const char *what) {
  printf("  [%s] %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) failures++;
}

static void print_status(const char *lib, int (*status)(cuda_stubs_status *)) {
  cuda_stubs_status s;
  if (status(&s) != 0) {
    printf("%-7s status unavailable\n", lib);
    return;
  }
  if (s.bound)
    printf("%-7s bound %s (version %d.%d, %s)\n", lib, s.path, s.version / 1000,
           (s.version % 1000) / 10, s.found_by);
  else
    printf("%-7s not found: %s\n", lib, s.message);
}

enum output { PTX, CUBIN, LTOIR };
static const char *const output_name[] = {"PTX", "CUBIN", "LTOIR"};

/* Compiles the kernel for `arch`; returns the PTX, CUBIN or LTO-IR (`-dlto`) bytes (malloc'ed)
 * or NULL. */
static char *nvrtc_compile(const char *arch, enum output kind, size_t *size) {
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, kernel_source, "vector_add.cu", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    printf("  nvrtcCreateProgram: %d (%s)\n", (int)r, nvrtcGetErrorString(r));
    return NULL;
  }
  char option[64];
  snprintf(option, sizeof option, "--gpu-architecture=%s", arch);
  const char *options[] = {option, "-dlto"};
  r = nvrtcCompileProgram(prog, kind == LTOIR ? 2 : 1, options);
  if (r != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    char *log = calloc(1, log_size + 1);
    if (log) nvrtcGetProgramLog(prog, log);
    printf("  nvrtcCompileProgram(%s): %d (%s)\n%s\n", arch, (int)r, nvrtcGetErrorString(r),
           log ? log : "");
    free(log);
    nvrtcDestroyProgram(&prog);
    return NULL;
  }
  char *out = NULL;
  r = kind == CUBIN ? nvrtcGetCUBINSize(prog, size)
      : kind == LTOIR ? nvrtcGetLTOIRSize(prog, size)
                      : nvrtcGetPTXSize(prog, size);
  if (r == NVRTC_SUCCESS && (out = malloc(*size)) != NULL)
    r = kind == CUBIN ? nvrtcGetCUBIN(prog, out) : kind == LTOIR ? nvrtcGetLTOIR(prog, out) : nvrtcGetPTX(prog, out);
  if (r != NVRTC_SUCCESS) {
    printf("  nvrtcGet%s: %d (%s)\n", output_name[kind], (int)r, nvrtcGetErrorString(r));
    free(out);
    out = NULL;
  }
  nvrtcDestroyProgram(&prog);
  return out;
}

/* The GPU part: runtime allocation, driver-API module load and launch, result check. */
static void run_on_gpu(const char *cubin) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule module;
  CUfunction fn;
  const char *text = NULL;
  CUresult cr;
  const int n = 1 << 20;
  size_t bytes = (size_t)n * sizeof(float);
  float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
  float *da = NULL, *db = NULL, *dc = NULL;
  if (!ha || !hb || !hc) {
    check(0, "host allocation");
    return;
  }
  for (int i = 0; i < n; i++) {
    ha[i] = (float)i;
    hb[i] = 2.0f * (float)i + 1.0f;
  }
  cr = cuDeviceGet(&dev, 0);
  check(cr == CUDA_SUCCESS, "cuDeviceGet");
  cr = cuDevicePrimaryCtxRetain(&ctx, dev);
  check(cr == CUDA_SUCCESS, "cuDevicePrimaryCtxRetain");
  cr = cuCtxSetCurrent(ctx);
  check(cr == CUDA_SUCCESS, "cuCtxSetCurrent");
  check(cudaMalloc((void **)&da, bytes) == cudaSuccess && cudaMalloc((void **)&db, bytes) == cudaSuccess &&
            cudaMalloc((void **)&dc, bytes) == cudaSuccess,
        "cudaMalloc x3 (runtime API)");
  check(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
            cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice) == cudaSuccess,
        "cudaMemcpy host to device");
  cr = cuModuleLoadData(&module, cubin);
  if (cr != CUDA_SUCCESS) cuGetErrorString(cr, &text);
  printf("  cuModuleLoadData(cubin): %d %s\n", (int)cr, text ? text : "");
  check(cr == CUDA_SUCCESS, "cuModuleLoadData (driver API)");
  if (cr != CUDA_SUCCESS) return;
  check(cuModuleGetFunction(&fn, module, "vector_add") == CUDA_SUCCESS, "cuModuleGetFunction");
  int count = n;
  void *args[] = {&da, &db, &dc, &count};
  cr = cuLaunchKernel(fn, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0, NULL, args, NULL);
  check(cr == CUDA_SUCCESS, "cuLaunchKernel");
  check(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
  check(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy device to host");
  int wrong = 0;
  for (int i = 0; i < n; i++)
    if (hc[i] != ha[i] + hb[i]) wrong++;
  printf("  vector_add of %d floats: %d wrong (c[12345] = %.1f, expected %.1f)\n", n, wrong,
         (double)hc[12345], (double)(ha[12345] + hb[12345]));
  check(wrong == 0, "vector_add result");
  /* Driver-API memory too: cuMemAlloc is cuMemAlloc_v2 through cuda.h. */
  CUdeviceptr dptr;
  float back = 0.0f, value = 42.5f;
  check(cuMemAlloc(&dptr, sizeof(float)) == CUDA_SUCCESS && cuMemcpyHtoD(dptr, &value, sizeof value) == CUDA_SUCCESS &&
            cuMemcpyDtoH(&back, dptr, sizeof back) == CUDA_SUCCESS && back == value && cuMemFree(dptr) == CUDA_SUCCESS,
        "cuMemAlloc_v2 / cuMemcpyHtoD_v2 / cuMemcpyDtoH_v2 / cuMemFree_v2 round trip");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cuModuleUnload(module);
  cuDevicePrimaryCtxRelease(dev);
  free(ha);
  free(hb);
  free(hc);
}

/* NVRTC `-dlto` for `compute`, then nvJitLink `-lto` to a CUBIN for `sm`. LTO-IR of CUDA 12.x or
 * newer links with nvJitLink of the same major or a newer one; other pairs (11.x's IR, which
 * 12.x and 13.x nvJitLink reject as too old; a newer major's IR) are the libraries' own business:
 * reported, not checked. `nvrtc_major`: 0 when no NVRTC is bound. */
static void link_time_optimize(const char *compute, const char *sm, int nvrtc_major) {
  cuda_stubs_status jl_status;
  cuda_stubs_nvjitlink_status(&jl_status);
  print_status("nvjitlink", cuda_stubs_nvjitlink_status);
  unsigned jl_major = 0, jl_minor = 0;
  nvJitLinkResult jr = nvJitLinkVersion(&jl_major, &jl_minor);
  printf("  nvJitLinkVersion: %d -> %u.%u\n", (int)jr, jl_major, jl_minor);
  if (!jl_status.bound) {
    check(jr == NVJITLINK_ERROR_INTERNAL, "no nvJitLink: NVJITLINK_ERROR_INTERNAL (6)");
    return;
  }
  size_t ltoir_size = 0, cubin_size = 0;
  char *ltoir = nvrtc_major ? nvrtc_compile(compute, LTOIR, &ltoir_size) : NULL;
  if (ltoir == NULL) {
    printf("  no LTO-IR to link\n");
    return;
  }
  printf("  LTO-IR: %zu bytes from NVRTC %d\n", ltoir_size, nvrtc_major);
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=%s", sm);
  const char *options[] = {arch, "-lto"};
  nvJitLinkHandle link = NULL;
  char *cubin = NULL;
  jr = nvJitLinkCreate(&link, 2, options);
  if (jr == NVJITLINK_SUCCESS) jr = nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, ltoir, ltoir_size, "vector_add");
  if (jr == NVJITLINK_SUCCESS) jr = nvJitLinkComplete(link);
  if (jr == NVJITLINK_SUCCESS) jr = nvJitLinkGetLinkedCubinSize(link, &cubin_size);
  if (jr == NVJITLINK_SUCCESS && (cubin = malloc(cubin_size)) != NULL) jr = nvJitLinkGetLinkedCubin(link, cubin);
  printf("  nvJitLink -lto %s: %d, CUBIN %zu bytes\n", sm, (int)jr, jr == NVJITLINK_SUCCESS ? cubin_size : 0);
  if (nvrtc_major >= 12 && nvrtc_major <= (int)jl_major) {
    check(jr == NVJITLINK_SUCCESS && cubin_size > 4 && memcmp(cubin, "\x7f" "ELF", 4) == 0,
          "nvJitLink's CUBIN starts with the ELF magic");
  } else {
    printf("  (LTO-IR of NVRTC %d with nvJitLink %u: the libraries' own result)\n", nvrtc_major, jl_major);
  }
  if (link) nvJitLinkDestroy(&link);
  free(cubin);
  free(ltoir);
}

int main(void) {
  printf("== libraries bound by the stubs\n");
  print_status("cudart", cuda_stubs_cudart_status);
  print_status("nvrtc", cuda_stubs_nvrtc_status);
  print_status("driver", cuda_stubs_cuda_status);

  printf("== CUDA runtime\n");
  int rt = 0, drv = 0, devices = 0;
  cudaError_t e = cudaRuntimeGetVersion(&rt);
  printf("  cudaRuntimeGetVersion: %d %s -> %d\n", (int)e, cudaGetErrorName(e), rt);
  e = cudaDriverGetVersion(&drv);
  printf("  cudaDriverGetVersion: %d %s -> %d\n", (int)e, cudaGetErrorName(e), drv);
  e = cudaGetDeviceCount(&devices);
  printf("  cudaGetDeviceCount: %d %s (%s) -> %d\n", (int)e, cudaGetErrorName(e), cudaGetErrorString(e),
         devices);
  cuda_stubs_status rt_status;
  cuda_stubs_cudart_status(&rt_status);
  if (!rt_status.bound) check(e == cudaErrorStubLibrary, "no runtime: cudaErrorStubLibrary (34)");

  /* Calls whose prototype differs between the 12.x and 13.x headers (a 1032- or 1008-byte
   * cudaDeviceProp; an int device or a struct cudaMemLocation): the stub exports each name once
   * per ABI, and this build's link recorded the one of the headers it was compiled against. */
  struct cudaDeviceProp prop;
  memset(&prop, 0, sizeof prop);
  cudaError_t props = cudaGetDeviceProperties(&prop, 0);
  printf("  cudaGetDeviceProperties (CUDA %d headers, %zu-byte cudaDeviceProp): %d %s%s%s\n",
         CUDART_VERSION / 1000, sizeof prop, (int)props, cudaGetErrorName(props),
         props == cudaSuccess ? " -> " : "", props == cudaSuccess ? prop.name : "");
#if CUDART_VERSION >= 13000
  struct cudaMemLocation host = {0};
  host.type = cudaMemLocationTypeHost;
  e = cudaMemAdvise(NULL, 0, cudaMemAdviseSetReadMostly, host);
#else
  e = cudaMemAdvise(NULL, 0, cudaMemAdviseSetReadMostly, cudaCpuDeviceId);
#endif
  printf("  cudaMemAdvise(NULL, 0): %d %s\n", (int)e, cudaGetErrorName(e));
  if (rt_status.bound) {
    /* The runtime's own answer (no driver: 35; a NULL range: invalid value), never the
     * stub's "cannot call this runtime with this ABI" (801). */
    check(props != cudaErrorNotSupported && e != cudaErrorNotSupported,
          "calls whose prototype changed in 13.0 reach the runtime");
  } else {
    check(props == cudaErrorStubLibrary && e == cudaErrorStubLibrary,
          "no runtime: cudaErrorStubLibrary for them too");
  }

  printf("== NVRTC\n");
  int major = 0, minor = 0;
  nvrtcResult nr = nvrtcVersion(&major, &minor);
  printf("  nvrtcVersion: %d -> %d.%d\n", (int)nr, major, minor);
  cuda_stubs_status nv_status;
  cuda_stubs_nvrtc_status(&nv_status);

  /* Pick the GPU's architecture when there is one, else sm_80 (every NVRTC 11.8+ has it). */
  CUresult cr = cuInit(0);
  const char *cr_text = NULL;
  cuGetErrorString(cr, &cr_text);
  int cc_major = 8, cc_minor = 0, gpu = 0;
  CUdevice dev;
  if (cr == CUDA_SUCCESS && cuDeviceGet(&dev, 0) == CUDA_SUCCESS) {
    char name[128] = {0};
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    printf("  GPU 0: %s, compute capability %d.%d\n", name, cc_major, cc_minor);
    gpu = 1;
  }
  char sm[16], compute[16];
  snprintf(sm, sizeof sm, "sm_%d%d", cc_major, cc_minor);
  snprintf(compute, sizeof compute, "compute_%d%d", cc_major, cc_minor);
  size_t ptx_size = 0, cubin_size = 0;
  char *ptx = nvrtc_compile(compute, PTX, &ptx_size);
  char *cubin = ptx ? nvrtc_compile(sm, CUBIN, &cubin_size) : NULL;
  if (nv_status.bound) {
    check(ptx && strstr(ptx, ".entry vector_add") != NULL, "PTX contains .entry vector_add");
    const char *version = ptx ? strstr(ptx, ".version") : NULL;
    if (version) printf("  PTX: %zu bytes for %s, %.*s\n", ptx_size, compute, (int)strcspn(version, "\n"), version);
    check(cubin && cubin_size > 4 && memcmp(cubin, "\x7f" "ELF", 4) == 0, "CUBIN starts with the ELF magic");
    if (cubin) printf("  CUBIN: %zu bytes for %s\n", cubin_size, sm);
  } else {
    check(nr == NVRTC_ERROR_INTERNAL_ERROR, "no NVRTC: NVRTC_ERROR_INTERNAL_ERROR (11)");
    printf("  nvrtcGetErrorString(%d): %s\n", (int)nr, nvrtcGetErrorString(nr));
  }

  printf("== nvJitLink: NVRTC's LTO-IR linked to a CUBIN\n");
  link_time_optimize(compute, sm, nv_status.bound ? major : 0);

  printf("== CUDA driver\n");
  printf("  cuInit: %d %s\n", (int)cr, cr_text ? cr_text : "");
  if (gpu && cubin && rt_status.bound) {
    char name[sizeof prop.name] = {0};
    cuDeviceGetName(name, sizeof name, dev);
    check(props == cudaSuccess && strcmp(prop.name, name) == 0,
          "cudaGetDeviceProperties: the device's name, in this build's layout");
    run_on_gpu(cubin);
  } else {
    printf("  no GPU here: the driver-API launch is skipped\n");
  }
  free(ptx);
  free(cubin);
  printf("== %s\n", failures ? "FAILED" : "done");
  return failures ? 1 : 0;
}
