/* Device-side printf on the mock device, the same program on Linux and Windows
 * (tests/tests/windows_mock.rs): a kernel compiled by NVIDIA's NVRTC 13.5 formats every kind of
 * conversion (integers of both widths, %e/%g/%G/%a, strings, characters, flags, widths and
 * precisions), launched through the driver stub. The mock formats with the C library's
 * snprintf one conversion at a time; on Windows that must still be C99's (two exponent digits),
 * not msvcrt's. Linked only to the driver and NVRTC stubs. */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

static const char *SOURCE =
    "extern \"C\" __global__ void k(double d, float f, long long q) {\n"
    "  printf(\"t%d %5.2f %e %g %G %a %s %x %llu %lld %c|%-6d|%+.3e|%08.3f|%#o\\n\",\n"
    "         threadIdx.x, f, d, d * 1e-7, d * 1e20, f, \"str\", 255u,\n"
    "         (unsigned long long)q, q, 'z', 42, 1.0 / 3.0, -d, 8u);\n"
    "}\n";

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule module = NULL;
  CUfunction fn = NULL;
  int rc = (int)cuInit(0);
  if (rc == 0) rc = (int)cuDeviceGet(&dev, 0);
  if (rc == 0) rc = (int)cuDevicePrimaryCtxRetain(&ctx, dev);
  if (rc == 0) rc = (int)cuCtxSetCurrent(ctx);
  printf("context rc=%d\n", rc);
  nvrtcProgram prog;
  const char *options[] = {"--gpu-architecture=compute_90"};
  int compiled = (int)nvrtcCreateProgram(&prog, SOURCE, "device_printf", 0, NULL, NULL);
  if (compiled == 0) compiled = (int)nvrtcCompileProgram(prog, 1, options);
  size_t size = 0;
  char *ptx = NULL;
  if (compiled == 0 && nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && (ptx = malloc(size)))
    compiled = (int)nvrtcGetPTX(prog, ptx);
  int load = ptx ? (int)cuModuleLoadData(&module, ptx) : -1;
  int get = load == 0 ? (int)cuModuleGetFunction(&fn, module, "k") : -1;
  printf("compile rc=%d load rc=%d get rc=%d\n", compiled, load, get);
  double d = 12345.678901;
  float f = 3.14159f;
  long long q = -9000000000LL;
  void *args[] = {&d, &f, &q};
  /* The kernel's lines come at the synchronizing call, after what the program wrote before. */
  int launch = get == 0 ? (int)cuLaunchKernel(fn, 1, 1, 1, 2, 1, 1, 0, NULL, args, NULL) : -1;
  printf("launch rc=%d\n", launch);
  fflush(stdout);
  int sync = (int)cuCtxSynchronize();
  fflush(stdout);
  printf("sync rc=%d\n", sync);
  free(ptx);
  return 0;
}
