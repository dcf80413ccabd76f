/* cuBLASLt through cublasLt.h of one major, linked either to libstubs_cublaslt.so or, for
 * comparison, to NVIDIA's libcublasLt itself (tests/cublaslt.rs). Prints one line per call: the
 * library's properties and version, what cublasLtCreate answers (without a GPU, the library's
 * own "not initialized"), a status string, and the host-side descriptors a GEMM is described with
 * (a matmul descriptor, a matrix layout, a preference: created, an attribute set and read back,
 * destroyed), which need no GPU. With -DWITH_STATUS (the stub build), also what the stub says. */
#include <cublasLt.h>
#include <stdint.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  static const char *const names[3] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int p = 0; p < 3; p++) {
    int value = -1;
    int rc = (int)cublasLtGetProperty((libraryPropertyType)p, &value);
    printf("cublasLtGetProperty(%s) rc=%d value=%d\n", names[p], rc, value);
  }
  printf("cublasLtGetVersion=%zu\n", cublasLtGetVersion());
  cublasLtHandle_t handle = NULL;
  int rc = (int)cublasLtCreate(&handle);
  printf("cublasLtCreate rc=%d\n", rc);
  if (rc == 0) cublasLtDestroy(handle);
  const char *text = cublasLtGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED);
  printf("cublasLtGetStatusString(15)=%s\n", text ? text : "(null)");
  const char *name = cublasLtGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED);
  printf("cublasLtGetStatusName(1)=%s\n", name ? name : "(null)");

  cublasLtMatmulDesc_t desc = NULL;
  rc = (int)cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  printf("cublasLtMatmulDescCreate rc=%d\n", rc);
  if (rc == 0) {
    int32_t trans = CUBLAS_OP_T, back = -1;
    size_t written = 0;
    printf("cublasLtMatmulDescSetAttribute(TRANSA) rc=%d\n",
           (int)cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans,
                                               sizeof trans));
    rc = (int)cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &back,
                                             sizeof back, &written);
    printf("cublasLtMatmulDescGetAttribute(TRANSA) rc=%d value=%d size=%zu\n", rc, back, written);
    printf("cublasLtMatmulDescDestroy rc=%d\n", (int)cublasLtMatmulDescDestroy(desc));
  }
  cublasLtMatrixLayout_t layout = NULL;
  rc = (int)cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, 4, 3, 4);
  printf("cublasLtMatrixLayoutCreate rc=%d\n", rc);
  if (rc == 0) {
    uint64_t rows = 0;
    size_t written = 0;
    rc = (int)cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows,
                                               sizeof rows, &written);
    printf("cublasLtMatrixLayoutGetAttribute(ROWS) rc=%d value=%llu size=%zu\n", rc,
           (unsigned long long)rows, written);
    printf("cublasLtMatrixLayoutDestroy rc=%d\n", (int)cublasLtMatrixLayoutDestroy(layout));
  }
  cublasLtMatmulPreference_t pref = NULL;
  rc = (int)cublasLtMatmulPreferenceCreate(&pref);
  printf("cublasLtMatmulPreferenceCreate rc=%d\n", rc);
  if (rc == 0) {
    uint64_t workspace = 1 << 20;
    printf("cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES) rc=%d\n",
           (int)cublasLtMatmulPreferenceSetAttribute(
               pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace));
    printf("cublasLtMatmulPreferenceDestroy rc=%d\n", (int)cublasLtMatmulPreferenceDestroy(pref));
  }
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cublaslt_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
