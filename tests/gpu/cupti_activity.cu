/* GPU proof of the CUPTI stub (tests/gpu/cupti.sh): activity records of kernels, and the
 * callback API. Two kernels (`scale` three times, `add` twice) launched by the runtime with
 * CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL enabled and this program's buffer callbacks
 * registered; a subscriber on the runtime API with this program's user data counts the
 * launches CUPTI reports. Prints the records per kernel name, the launch callbacks, the CUPTI
 * version and a status text, and PASS/FAIL lines; exits non-zero on any failure. Built by nvcc
 * against the machine's CUDA and CUPTI headers, linked either to the stubs (libstubs_cupti,
 * libstubs_cudart) or normally (libcupti, libcudart). The callbacks are this program's own
 * functions: CUPTI calls them directly, with the buffers they handed it, whether the program
 * reached CUPTI through the stub or not. */
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 16)

#define CHECK(what, call)                                                                  \
  do {                                                                                     \
    int rc_ = (int)(call);                                                                 \
    if (rc_ != 0) {                                                                        \
      printf("FAIL %s rc=%d\n", what, rc_);                                                \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

extern "C" __global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

extern "C" __global__ void add(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += y[i];
}

/* Kernel records per name; every record's end after its start. */
struct Tally {
  char name[64];
  int records;
};
static Tally tallies[8];
static int ntallies, bad_times, requested, completed;
static size_t dropped;

static void tally(const char *name, int ordered) {
  if (!ordered) bad_times++;
  for (int i = 0; i < ntallies; i++)
    if (strcmp(tallies[i].name, name) == 0) {
      tallies[i].records++;
      return;
    }
  if (ntallies < 8) {
    snprintf(tallies[ntallies].name, sizeof tallies[ntallies].name, "%s", name);
    tallies[ntallies++].records = 1;
  }
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  requested++;
  *size = 1 << 20;
  *buffer = (uint8_t *)aligned_alloc(8, *size);
  *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid) {
  (void)size;
  completed++;
  CUpti_Activity *record = NULL;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      /* Every kernel record version from 9 (12.0) to 13 (13.4) has start, end and name at
       * the same offsets: read through the oldest both majors' headers define. */
      const CUpti_ActivityKernel9 *k = (const CUpti_ActivityKernel9 *)record;
      tally(k->name ? k->name : "(null)", k->end > k->start);
    }
  }
  size_t lost = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &lost) == CUPTI_SUCCESS) dropped += lost;
  free(buffer);
}

static int marker, launches, api_enters, wrong_userdata;

static void CUPTIAPI on_runtime_api(void *userdata, CUpti_CallbackDomain domain,
                                    CUpti_CallbackId cbid, const void *data) {
  (void)cbid;
  const CUpti_CallbackData *info = (const CUpti_CallbackData *)data;
  if (userdata != &marker) wrong_userdata++;
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || info->callbackSite != CUPTI_API_ENTER) return;
  api_enters++;
  if (info->functionName && strstr(info->functionName, "LaunchKernel")) launches++;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const Tally *)a)->name, ((const Tally *)b)->name);
}

int main(void) {
  uint32_t version = 0;
  CHECK("cuptiGetVersion", cuptiGetVersion(&version));
  printf("cuptiGetVersion %u (header %d)\n", version, (int)CUPTI_API_VERSION);
  const char *text = NULL;
  CHECK("cuptiGetResultString", cuptiGetResultString(CUPTI_ERROR_NOT_INITIALIZED, &text));
  printf("cuptiGetResultString(15) = %s\n", text ? text : "(null)");
  int runtime = 0;
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  printf("runtime %d\n", runtime);

  CHECK("cuptiActivityRegisterCallbacks",
        cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  CHECK("cuptiActivityEnable", cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  CUpti_SubscriberHandle subscriber = NULL;
  CHECK("cuptiSubscribe",
        cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)on_runtime_api, &marker));
  CHECK("cuptiEnableDomain", cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));

  float *x = NULL, *y = NULL;
  float *host = (float *)malloc(sizeof(float) * N);
  if (!host) return 1;
  for (int i = 0; i < N; i++) host[i] = (float)(i % 13);
  CHECK("cudaMalloc", cudaMalloc((void **)&x, sizeof(float) * N));
  CHECK("cudaMalloc", cudaMalloc((void **)&y, sizeof(float) * N));
  CHECK("cudaMemcpy", cudaMemcpy(x, host, sizeof(float) * N, cudaMemcpyHostToDevice));
  CHECK("cudaMemcpy", cudaMemcpy(y, host, sizeof(float) * N, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (N + threads - 1) / threads;
  /* x = ((v * 2 + v) * 2 + v) * 2 = 14 * v for x = y = v = i % 13. */
  scale<<<blocks, threads>>>(x, 2.0f, N);
  add<<<blocks, threads>>>(x, y, N);
  scale<<<blocks, threads>>>(x, 2.0f, N);
  add<<<blocks, threads>>>(x, y, N);
  scale<<<blocks, threads>>>(x, 2.0f, N);
  CHECK("cudaGetLastError", cudaGetLastError());
  CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
  CHECK("cudaMemcpy", cudaMemcpy(host, x, sizeof(float) * N, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < N; i++)
    if (host[i] != (float)(14 * (i % 13))) wrong++;
  CHECK("cuptiActivityFlushAll", cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  CHECK("cuptiEnableDomain (off)", cuptiEnableDomain(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
  CHECK("cuptiUnsubscribe", cuptiUnsubscribe(subscriber));
  CHECK("cuptiActivityDisable", cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));

  qsort(tallies, (size_t)ntallies, sizeof tallies[0], by_name);
  for (int i = 0; i < ntallies; i++)
    printf("kernel %s: %d records\n", tallies[i].name, tallies[i].records);
  printf("launch callbacks: %d\n", launches);
  int status = 0;
#define EXPECT(cond, what)                                                                 \
  do {                                                                                     \
    if (cond) {                                                                            \
      printf("PASS %s\n", what);                                                           \
    } else {                                                                               \
      printf("FAIL %s\n", what);                                                           \
      status = 1;                                                                          \
    }                                                                                      \
  } while (0)
  EXPECT(wrong == 0, "kernel results");
  int scale_records = 0, add_records = 0;
  for (int i = 0; i < ntallies; i++) {
    if (strcmp(tallies[i].name, "scale") == 0) scale_records = tallies[i].records;
    if (strcmp(tallies[i].name, "add") == 0) add_records = tallies[i].records;
  }
  EXPECT(scale_records == 3 && add_records == 2 && ntallies == 2,
         "one CONCURRENT_KERNEL record per launch (scale 3, add 2)");
  EXPECT(bad_times == 0, "every record ends after it starts");
  EXPECT(requested >= 1 && completed >= 1 && dropped == 0,
         "the program's buffer callbacks got and returned the buffers");
  EXPECT(launches == 5, "the subscriber saw 5 kernel launches");
  EXPECT(api_enters > 0 && wrong_userdata == 0, "every callback got the program's user data");
  return status;
}
