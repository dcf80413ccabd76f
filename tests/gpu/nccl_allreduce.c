/* GPU proof of the NCCL stub (tests/gpu/nccl.sh): an all-reduce (sum) of 1 Mi floats over every
 * GPU of the machine (at most 8) in one process (ncclCommInitAll, one communicator per device,
 * grouped calls), then a broadcast from rank 0, each result checked on the host. Device memory
 * and streams come from the runtime. Built against NCCL's and the machine's headers, linked
 * either to the stubs (libstubs_nccl, libstubs_cudart) or normally (libnccl, libcudart). Prints
 * PASS/FAIL lines; exits non-zero on any failure. */
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT (1 << 20)
#define MAX_DEVICES 8

#define CHECK(what, call)                                                                  \
  do {                                                                                     \
    int rc_ = (int)(call);                                                                 \
    if (rc_ != 0) {                                                                        \
      printf("FAIL %s rc=%d\n", what, rc_);                                                \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

int main(void) {
  int version = 0;
  CHECK("ncclGetVersion", ncclGetVersion(&version));
  printf("ncclGetVersion %d (header %d)\n", version, NCCL_VERSION_CODE);
  int runtime = 0;
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  int ndev = 0;
  CHECK("cudaGetDeviceCount", cudaGetDeviceCount(&ndev));
  if (ndev > MAX_DEVICES) ndev = MAX_DEVICES;
  printf("runtime %d, %d device(s)\n", runtime, ndev);
  if (ndev < 1) {
    printf("FAIL no GPU\n");
    return 1;
  }

  int devs[MAX_DEVICES];
  ncclComm_t comms[MAX_DEVICES];
  cudaStream_t streams[MAX_DEVICES];
  float *buf[MAX_DEVICES];
  float *host = malloc(sizeof(float) * COUNT);
  if (!host) return 1;
  for (int d = 0; d < ndev; d++) devs[d] = d;
  CHECK("ncclCommInitAll", ncclCommInitAll(comms, ndev, devs));
  for (int d = 0; d < ndev; d++) {
    CHECK("cudaSetDevice", cudaSetDevice(d));
    CHECK("cudaMalloc", cudaMalloc((void **)&buf[d], sizeof(float) * COUNT));
    CHECK("cudaStreamCreate", cudaStreamCreate(&streams[d]));
    /* Rank d holds (d + 1) * (i % 7): the sum over ranks is (i % 7) * n(n+1)/2. */
    for (int i = 0; i < COUNT; i++) host[i] = (float)((d + 1) * (i % 7));
    CHECK("cudaMemcpy", cudaMemcpy(buf[d], host, sizeof(float) * COUNT, cudaMemcpyHostToDevice));
    int rank = -1, count = -1, cudev = -1;
    CHECK("ncclCommUserRank", ncclCommUserRank(comms[d], &rank));
    CHECK("ncclCommCount", ncclCommCount(comms[d], &count));
    CHECK("ncclCommCuDevice", ncclCommCuDevice(comms[d], &cudev));
    printf("comm %d: rank %d of %d on device %d\n", d, rank, count, cudev);
  }

  CHECK("ncclGroupStart", ncclGroupStart());
  for (int d = 0; d < ndev; d++)
    CHECK("ncclAllReduce",
          ncclAllReduce(buf[d], buf[d], COUNT, ncclFloat, ncclSum, comms[d], streams[d]));
  CHECK("ncclGroupEnd", ncclGroupEnd());
  int failed = 0;
  float factor = (float)(ndev * (ndev + 1) / 2);
  for (int d = 0; d < ndev; d++) {
    CHECK("cudaSetDevice", cudaSetDevice(d));
    CHECK("cudaStreamSynchronize", cudaStreamSynchronize(streams[d]));
    CHECK("cudaMemcpy", cudaMemcpy(host, buf[d], sizeof(float) * COUNT, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < COUNT; i++) bad += host[i] != (float)(i % 7) * factor;
    printf("allreduce sum on device %d: %s (%d wrong)\n", d, bad ? "FAIL" : "PASS", bad);
    failed |= bad != 0;
  }

  /* Broadcast rank 0's buffer, first set to 3.0. */
  CHECK("cudaSetDevice", cudaSetDevice(0));
  for (int i = 0; i < COUNT; i++) host[i] = 3.0f;
  CHECK("cudaMemcpy", cudaMemcpy(buf[0], host, sizeof(float) * COUNT, cudaMemcpyHostToDevice));
  CHECK("ncclGroupStart", ncclGroupStart());
  for (int d = 0; d < ndev; d++)
    CHECK("ncclBroadcast",
          ncclBroadcast(buf[d], buf[d], COUNT, ncclFloat, 0, comms[d], streams[d]));
  CHECK("ncclGroupEnd", ncclGroupEnd());
  for (int d = 0; d < ndev; d++) {
    CHECK("cudaSetDevice", cudaSetDevice(d));
    CHECK("cudaStreamSynchronize", cudaStreamSynchronize(streams[d]));
    CHECK("cudaMemcpy", cudaMemcpy(host, buf[d], sizeof(float) * COUNT, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < COUNT; i++) bad += host[i] != 3.0f;
    printf("broadcast on device %d: %s (%d wrong)\n", d, bad ? "FAIL" : "PASS", bad);
    failed |= bad != 0;
  }

  for (int d = 0; d < ndev; d++) {
    cudaSetDevice(d);
    cudaFree(buf[d]);
    cudaStreamDestroy(streams[d]);
    CHECK("ncclCommDestroy", ncclCommDestroy(comms[d]));
  }
  free(host);
  printf("ncclGetLastError = [%s]\n", ncclGetLastError(NULL));
  printf("%s\n", failed ? "SOME FAILED" : "ALL PASS");
  return failed;
}
