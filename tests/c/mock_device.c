/* The mock device (CUDA_STUBS_MOCK) through the runtime, driver and NVML stubs, as a program
 * sees it: compiled against NVIDIA's 13.5 headers, linked only to libstubs_cudart,
 * libstubs_cuda, libstubs_nvml and libstubs_nvrtc (tests/tests/mock_device.rs). Prints one `key=value` line per
 * fact; the test compares them with the profile and across the three libraries. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvml.h>
#include <stdio.h>
#include <string.h>

#include "cuda_stubs.h"
#include "cuda_stubs_mock.h"
#include <nvrtc.h>

/* The host function standing for kernel `twice(float *x, unsigned n)`: the mock's device
 * pointers are host addresses. */
static void twice(void **params, const cuda_stubs_mock_launch *launch, void *user) {
  float *x = *(float **)params[0];
  unsigned n = *(unsigned *)params[1];
  for (unsigned i = 0; i < n; i++) x[i] *= 2.0f;
  *(int *)user = (int)(launch->grid[0] * launch->block[0]);
}

static const char *HAND_PTX =
    "// a comment first, as NVRTC writes\n"
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry twice(.param .u64 x, .param .u32 n) { ret; }\n";

static const char *SOURCE =
    "extern \"C\" __global__ void twice(float *x, unsigned n) {\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= 2.0f;\n"
    "}\n";

/* Loads `image` and launches `twice` on `n` floats of `x` (device): each step's code. */
static void module_run(const char *what, const void *image, CUdeviceptr x, unsigned n) {
  CUmodule module = NULL;
  CUfunction f = NULL, none = NULL;
  int load = (int)cuModuleLoadData(&module, image);
  int get = load == 0 ? (int)cuModuleGetFunction(&f, module, "twice") : -1;
  int missing = load == 0 ? (int)cuModuleGetFunction(&none, module, "thrice") : -1;
  void *args[] = {&x, &n};
  int launch = get == 0 ? (int)cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL) : -1;
  int too_big = get == 0 ? (int)cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL) : -1;
  /* The launch captured in a graph, which is replayed. */
  int captured = -1, replay = -1;
  if (get == 0) {
    CUstream cs = NULL;
    CUgraph cg = NULL;
    CUgraphExec cx = NULL;
    cuStreamCreate(&cs, 0);
    cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_GLOBAL);
    captured = (int)cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, cs, args, NULL);
    cuStreamEndCapture(cs, &cg);
    cuGraphInstantiate(&cx, cg, 0);
    replay = (int)cuGraphLaunch(cx, cs);
    cuGraphExecDestroy(cx);
    cuGraphDestroy(cg);
    cuStreamDestroy(cs);
  }
  int unload = load == 0 ? (int)cuModuleUnload(module) : -1;
  printf("module %s load rc=%d get rc=%d missing rc=%d launch rc=%d too big rc=%d captured "
         "rc=%d replay rc=%d unload rc=%d\n",
         what, load, get, missing, launch, too_big, captured, replay, unload);
}

int main(int argc, char **argv) {
  /* `nvrtc`: also compile with NVIDIA's NVRTC (the slow part under memcheck). */
  int with_nvrtc = argc > 1 && strcmp(argv[1], "nvrtc") == 0;
  struct cuda_stubs_status st = {0};
  int n = -1;
  int rc = (int)cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount rc=%d count=%d\n", rc, n);
  cuda_stubs_cudart_status(&st);
  printf("cudart status: %s\n", st.message ? st.message : "(null)");
  if (rc != 0) {
    printf("cudaGetErrorString=%s\n", cudaGetErrorString((cudaError_t)rc));
    return 0;
  }

  struct cudaDeviceProp p;
  memset(&p, 0xff, sizeof p);
  rc = (int)cudaGetDeviceProperties(&p, 0);
  printf("cudaGetDeviceProperties rc=%d name=%s cc=%d.%d sms=%d mem=%zu warp=%d\n", rc, p.name,
         p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem, p.warpSize);
  int attr = -1;
  rc = (int)cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0);
  printf("cudaDeviceGetAttribute(sms) rc=%d value=%d\n", rc, attr);
  rc = (int)cudaGetDeviceProperties(&p, n);
  printf("cudaGetDeviceProperties(count) rc=%d\n", rc);

  /* The driver: same devices. */
  rc = (int)cuInit(0);
  int dn = -1, dv = 0;
  cuDeviceGetCount(&dn);
  cuDriverGetVersion(&dv);
  char name[128] = "";
  CUdevice dev = -1;
  cuDeviceGet(&dev, 0);
  cuDeviceGetName(name, sizeof name, dev);
  int dsms = -1;
  cuDeviceGetAttribute(&dsms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  size_t dtotal = 0;
  cuDeviceTotalMem(&dtotal, dev);
  printf("cuInit rc=%d count=%d version=%d name=%s sms=%d mem=%zu\n", rc, dn, dv, name, dsms,
         dtotal);

  /* NVML: same devices. */
  rc = (int)nvmlInit();
  unsigned nn = 0;
  nvmlDeviceGetCount(&nn);
  nvmlDevice_t nd;
  nvmlDeviceGetHandleByIndex(0, &nd);
  char nname[96] = "", uuid[96] = "";
  nvmlDeviceGetName(nd, nname, sizeof nname);
  nvmlDeviceGetUUID(nd, uuid, sizeof uuid);
  nvmlMemory_t before = {0}, after = {0};
  nvmlDeviceGetMemoryInfo(nd, &before);
  printf("nvmlInit rc=%d count=%u name=%s uuid=%s total=%llu used=%llu\n", rc, nn, nname, uuid,
         before.total, before.used);

  /* Memory: one allocation, seen by all three. */
  size_t gib = (size_t)1 << 30;
  void *d = NULL;
  rc = (int)cudaMalloc(&d, gib);
  /* A failure (an injected one too) is the thread's last error, read and cleared. */
  int malloc_last = (int)cudaGetLastError(), malloc_cleared = (int)cudaGetLastError();
  printf("after cudaMalloc: last error %d then %d\n", malloc_last, malloc_cleared);
  size_t free_rt = 0, total_rt = 0, free_drv = 0, total_drv = 0;
  cudaMemGetInfo(&free_rt, &total_rt);
  cuMemGetInfo(&free_drv, &total_drv);
  nvmlDeviceGetMemoryInfo(nd, &after);
  printf("cudaMalloc(1 GiB) rc=%d runtime free=%zu total=%zu driver free=%zu nvml used=%llu "
         "free=%llu\n",
         rc, free_rt, total_rt, free_drv, after.used, after.free);

  /* A round trip, host -> device -> device -> host, and a memset. */
  char host[64], back[64];
  for (int i = 0; i < 64; i++) host[i] = (char)i;
  int c1 = (int)cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice);
  int c2 = (int)cudaMemcpy((char *)d + 64, d, 64, cudaMemcpyDeviceToDevice);
  int c3 = (int)cudaMemcpy(back, (char *)d + 64, 64, cudaMemcpyDeviceToHost);
  int same = memcmp(host, back, 64) == 0;
  int c4 = (int)cudaMemset(d, 7, 16);
  int c5 = (int)cuMemcpyDtoH(back, (CUdeviceptr)d, 16);
  printf("round trip rc=%d,%d,%d same=%d memset rc=%d,%d byte=%d\n", c1, c2, c3, same, c4, c5,
         back[15]);
  /* Past the allocation's end, and a pointer that is no allocation. */
  int past = (int)cudaMemcpy(back, (char *)d + gib - 8, 16, cudaMemcpyDeviceToHost);
  int stray = (int)cudaMemcpy(host, back, 16, cudaMemcpyDeviceToHost);
  printf("past the end rc=%d not device memory rc=%d\n", past, stray);
  (void)cudaGetLastError();

  /* Out of memory at the profile's limit; the last error, read once. */
  void *big = NULL;
  rc = (int)cudaMalloc(&big, total_rt);
  int last = (int)cudaGetLastError();
  int again = (int)cudaGetLastError();
  CUdeviceptr dbig = 0;
  int drc = (int)cuMemAlloc(&dbig, total_rt);
  printf("cudaMalloc(total) rc=%d last=%d then=%d cuMemAlloc(total) rc=%d\n", rc, last, again,
         drc);

  /* Events: a real elapsed time. */
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0, 0);
  cudaEventRecord(e1, 0);
  cudaEventSynchronize(e1);
  float ms = -1;
  rc = (int)cudaEventElapsedTime(&ms, e0, e1);
  printf("cudaEventElapsedTime rc=%d nonnegative=%d\n", rc, ms >= 0);

  /* What the mock does not model: the library's "not supported", never a silent success. */
  cudaGraph_t g = NULL;
  cudaGraphCreate(&g, 0);
  int graph = (int)cudaGraphDebugDotPrint(g, "/dev/null", 0);
  CUgraph dg = NULL;
  cuGraphCreate(&dg, 0);
  int dgraph = (int)cuGraphDebugDotPrint(dg, "/dev/null", 0);
  unsigned fan = 0;
  int nfan = (int)nvmlDeviceGetFanSpeed(nd, &fan);
  printf("unmodelled cudaGraphDebugDotPrint rc=%d cuGraphDebugDotPrint rc=%d "
         "nvmlDeviceGetFanSpeed rc=%d\n",
         graph, dgraph, nfan);
  cudaGraphDestroy(g);
  cuGraphDestroy(dg);
  (void)cudaGetLastError();


  /* Modules: checked as the driver checks them; launches checked and recorded; a registered
   * host function runs in a kernel's place (on the allocation above: none, no modules). */
  if (d == NULL) return 0;
  float xs[64];
  for (int i = 0; i < 64; i++) xs[i] = (float)i;
  CUdeviceptr x = (CUdeviceptr)d;
  cuMemcpyHtoD(x, xs, sizeof xs);
  module_run("hand-written PTX (unregistered)", HAND_PTX, x, 64);
  int threads = 0;
  int reg = cuda_stubs_mock_register_kernel("twice", twice, &threads);
  module_run("hand-written PTX", HAND_PTX, x, 64);
  cuMemcpyDtoH(xs, x, sizeof xs);
  printf("registered rc=%d threads=%d x[3]=%g\n", reg, threads, (double)xs[3]);
  CUmodule m = NULL;
  /* PTX newer than the profile's driver (13.0 reads ISA 9.0): with nvJitLink at hand the driver
   * stub hands the mock a CUBIN instead, as it would a real driver; without, the mock refuses
   * it as the driver does. */
  printf("PTX 9.5 rc=%d\n", (int)cuModuleLoadData(&m, ".version 9.5\n.target sm_90\n"));
  printf("PTX sm_100 rc=%d\n", (int)cuModuleLoadData(&m, ".version 9.0\n.target sm_100\n"));
  printf("not an image rc=%d\n", (int)cuModuleLoadData(&m, "hello"));

  /* NVIDIA's NVRTC, real under the mock: its PTX (ISA 9.5, newer than the profile's driver)
   * becomes a CUBIN through the driver stub and nvJitLink, which the mock loads. */
  if (with_nvrtc) {
    nvrtcProgram prog;
    int nv = (int)nvrtcCreateProgram(&prog, SOURCE, "twice.cu", 0, NULL, NULL);
    const char *opts[] = {"--gpu-architecture=compute_90"};
    int comp = nv == 0 ? (int)nvrtcCompileProgram(prog, 1, opts) : -1;
    size_t size = 0;
    if (comp == 0) nvrtcGetPTXSize(prog, &size);
    static char ptx[1 << 16];
    if (comp == 0 && size <= sizeof ptx) nvrtcGetPTX(prog, ptx);
    printf("nvrtc rc=%d,%d ptx version=%.12s\n", nv, comp, strstr(ptx, ".version"));
    threads = 0;
    module_run("NVRTC's PTX", ptx, x, 64);
    cuMemcpyDtoH(xs, x, sizeof xs);
    printf("registered threads=%d x[3]=%g\n", threads, (double)xs[3]);
    if (nv == 0) nvrtcDestroyProgram(&prog);
  }

  rc = (int)cudaFree(d);
  nvmlDeviceGetMemoryInfo(nd, &after);
  int twice = (int)cudaFree(d);
  printf("cudaFree rc=%d nvml used=%llu twice rc=%d\n", rc, after.used, twice);
  /* Last, since it leaves the device unusable: a captured memset replayed after its memory was
   * freed answers what a device reading freed memory reports, at the launch (the mock runs it
   * then), and like a device's fault it is sticky: every later call in the context answers
   * it. */
  cudaStream_t s = NULL;
  cudaStreamCreate(&s);
  void *tmp = NULL;
  cudaMalloc(&tmp, 64);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(tmp, 1, 64, s);
  /* An event record node is not modelled: "not supported", never a silent success. */
  cudaEvent_t ev = NULL;
  cudaEventCreate(&ev);
  int external = (int)cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal);
  cudaGraph_t cg = NULL;
  cudaStreamEndCapture(s, &cg);
  cudaGraphExec_t cx = NULL;
  cudaGraphInstantiate(&cx, cg, 0);
  int replay = (int)cudaGraphLaunch(cx, s);
  cudaFree(tmp);
  int freed = tmp == NULL ? -1 : (int)cudaGraphLaunch(cx, s);
  int last_fault = (int)cudaGetLastError();
  void *after_fault = NULL;
  int rt_after = (int)cudaMalloc(&after_fault, 64);
  CUdeviceptr dafter = 0;
  int drv_after = (int)cuMemAlloc(&dafter, 64);
  printf("external event record in a capture rc=%d\n", external);
  printf("graph replay rc=%d after cudaFree rc=%d last error=%d then cudaMalloc rc=%d cuMemAlloc "
         "rc=%d\n",
         replay, freed, last_fault, rt_after, drv_after);
  nvmlShutdown();
  return 0;
}
