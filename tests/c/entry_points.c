/* The driver's entry points (issue 48 item 5): cuGetProcAddress_v2 and the runtime's
 * cudaGetDriverEntryPoint / cudaGetDriverEntryPointByVersion, each entry point then called.
 * One `key=value` line per fact, the same on a board (tests/gpu/occupancy.sh) and on the mock
 * (tests/tests/mock_api.rs). Built against NVIDIA's 13.x headers. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

/* cudaGetDriverEntryPoint is deprecated in 13.x (for ...ByVersion), and still called. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef CUresult (*count_fn)(int *);
typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*free_fn)(CUdeviceptr);

int main(void) {
  int n = -1;
  cudaGetDeviceCount(&n);
  cuInit(0);
  CUcontext ctx = NULL;
  CUdevice dev = 0;
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);

  /* The driver's getter: a name at the version of these headers, then used. */
  void *p = NULL, *q = NULL;
  CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
  int rc = (int)cuGetProcAddress("cuMemAlloc", &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st);
  void *f = NULL;
  cuGetProcAddress("cuMemFree", &f, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, NULL);
  CUdeviceptr d = 0;
  int alloc = p ? (int)((alloc_fn)p)(&d, 4096) : -1;
  int freed = f ? (int)((free_fn)f)(d) : -1;
  printf("cuGetProcAddress(cuMemAlloc) rc=%d status=%d found=%d alloc rc=%d free rc=%d\n", rc,
         (int)st, p != NULL, alloc, freed);
  p = (void *)1;
  rc = (int)cuGetProcAddress("cuNoSuchFunction", &p, CUDA_VERSION, 0, &st);
  printf("cuGetProcAddress(missing) rc=%d status=%d null=%d\n", rc, (int)st, p == NULL);
  /* Without a status to write the reason to. */
  p = (void *)1;
  rc = (int)cuGetProcAddress("cuNoSuchFunction", &p, CUDA_VERSION, 0, NULL);
  printf("cuGetProcAddress(missing, no status) rc=%d null=%d\n", rc, p == NULL);
  /* cuTensorMapEncodeTiled came in 12.0: asked at 11.8, too new. */
  p = (void *)1;
  rc = (int)cuGetProcAddress("cuTensorMapEncodeTiled", &p, 11080, 0, &st);
  printf("cuGetProcAddress(too new) rc=%d status=%d null=%d\n", rc, (int)st, p == NULL);
  /* The per-thread default stream variant is another function. */
  p = q = NULL;
  cuGetProcAddress("cuStreamQuery", &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL);
  cuGetProcAddress("cuStreamQuery", &q, CUDA_VERSION,
                   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, NULL);
  printf("cuStreamQuery legacy=%d per-thread=%d differ=%d\n", p != NULL, q != NULL, p != q);
  /* A function without a per-thread variant is the same either way. */
  p = q = NULL;
  cuGetProcAddress("cuDeviceGetCount", &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL);
  cuGetProcAddress("cuDeviceGetCount", &q, CUDA_VERSION,
                   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, NULL);
  printf("cuDeviceGetCount found=%d same=%d\n", p != NULL, p == q);
  /* Not asked with a NULL pfn: the board's driver (580.159.04) dereferences it (SIGSEGV),
   * tests/gpu/RESULTS.md; the mock answers CUDA_ERROR_INVALID_VALUE (tests/tests/mock_api.rs). */

  /* The runtime's. */
  enum cudaDriverEntryPointQueryResult qr = (enum cudaDriverEntryPointQueryResult)-1;
  p = NULL;
  int crc = (int)cudaGetDriverEntryPoint("cuDeviceGetCount", &p, cudaEnableDefault, &qr);
  int count = -1;
  int called = p ? (int)((count_fn)p)(&count) : -1;
  printf("cudaGetDriverEntryPoint(cuDeviceGetCount) rc=%d status=%d called rc=%d count=%d "
         "runtime count=%d\n",
         crc, (int)qr, called, count, n);
  p = (void *)1;
  crc = (int)cudaGetDriverEntryPoint("cuNoSuchFunction", &p, cudaEnableDefault, &qr);
  printf("cudaGetDriverEntryPoint(missing) rc=%d status=%d null=%d\n", crc, (int)qr, p == NULL);
  p = (void *)1;
  crc = (int)cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 11080,
                                              cudaEnableDefault, &qr);
  printf("cudaGetDriverEntryPointByVersion(too new) rc=%d status=%d null=%d\n", crc, (int)qr,
         p == NULL);
  p = NULL;
  crc = (int)cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 12000, cudaEnableDefault, &qr);
  printf("cudaGetDriverEntryPointByVersion(cuMemAlloc, 12000) rc=%d status=%d found=%d\n", crc,
         (int)qr, p != NULL);
  crc = (int)cudaGetDriverEntryPoint("cuMemAlloc", &p, 7, &qr);
  printf("cudaGetDriverEntryPoint(bad flags) rc=%d\n", crc);
  return 0;
}
