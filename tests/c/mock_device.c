/* The mock device (CUDA_STUBS_MOCK) through the runtime, driver and NVML stubs, as a program
 * sees it: compiled against NVIDIA's 13.5 headers, linked only to libstubs_cudart,
 * libstubs_cuda and libstubs_nvml (tests/tests/mock_device.rs). Prints one `key=value` line per
 * fact; the test compares them with the profile and across the three libraries. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvml.h>
#include <stdio.h>
#include <string.h>

#include "cuda_stubs.h"

int main(void) {
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
  int graph = (int)cudaGraphCreate(&g, 0);
  CUmodule module = NULL;
  int load = (int)cuModuleLoadData(&module, "");
  unsigned fan = 0;
  int nfan = (int)nvmlDeviceGetFanSpeed(nd, &fan);
  printf("unmodelled cudaGraphCreate rc=%d cuModuleLoadData rc=%d nvmlDeviceGetFanSpeed rc=%d\n",
         graph, load, nfan);

  rc = (int)cudaFree(d);
  nvmlDeviceGetMemoryInfo(nd, &after);
  int twice = (int)cudaFree(d);
  printf("cudaFree rc=%d nvml used=%llu twice rc=%d\n", rc, after.used, twice);
  nvmlShutdown();
  return 0;
}
