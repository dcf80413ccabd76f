/* The driver's graph nodes built by hand (issue 48 item 5): cuGraphAddKernelNode on a PTX
 * module's function, its parameters got and set in the graph and in an executable graph,
 * cuGraphExecUpdate, event record and wait nodes, each launch's effect read back. One
 * `key=value` line per fact, the same on a board (tests/gpu/occupancy.sh) and on the mock
 * (tests/tests/mock_api.rs). Built against NVIDIA's 13.x headers. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

/* add(int *x, int v, int n): x[i] += v for i < n. */
static const char *PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry add(.param .u64 x, .param .u32 v, .param .u32 n) {\n"
    "  .reg .pred %p;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [x];\n  ld.param.u32 %r1, [v];\n  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n  setp.ge.s32 %p, %r6, %r2;\n  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.s32 %rd3, %r6, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n  ld.global.u32 %r7, [%rd2];\n  add.s32 %r7, %r7, %r1;\n"
    "  st.global.u32 [%rd2], %r7;\nDONE:\n  ret;\n}\n";

static int first(CUdeviceptr d) {
  int h = -1;
  cuMemcpyDtoH(&h, d, sizeof h);
  return h;
}

static CUDA_KERNEL_NODE_PARAMS params(CUfunction f, void **args) {
  CUDA_KERNEL_NODE_PARAMS p;
  memset(&p, 0, sizeof p);
  p.func = f;
  p.gridDimX = p.gridDimY = p.gridDimZ = 1;
  p.gridDimX = 2;
  p.blockDimX = 64;
  p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = args;
  return p;
}

int main(void) {
  cuInit(0);
  CUcontext ctx = NULL;
  cuDevicePrimaryCtxRetain(&ctx, 0);
  cuCtxSetCurrent(ctx);
  CUmodule mod = NULL;
  CUfunction f = NULL;
  int load = (int)cuModuleLoadData(&mod, PTX);
  int get = (int)cuModuleGetFunction(&f, mod, "add");
  printf("module rc=%d,%d\n", load, get);
  const int n = 128;
  CUdeviceptr x = 0;
  cuMemAlloc(&x, n * sizeof(int));
  cuMemsetD32(x, 0, n);
  CUstream s = NULL;
  cuStreamCreate(&s, 0);
  CUevent e = NULL;
  cuEventCreate(&e, 0);

  CUgraph g = NULL;
  cuGraphCreate(&g, 0);
  int one = 1, ten = 10, count = n;
  void *a1[] = {&x, &one, &count};
  void *a2[] = {&x, &ten, &count};
  CUDA_KERNEL_NODE_PARAMS p1 = params(f, a1), p2 = params(f, a2);
  CUgraphNode k1, rec, wait, k2;
  int rc1 = (int)cuGraphAddKernelNode(&k1, g, NULL, 0, &p1);
  int rc2 = (int)cuGraphAddEventRecordNode(&rec, g, &k1, 1, e);
  int rc3 = (int)cuGraphAddEventWaitNode(&wait, g, &rec, 1, e);
  int rc4 = (int)cuGraphAddKernelNode(&k2, g, &wait, 1, &p2);
  printf("add nodes rc=%d,%d,%d,%d\n", rc1, rc2, rc3, rc4);
  one = 5;
  CUevent got = NULL;
  int rc = (int)cuGraphEventWaitNodeGetEvent(wait, &got);
  printf("wait node event rc=%d same=%d\n", rc, got == e);
  CUDA_KERNEL_NODE_PARAMS back;
  memset(&back, 0, sizeof back);
  rc = (int)cuGraphKernelNodeGetParams(k1, &back);
  printf("get params rc=%d func=%d grid=%u block=%u v=%d\n", rc, back.func == f, back.gridDimX,
         back.blockDimX, back.kernelParams ? *(int *)back.kernelParams[1] : -1);

  CUgraphExec ex = NULL;
  rc = (int)cuGraphInstantiate(&ex, g, 0);
  int launch = (int)cuGraphLaunch(ex, s);
  cuStreamSynchronize(s);
  printf("instantiate rc=%d launch rc=%d x[0]=%d\n", rc, launch, first(x));
  int hundred = 100;
  void *a3[] = {&x, &hundred, &count};
  CUDA_KERNEL_NODE_PARAMS p3 = params(f, a3);
  rc = (int)cuGraphExecKernelNodeSetParams(ex, k1, &p3);
  cuGraphLaunch(ex, s);
  cuStreamSynchronize(s);
  printf("exec set params rc=%d x[0]=%d\n", rc, first(x));
  int thousand = 1000;
  void *a4[] = {&x, &thousand, &count};
  CUDA_KERNEL_NODE_PARAMS p4 = params(f, a4);
  rc = (int)cuGraphKernelNodeSetParams(k2, &p4);
  cuGraphLaunch(ex, s);
  cuStreamSynchronize(s);
  printf("graph set params rc=%d x[0]=%d\n", rc, first(x));
  CUgraphExecUpdateResultInfo info;
  memset(&info, 0, sizeof info);
  rc = (int)cuGraphExecUpdate(ex, g, &info);
  cuGraphLaunch(ex, s);
  cuStreamSynchronize(s);
  printf("update rc=%d result=%d x[0]=%d\n", rc, (int)info.result, first(x));
  CUgraph other = NULL;
  cuGraphCreate(&other, 0);
  CUgraphNode lone;
  cuGraphAddEmptyNode(&lone, other, NULL, 0);
  rc = (int)cuGraphExecUpdate(ex, other, &info);
  printf("update other topology rc=%d result=%d\n", rc, (int)info.result);

  cuGraphExecDestroy(ex);
  cuGraphDestroy(other);
  cuGraphDestroy(g);
  cuEventDestroy(e);
  cuStreamDestroy(s);
  cuMemFree(x);
  cuModuleUnload(mod);
  return 0;
}
