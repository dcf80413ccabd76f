/* GPU proof of the cuBLAS and cuBLASLt stubs (tests/gpu/gemm.sh): a 64x64 SGEMM on the GPU
 * through cublasSgemm and through cublasLtMatmul, each checked against the CPU's product, with
 * device memory from the runtime. Built against the machine's headers, linked either to the
 * stubs (libstubs_cudart, libstubs_cublas, libstubs_cublaslt) or normally. */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>

#define N 64

static float a[N * N], b[N * N], c[N * N], want[N * N];

static int check(const char *what) {
  double worst = 0;
  for (int i = 0; i < N * N; i++) worst = fmax(worst, fabs((double)c[i] - want[i]));
  printf("%s max abs error %.3g: %s\n", what, worst, worst < 1e-3 ? "PASS" : "FAIL");
  return worst < 1e-3 ? 0 : 1;
}

int main(void) {
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)((i * 7) % 13) / 13.0f;
    b[i] = (float)((i * 5) % 11) / 11.0f;
  }
  for (int col = 0; col < N; col++)
    for (int row = 0; row < N; row++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += (double)a[k * N + row] * b[col * N + k];
      want[col * N + row] = (float)s;
    }
  float *da, *db, *dc;
  size_t bytes = sizeof a;
  int rc = (int)cudaMalloc((void **)&da, bytes) | (int)cudaMalloc((void **)&db, bytes) |
           (int)cudaMalloc((void **)&dc, bytes);
  printf("cudaMalloc rc=%d\n", rc);
  if (rc) return 2;
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  const float alpha = 1.0f, beta = 0.0f;
  int failed = 0;

  cublasHandle_t h;
  printf("cublasCreate rc=%d\n", (int)cublasCreate(&h));
  cudaMemset(dc, 0, bytes);
  printf("cublasSgemm rc=%d\n", (int)cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, da,
                                                 N, db, N, &beta, dc, N));
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  failed |= check("cublasSgemm");
  cublasDestroy(h);

  cublasLtHandle_t lt;
  printf("cublasLtCreate rc=%d\n", (int)cublasLtCreate(&lt));
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, N, N, N);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, N, N, N);
  cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, N, N, N);
  cudaMemset(dc, 0, bytes);
  printf("cublasLtMatmul rc=%d\n", (int)cublasLtMatmul(lt, op, &alpha, da, la, db, lb, &beta, dc,
                                                       lc, dc, lc, NULL, NULL, 0, 0));
  cudaDeviceSynchronize();
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  failed |= check("cublasLtMatmul");
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  cublasLtDestroy(lt);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return failed;
}
