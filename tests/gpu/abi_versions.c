/* GPU proof of the cudart stub's two ABIs in one process (docs/src/across-majors.md, "Both ABIs in one file").
 * Compiled twice into a shared library: against CUDA 12.9 headers and linked
 * -lstubs_cudart_abi12 (libgpu12.so), against 13.x headers and linked -lstubs_cudart
 * (libgpu13.so); tests/gpu/abi_versions.sh loads both into one program and runs it on real
 * runtimes. Each library makes calls whose prototype differs between the two headers, with its
 * own header's prototype, and checks their effect on the GPU:
 *   cudaGetDeviceProperties  (12.x headers: _v2, 1032-byte struct / 13.x: 1008 bytes)
 *   cudaMemAdvise            (int device / struct cudaMemLocation), read back with
 *                            cudaMemRangeGetAttribute(PreferredLocation)
 *   cudaStreamGetCaptureInfo (12.x headers: _v2, 6 arguments / 13.x: 7) on a capturing stream
 * Prints "<12|13> <check> PASS|FAIL ...". */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#if CUDART_VERSION >= 13000
#define TAG "13"
#define RUN run_cuda13
#else
#define TAG "12"
#define RUN run_cuda12
#endif

__attribute__((visibility("default"))) int RUN(void);

static int check(const char *what, int ok, const char *detail) {
  printf("%s %s %s %s\n", TAG, what, ok ? "PASS" : "FAIL", detail);
  return ok ? 0 : 1;
}

int RUN(void) {
  int failed = 0;
  char detail[256];

  struct cudaDeviceProp p;
  memset(&p, 0xab, sizeof p);
  int rc = (int)cudaGetDeviceProperties(&p, 0);
  int attr_major = -1, attr_sms = -1;
  cudaDeviceGetAttribute(&attr_major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&attr_sms, cudaDevAttrMultiProcessorCount, 0);
  snprintf(detail, sizeof detail, "rc=%d name=\"%.40s\" cc=%d.%d sms=%d mem=%zu MiB (attributes: cc major %d, sms %d)",
           rc, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem >> 20, attr_major, attr_sms);
  failed += check("cudaGetDeviceProperties", rc == 0 && p.major == attr_major && p.multiProcessorCount == attr_sms &&
                                                  strncmp(p.name, "NVIDIA", 6) == 0,
                  detail);

  size_t bytes = 1 << 20;
  void *x = NULL;
  rc = (int)cudaMallocManaged(&x, bytes, cudaMemAttachGlobal);
  int advise;
#if CUDART_VERSION >= 13000
  struct cudaMemLocation location = {0};
  location.type = cudaMemLocationTypeDevice;
  location.id = 0;
  advise = (int)cudaMemAdvise(x, bytes, cudaMemAdviseSetPreferredLocation, location);
#else
  advise = (int)cudaMemAdvise(x, bytes, cudaMemAdviseSetPreferredLocation, 0);
#endif
  int preferred = -7;
  int get = (int)cudaMemRangeGetAttribute(&preferred, sizeof preferred, cudaMemRangeAttributePreferredLocation, x, bytes);
  snprintf(detail, sizeof detail, "malloc=%d advise=%d get=%d preferred=%d (device 0)", rc, advise, get, preferred);
  failed += check("cudaMemAdvise", rc == 0 && advise == 0 && get == 0 && preferred == 0, detail);
  cudaFree(x);

  cudaStream_t s = NULL;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int begin = (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  cudaGraph_t graph = NULL;
  const cudaGraphNode_t *deps = (const cudaGraphNode_t *)1;
  size_t count = 777;
#if CUDART_VERSION >= 13000
  const cudaGraphEdgeData *edges = (const cudaGraphEdgeData *)1;
  int info = (int)cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &edges, &count);
#else
  int info = (int)cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &count);
#endif
  cudaGraph_t captured = NULL;
  int end = (int)cudaStreamEndCapture(s, &captured);
  snprintf(detail, sizeof detail, "begin=%d info=%d status=%d id=%llu graph=%s deps=%zu end=%d", begin, info,
           (int)status, id, graph ? "set" : "null", count, end);
  failed += check("cudaStreamGetCaptureInfo",
                  begin == 0 && info == 0 && status == cudaStreamCaptureStatusActive && id != 0 && graph != NULL &&
                      count == 0 && end == 0,
                  detail);
  if (captured) cudaGraphDestroy(captured);
  cudaStreamDestroy(s);
  return failed;
}
