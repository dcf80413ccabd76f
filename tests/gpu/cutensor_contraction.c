/* GPU proof of the cuTENSOR stub (tests/gpu/cutensor.sh): matrix products C[m,n] = A[m,k] B[k,n]
 * through cutensorCreateContraction / cutensorContract, once per compute descriptor
 * (CUTENSOR_COMPUTE_DESC_32F, _TF32, _3XTF32, _16BF, _16F on float data; _64F on double), and a
 * reduction over k of A (cutensorCreateReduction, _32F). The inputs are small integers, exact
 * in every one of those formats, and every partial sum stays below 256 in magnitude (exact even
 * in bfloat16), so each result must equal the host's product bit for bit, whatever the
 * algorithm: one PASS or FAIL line per operation.
 * Linked normally to NVIDIA's libcutensor.so.2, the descriptors are the library's own objects;
 * linked to libstubs_cutensor.so, they are the stub's stand-ins, which it must translate into
 * the loaded library's own (a stand-in passed on untranslated is not a descriptor the library
 * knows). */
#include <cuda_runtime.h>
#include <cutensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 96
#define N 80
#define K 32

static int failures = 0;

#define CHECK_CUDA(call)                                                                      \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                                \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* A failed cuTENSOR call fails the operation it belongs to: returns from the function. */
#define CHECK_CT(what, call)                                                                  \
  do {                                                                                       \
    cutensorStatus_t s_ = (call);                                                            \
    if (s_ != CUTENSOR_STATUS_SUCCESS) {                                                     \
      printf("FAIL %s: %s = %d (%s)\n", what, #call, (int)s_, cutensorGetErrorString(s_));   \
      failures++;                                                                            \
      return;                                                                                \
    }                                                                                        \
  } while (0)

static double a_at(int i, int k) { return (double)((i + 2 * k) % 5 - 2); }
static double b_at(int k, int j) { return (double)((3 * k + j) % 7 - 3); }

/* The modes: A[m,k], B[k,n], C[m,n], column-major (the first mode is the fastest). */
static const int32_t MODE_A[] = {'m', 'k'};
static const int32_t MODE_B[] = {'k', 'n'};
static const int32_t MODE_C[] = {'m', 'n'};
static const int64_t EXTENT_A[] = {M, K};
static const int64_t EXTENT_B[] = {K, N};
static const int64_t EXTENT_C[] = {M, N};

/* Plan, workspace and run of `op` on `handle`, then the operation descriptor freed. */
static int plan_and_run(const char *what, cutensorHandle_t handle,
                        cutensorOperationDescriptor_t op, const void *alpha, const void *a,
                        const void *b, const void *beta, void *c, int contraction) {
  cutensorPlanPreference_t pref = NULL;
  cutensorPlan_t plan = NULL;
  uint64_t workspace_size = 0;
  void *workspace = NULL;
  int ok = 0;
  cutensorStatus_t s =
      cutensorCreatePlanPreference(handle, &pref, CUTENSOR_ALGO_DEFAULT, CUTENSOR_JIT_MODE_NONE);
  if (s == CUTENSOR_STATUS_SUCCESS)
    s = cutensorEstimateWorkspaceSize(handle, op, pref, CUTENSOR_WORKSPACE_DEFAULT,
                                      &workspace_size);
  if (s == CUTENSOR_STATUS_SUCCESS)
    s = cutensorCreatePlan(handle, &plan, op, pref, workspace_size);
  if (s == CUTENSOR_STATUS_SUCCESS && workspace_size > 0 &&
      cudaMalloc(&workspace, workspace_size) != cudaSuccess) {
    printf("FAIL %s: cudaMalloc of a %llu-byte workspace\n", what,
           (unsigned long long)workspace_size);
    s = CUTENSOR_STATUS_INSUFFICIENT_WORKSPACE;
  }
  if (s == CUTENSOR_STATUS_SUCCESS)
    s = contraction ? cutensorContract(handle, plan, alpha, a, b, beta, c, c, workspace,
                                       workspace_size, 0)
                    : cutensorReduce(handle, plan, alpha, a, beta, c, c, workspace,
                                     workspace_size, 0);
  if (s == CUTENSOR_STATUS_SUCCESS && cudaDeviceSynchronize() == cudaSuccess)
    ok = 1;
  else if (s != CUTENSOR_STATUS_SUCCESS)
    printf("FAIL %s: %d (%s)\n", what, (int)s, cutensorGetErrorString(s));
  else
    printf("FAIL %s: cudaDeviceSynchronize\n", what);
  if (workspace)
    cudaFree(workspace);
  if (plan)
    cutensorDestroyPlan(plan);
  if (pref)
    cutensorDestroyPlanPreference(pref);
  cutensorDestroyOperationDescriptor(op);
  return ok;
}

/* C = A B on the GPU in float (`dbl`: double) with `compute`, compared with the host. */
static void contraction(cutensorHandle_t handle, const char *name,
                        cutensorComputeDescriptor_t compute, int dbl) {
  char what[96];
  snprintf(what, sizeof what, "contraction %dx%dx%d %s %s", M, N, K, dbl ? "R_64F" : "R_32F",
           name);
  const size_t elem = dbl ? sizeof(double) : sizeof(float);
  const cutensorDataType_t type = dbl ? CUTENSOR_R_64F : CUTENSOR_R_32F;
  void *ha = malloc(elem * M * K), *hb = malloc(elem * K * N), *hc = malloc(elem * M * N);
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) {
      if (dbl)
        ((double *)ha)[i + k * M] = a_at(i, k);
      else
        ((float *)ha)[i + k * M] = (float)a_at(i, k);
    }
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++) {
      if (dbl)
        ((double *)hb)[k + j * K] = b_at(k, j);
      else
        ((float *)hb)[k + j * K] = (float)b_at(k, j);
    }
  void *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, elem * M * K));
  CHECK_CUDA(cudaMalloc(&db, elem * K * N));
  CHECK_CUDA(cudaMalloc(&dc, elem * M * N));
  CHECK_CUDA(cudaMemcpy(da, ha, elem * M * K, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, hb, elem * K * N, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dc, 0, elem * M * N));

  cutensorTensorDescriptor_t ta = NULL, tb = NULL, tc = NULL;
  cutensorOperationDescriptor_t op = NULL;
  const uint32_t align = 128; /* cudaMalloc's alignment is 256 bytes */
  CHECK_CT(what, cutensorCreateTensorDescriptor(handle, &ta, 2, EXTENT_A, NULL, type, align));
  CHECK_CT(what, cutensorCreateTensorDescriptor(handle, &tb, 2, EXTENT_B, NULL, type, align));
  CHECK_CT(what, cutensorCreateTensorDescriptor(handle, &tc, 2, EXTENT_C, NULL, type, align));
  CHECK_CT(what, cutensorCreateContraction(handle, &op, ta, MODE_A, CUTENSOR_OP_IDENTITY, tb,
                                           MODE_B, CUTENSOR_OP_IDENTITY, tc, MODE_C,
                                           CUTENSOR_OP_IDENTITY, tc, MODE_C, compute));
  double one = 1.0, zero = 0.0;
  float onef = 1.0f, zerof = 0.0f;
  int ran = plan_and_run(what, handle, op, dbl ? (void *)&one : (void *)&onef, da, db,
                         dbl ? (void *)&zero : (void *)&zerof, dc, 1);
  if (ran) {
    CHECK_CUDA(cudaMemcpy(hc, dc, elem * M * N, cudaMemcpyDeviceToHost));
    long wrong = 0;
    double checksum = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double want = 0;
        for (int k = 0; k < K; k++)
          want += a_at(i, k) * b_at(k, j);
        double got = dbl ? ((double *)hc)[i + j * M] : (double)((float *)hc)[i + j * M];
        checksum += got * (1 + (i * 7 + j) % 3);
        if (got != want)
          wrong++;
      }
    printf("%s %s: checksum %.1f, %ld of %d elements differ from the host\n",
           wrong ? "FAIL" : "PASS", what, checksum, wrong, M * N);
    if (wrong)
      failures++;
  } else {
    failures++;
  }
  cutensorDestroyTensorDescriptor(ta);
  cutensorDestroyTensorDescriptor(tb);
  cutensorDestroyTensorDescriptor(tc);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha);
  free(hb);
  free(hc);
}

/* r[m] = sum over k of A[m,k] (float, CUTENSOR_COMPUTE_DESC_32F), compared with the host. */
static void reduction(cutensorHandle_t handle) {
  const char *what = "reduction over k, R_32F CUTENSOR_COMPUTE_DESC_32F";
  float *ha = malloc(sizeof(float) * M * K), hr[M];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      ha[i + k * M] = (float)a_at(i, k);
  void *da, *dr;
  CHECK_CUDA(cudaMalloc(&da, sizeof(float) * M * K));
  CHECK_CUDA(cudaMalloc(&dr, sizeof(float) * M));
  CHECK_CUDA(cudaMemcpy(da, ha, sizeof(float) * M * K, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dr, 0, sizeof(float) * M));
  static const int32_t mode_r[] = {'m'};
  static const int64_t extent_r[] = {M};
  cutensorTensorDescriptor_t ta = NULL, tr = NULL;
  cutensorOperationDescriptor_t op = NULL;
  CHECK_CT(what,
           cutensorCreateTensorDescriptor(handle, &ta, 2, EXTENT_A, NULL, CUTENSOR_R_32F, 128));
  CHECK_CT(what,
           cutensorCreateTensorDescriptor(handle, &tr, 1, extent_r, NULL, CUTENSOR_R_32F, 128));
  CHECK_CT(what, cutensorCreateReduction(handle, &op, ta, MODE_A, CUTENSOR_OP_IDENTITY, tr,
                                         mode_r, CUTENSOR_OP_IDENTITY, tr, mode_r,
                                         CUTENSOR_OP_ADD, CUTENSOR_COMPUTE_DESC_32F));
  float one = 1.0f, zero = 0.0f;
  if (plan_and_run(what, handle, op, &one, da, NULL, &zero, dr, 0)) {
    CHECK_CUDA(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < M; i++) {
      double want = 0;
      for (int k = 0; k < K; k++)
        want += a_at(i, k);
      if ((double)hr[i] != want)
        wrong++;
    }
    printf("%s %s: %d of %d elements differ from the host\n", wrong ? "FAIL" : "PASS", what,
           wrong, M);
    if (wrong)
      failures++;
  } else {
    failures++;
  }
  cutensorDestroyTensorDescriptor(ta);
  cutensorDestroyTensorDescriptor(tr);
  cudaFree(da);
  cudaFree(dr);
  free(ha);
}

int main(void) {
  printf("cutensorGetVersion %zu, cutensorGetCudartVersion %zu\n", cutensorGetVersion(),
         cutensorGetCudartVersion());
  cutensorHandle_t handle = NULL;
  cutensorStatus_t s = cutensorCreate(&handle);
  if (s != CUTENSOR_STATUS_SUCCESS) {
    printf("FAIL cutensorCreate = %d (%s)\n", (int)s, cutensorGetErrorString(s));
    return 1;
  }
  contraction(handle, "CUTENSOR_COMPUTE_DESC_32F", CUTENSOR_COMPUTE_DESC_32F, 0);
  contraction(handle, "CUTENSOR_COMPUTE_DESC_TF32", CUTENSOR_COMPUTE_DESC_TF32, 0);
  contraction(handle, "CUTENSOR_COMPUTE_DESC_3XTF32", CUTENSOR_COMPUTE_DESC_3XTF32, 0);
  contraction(handle, "CUTENSOR_COMPUTE_DESC_16BF", CUTENSOR_COMPUTE_DESC_16BF, 0);
  contraction(handle, "CUTENSOR_COMPUTE_DESC_16F", CUTENSOR_COMPUTE_DESC_16F, 0);
  contraction(handle, "CUTENSOR_COMPUTE_DESC_64F", CUTENSOR_COMPUTE_DESC_64F, 1);
  reduction(handle);
  cutensorDestroy(handle);
  printf("%s: %d failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
