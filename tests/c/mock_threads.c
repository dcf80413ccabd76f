/* The mock device from many threads at once (tests/tests/mock_device.rs): each thread, on a
 * device of its own turn, allocates, fills and reads back memory on its own stream, captures
 * that work in a thread-local capture (which forbids nothing to the other threads), replays
 * it, reads NVML's memory and frees everything, many times over. Prints one line per thread
 * (how many rounds came back right) and the devices' free memory before and after, which must
 * be equal: the model's accounting survives concurrent use. */
#include <cuda_runtime_api.h>
#include <nvml.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define THREADS 8
#define ROUNDS 200
#define BYTES 4096

static int devices = 0;

struct result {
  int index;
  int good;
  int first_error;
};

static void record(struct result *r, int rc) {
  if (rc != 0 && r->first_error == 0) r->first_error = rc;
}

static void *work(void *arg) {
  struct result *r = arg;
  record(r, (int)cudaSetDevice(r->index % devices));
  cudaStream_t s;
  record(r, (int)cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  nvmlDevice_t nd;
  record(r, (int)nvmlDeviceGetHandleByIndex_v2((unsigned)(r->index % devices), &nd));
  static _Thread_local unsigned char back[BYTES];
  for (int i = 0; i < ROUNDS; i++) {
    void *d = NULL;
    int rc = (int)cudaMalloc(&d, BYTES);
    record(r, rc);
    if (rc != 0) continue;
    unsigned char v = (unsigned char)(r->index * 16 + i % 16);
    cudaGraph_t g = NULL;
    cudaGraphExec_t x = NULL;
    record(r, (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    record(r, (int)cudaMemsetAsync(d, v, BYTES, s));
    record(r, (int)cudaMemcpyAsync(back, d, BYTES, cudaMemcpyDeviceToHost, s));
    record(r, (int)cudaStreamEndCapture(s, &g));
    record(r, (int)cudaGraphInstantiate(&x, g, 0));
    memset(back, 0, sizeof back);
    record(r, (int)cudaGraphLaunch(x, s));
    record(r, (int)cudaStreamSynchronize(s));
    int same = 1;
    for (int k = 0; k < BYTES; k++) same &= back[k] == v;
    nvmlMemory_t m;
    record(r, (int)nvmlDeviceGetMemoryInfo(nd, &m));
    record(r, (int)cudaGraphExecDestroy(x));
    record(r, (int)cudaGraphDestroy(g));
    record(r, (int)cudaFree(d));
    r->good += same;
  }
  record(r, (int)cudaStreamDestroy(s));
  return NULL;
}

int main(void) {
  if (cudaGetDeviceCount(&devices) != cudaSuccess || nvmlInit_v2() != NVML_SUCCESS) return 1;
  size_t before[2] = {0, 0}, after[2] = {0, 0}, total = 0;
  for (int d = 0; d < devices && d < 2; d++) {
    cudaSetDevice(d);
    cudaMemGetInfo(&before[d], &total);
  }
  pthread_t t[THREADS];
  struct result r[THREADS];
  for (int i = 0; i < THREADS; i++) {
    r[i] = (struct result){i, 0, 0};
    pthread_create(&t[i], NULL, work, &r[i]);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++)
    printf("thread %d good=%d of %d first error=%d\n", r[i].index, r[i].good, ROUNDS,
           r[i].first_error);
  for (int d = 0; d < devices && d < 2; d++) {
    cudaSetDevice(d);
    cudaMemGetInfo(&after[d], &total);
    printf("device %d free memory unchanged=%d\n", d, before[d] == after[d]);
  }
  nvmlShutdown();
  return 0;
}
