/* GPU proof of the cuSPARSELt stub (tests/gpu/cusparselt.sh): a structured-sparse matrix product
 * D = A * op(B) + C in FP16 (row-major, opA N, opB T, M = N = K = 128, FP32 compute, else FP16
 * compute where the loaded cuSPARSELt refuses FP32): A is pruned to 2:4 on the GPU
 * (cusparseLtSpMMAPrune, checked by cusparseLtSpMMAPruneCheck), compressed
 * (cusparseLtSpMMACompress), multiplied (cusparseLtMatmul), and D is checked on the host against
 * the product of the pruned A read back. The inputs are small integers, so every value is exact
 * in FP16 and the check is equality. Built against cuSPARSELt's and the machine's headers, linked
 * either to the stubs (libstubs_cusparselt, libstubs_cudart) or normally (libcusparseLt,
 * libcudart). Prints PASS/FAIL lines and a checksum of D; exits non-zero on any failure.
 *
 * C that is also C++: the script compiles it as C++ (cuSPARSELt 0.8.0's cusparseLt.h, the CUDA 13
 * wheel PyTorch installs, includes <cstddef>, so only C++ can include it), and as C where the
 * header allows (0.8.1's uses C11's alignas without including <stdalign.h>, so it comes first). */
#include <stdalign.h>
#define DISABLE_CUSPARSE_DEPRECATED
#include <cuda_runtime_api.h>
#include <cusparseLt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 128
#define N 128
#define K 128

#define CHECK(what, call)                                   \
  do {                                                      \
    int rc_ = (int)(call);                                  \
    if (rc_ != 0) {                                         \
      printf("FAIL %s rc=%d\n", what, rc_);                 \
      return 1;                                             \
    }                                                       \
  } while (0)

/* IEEE binary16 from a float that is a small integer (exact; no rounding needed). */
static uint16_t half_of(float f) {
  if (f == 0.0f) return 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = f < 0 ? -f : f;
  int exp = 0;
  while (a >= 2.0f) a /= 2.0f, exp++;
  while (a < 1.0f) a *= 2.0f, exp--;
  uint16_t mant = (uint16_t)((a - 1.0f) * 1024.0f);
  return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | mant);
}

/* A float from IEEE binary16 (normal, subnormal, zero, infinity, NaN). */
static float float_of(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) {
    v = (float)mant / 1024.0f / 16384.0f;
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    v = (1.0f + (float)mant / 1024.0f);
    for (int e = exp - 15; e > 0; e--) v *= 2.0f;
    for (int e = exp - 15; e < 0; e++) v /= 2.0f;
  }
  return sign ? -v : v;
}

int main(void) {
  int runtime = 0, ndev = 0;
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  CHECK("cudaGetDeviceCount", cudaGetDeviceCount(&ndev));
  printf("runtime %d, %d device(s)\n", runtime, ndev);
  if (ndev < 1) {
    printf("FAIL no GPU\n");
    return 1;
  }
  int major = -1, minor = -1, patch = -1;
  CHECK("cusparseLtGetProperty", cusparseLtGetProperty(MAJOR_VERSION, &major));
  CHECK("cusparseLtGetProperty", cusparseLtGetProperty(MINOR_VERSION, &minor));
  CHECK("cusparseLtGetProperty", cusparseLtGetProperty(PATCH_LEVEL, &patch));
  printf("cusparseLt version %d.%d.%d (header %d.%d.%d)\n", major, minor, patch,
         CUSPARSELT_VER_MAJOR, CUSPARSELT_VER_MINOR, CUSPARSELT_VER_PATCH);

  /* A: M x K; B stored N x K (op T gives K x N); C, D: M x N; all row-major. */
  size_t a_count = (size_t)M * K, b_count = (size_t)N * K, c_count = (size_t)M * N;
  uint16_t *ha = (uint16_t *)malloc(a_count * 2), *hb = (uint16_t *)malloc(b_count * 2);
  uint16_t *hc = (uint16_t *)malloc(c_count * 2), *hd = (uint16_t *)malloc(c_count * 2);
  if (!ha || !hb || !hc || !hd) return 1;
  for (size_t i = 0; i < a_count; i++) ha[i] = half_of((float)((int)(i * 7 % 5) - 2));
  for (size_t i = 0; i < b_count; i++) hb[i] = half_of((float)((int)(i * 3 % 5) - 2));
  for (size_t i = 0; i < c_count; i++) hc[i] = half_of((float)((int)(i % 3) - 1));

  void *da = NULL, *db = NULL, *dc = NULL, *dd = NULL, *dcompressed = NULL, *dbuffer = NULL,
       *dworkspace = NULL;
  int *dvalid = NULL;
  CHECK("cudaMalloc", cudaMalloc(&da, a_count * 2));
  CHECK("cudaMalloc", cudaMalloc(&db, b_count * 2));
  CHECK("cudaMalloc", cudaMalloc(&dc, c_count * 2));
  CHECK("cudaMalloc", cudaMalloc(&dd, c_count * 2));
  CHECK("cudaMalloc", cudaMalloc((void **)&dvalid, sizeof(int)));
  CHECK("cudaMemcpy", cudaMemcpy(da, ha, a_count * 2, cudaMemcpyHostToDevice));
  CHECK("cudaMemcpy", cudaMemcpy(db, hb, b_count * 2, cudaMemcpyHostToDevice));
  CHECK("cudaMemcpy", cudaMemcpy(dc, hc, c_count * 2, cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK("cudaStreamCreate", cudaStreamCreate(&stream));

  cusparseLtHandle_t handle;
  cusparseLtMatDescriptor_t mat_a, mat_b, mat_c;
  cusparseLtMatmulDescriptor_t matmul;
  cusparseLtMatmulAlgSelection_t selection;
  cusparseLtMatmulPlan_t plan;
  CHECK("cusparseLtInit", cusparseLtInit(&handle));
  int version = -1;
  CHECK("cusparseLtGetVersion", cusparseLtGetVersion(&handle, &version));
  printf("cusparseLtGetVersion %d\n", version);
  cusparseOrder_t order = CUSPARSE_ORDER_ROW;
  CHECK("cusparseLtStructuredDescriptorInit",
        cusparseLtStructuredDescriptorInit(&handle, &mat_a, M, K, K, 16, CUDA_R_16F, order,
                                           CUSPARSELT_SPARSITY_50_PERCENT));
  CHECK("cusparseLtDenseDescriptorInit(B)",
        cusparseLtDenseDescriptorInit(&handle, &mat_b, N, K, K, 16, CUDA_R_16F, order));
  CHECK("cusparseLtDenseDescriptorInit(C)",
        cusparseLtDenseDescriptorInit(&handle, &mat_c, M, N, N, 16, CUDA_R_16F, order));
  cusparseComputeType compute = CUSPARSE_COMPUTE_32F;
  int rc = (int)cusparseLtMatmulDescriptorInit(&handle, &matmul, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                               CUSPARSE_OPERATION_TRANSPOSE, &mat_a, &mat_b,
                                               &mat_c, &mat_c, compute);
  if (rc != 0) {
    compute = CUSPARSE_COMPUTE_16F;
    CHECK("cusparseLtMatmulDescriptorInit",
          cusparseLtMatmulDescriptorInit(&handle, &matmul, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         CUSPARSE_OPERATION_TRANSPOSE, &mat_a, &mat_b, &mat_c,
                                         &mat_c, compute));
  }
  printf("compute type %s\n", compute == CUSPARSE_COMPUTE_32F ? "32F" : "16F");
  CHECK("cusparseLtMatmulDescSetAttribute(SPARSE_MAT_POINTER)",
        cusparseLtMatmulDescSetAttribute(&handle, &matmul, CUSPARSELT_MATMUL_SPARSE_MAT_POINTER,
                                         &da, sizeof da));
  CHECK("cusparseLtMatmulAlgSelectionInit",
        cusparseLtMatmulAlgSelectionInit(&handle, &selection, &matmul,
                                         CUSPARSELT_MATMUL_ALG_DEFAULT));
  CHECK("cusparseLtMatmulPlanInit", cusparseLtMatmulPlanInit(&handle, &plan, &matmul, &selection));

  CHECK("cusparseLtSpMMAPrune",
        cusparseLtSpMMAPrune(&handle, &matmul, da, da, CUSPARSELT_PRUNE_SPMMA_TILE, stream));
  CHECK("cusparseLtSpMMAPruneCheck",
        cusparseLtSpMMAPruneCheck(&handle, &matmul, da, dvalid, stream));
  int valid = -1;
  CHECK("cudaMemcpyAsync", cudaMemcpyAsync(&valid, dvalid, sizeof valid, cudaMemcpyDeviceToHost,
                                           stream));
  CHECK("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  printf("%s pruned A is 2:4 (cusparseLtSpMMAPruneCheck %d)\n", valid == 0 ? "PASS" : "FAIL",
         valid);
  CHECK("cudaMemcpy", cudaMemcpy(ha, da, a_count * 2, cudaMemcpyDeviceToHost));
  int bad_groups = 0;
  for (size_t i = 0; i < a_count; i += 4) {
    int nonzero = 0;
    for (int j = 0; j < 4; j++) nonzero += (ha[i + j] & 0x7fff) != 0;
    bad_groups += nonzero > 2;
  }
  printf("%s every group of 4 in a row of A has at most 2 nonzeros (%d bad)\n",
         bad_groups == 0 ? "PASS" : "FAIL", bad_groups);

  size_t compressed_size = 0, buffer_size = 0, workspace_size = 0;
  CHECK("cusparseLtSpMMACompressedSize",
        cusparseLtSpMMACompressedSize(&handle, &plan, &compressed_size, &buffer_size));
  printf("compressed size %zu, buffer %zu\n", compressed_size, buffer_size);
  CHECK("cudaMalloc", cudaMalloc(&dcompressed, compressed_size));
  if (buffer_size) CHECK("cudaMalloc", cudaMalloc(&dbuffer, buffer_size));
  CHECK("cusparseLtSpMMACompress",
        cusparseLtSpMMACompress(&handle, &plan, da, dcompressed, dbuffer, stream));
  CHECK("cusparseLtMatmulGetWorkspace",
        cusparseLtMatmulGetWorkspace(&handle, &plan, &workspace_size));
  if (workspace_size) CHECK("cudaMalloc", cudaMalloc(&dworkspace, workspace_size));

  float alpha = 1.0f, beta = 1.0f;
  CHECK("cusparseLtMatmul", cusparseLtMatmul(&handle, &plan, &alpha, dcompressed, db, &beta, dc,
                                             dd, dworkspace, &stream, 1));
  CHECK("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  CHECK("cudaMemcpy", cudaMemcpy(hd, dd, c_count * 2, cudaMemcpyDeviceToHost));

  int wrong = 0;
  uint64_t checksum = 1469598103934665603ull; /* FNV-1a over D's FP16 bits */
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      float want = float_of(hc[(size_t)i * N + j]);
      for (int k = 0; k < K; k++)
        want += float_of(ha[(size_t)i * K + k]) * float_of(hb[(size_t)j * K + k]);
      uint16_t got = hd[(size_t)i * N + j];
      if (float_of(got) != want) {
        if (wrong < 3) printf("  D[%d][%d] = %g, expected %g\n", i, j, float_of(got), want);
        wrong++;
      }
      checksum = (checksum ^ (got & 0xff)) * 1099511628211ull;
      checksum = (checksum ^ (got >> 8)) * 1099511628211ull;
    }
  }
  printf("%s D = A * B^T + C on the host (%d of %d wrong)\n", wrong == 0 ? "PASS" : "FAIL", wrong,
         M * N);
  printf("checksum of D %016llx\n", (unsigned long long)checksum);

  CHECK("cusparseLtMatmulPlanDestroy", cusparseLtMatmulPlanDestroy(&plan));
  CHECK("cusparseLtMatmulAlgSelectionDestroy", cusparseLtMatmulAlgSelectionDestroy(&selection));
  CHECK("cusparseLtMatDescriptorDestroy", cusparseLtMatDescriptorDestroy(&mat_a));
  CHECK("cusparseLtMatDescriptorDestroy", cusparseLtMatDescriptorDestroy(&mat_b));
  CHECK("cusparseLtMatDescriptorDestroy", cusparseLtMatDescriptorDestroy(&mat_c));
  CHECK("cusparseLtDestroy", cusparseLtDestroy(&handle));
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dd), cudaFree(dvalid);
  cudaFree(dcompressed), cudaFree(dbuffer), cudaFree(dworkspace);
  cudaStreamDestroy(stream);
  free(ha), free(hb), free(hc), free(hd);
  return (valid == 0 && bad_groups == 0 && wrong == 0) ? 0 : 1;
}
