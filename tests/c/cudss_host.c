/* cuDSS, compiled against NVIDIA's cudss.h of one major and linked either to libstubs_cudss.so
 * or, for comparison, to NVIDIA's libcudss.so.1 itself (tests/cudss.rs). Prints one line per
 * call: cuDSS's own version, the host-side objects (a configuration set and read back, dense
 * and CSR matrix wrappers of host arrays, read back), the logger, handle creation (cuDSS's own
 * answer without a GPU), and calls on no handle. With -DWITH_STATUS (the stub build), also what
 * the stub says (cuda_stubs.h). */
#include <cudss.h>
#include <stdint.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  const char *names[] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int i = 0; i < 3; i++) {
    int value = -1;
    int rc = (int)cudssGetProperty((libraryPropertyType)i, &value);
    printf("cudssGetProperty(%s) rc=%d value=%d\n", names[i], rc, value);
  }

  /* A configuration is host memory only: set a parameter and read it back. */
  cudssConfig_t config = NULL;
  int rc = (int)cudssConfigCreate(&config);
  printf("cudssConfigCreate rc=%d\n", rc);
  if (rc == 0) {
    cudssReorderingAlg_t alg = CUDSS_REORDERING_ALG_AMD;
    printf("cudssConfigSet(REORDERING_ALG) rc=%d\n",
           (int)cudssConfigSet(config, CUDSS_CONFIG_REORDERING_ALG, &alg, sizeof alg));
    cudssReorderingAlg_t back = CUDSS_REORDERING_ALG_DEFAULT;
    size_t written = 0;
    rc = (int)cudssConfigGet(config, CUDSS_CONFIG_REORDERING_ALG, &back, sizeof back, &written);
    printf("cudssConfigGet(REORDERING_ALG) rc=%d value=%d size=%zu\n", rc, (int)back, written);
    printf("cudssConfigDestroy rc=%d\n", (int)cudssConfigDestroy(config));
  }

  /* Matrix wrappers of host arrays: no device memory is touched. */
  double values[6] = {1, 2, 3, 4, 5, 6};
  cudssMatrix_t dense = NULL;
  rc = (int)cudssMatrixCreateDn(&dense, 3, 2, 3, values, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR);
  printf("cudssMatrixCreateDn rc=%d\n", rc);
  if (rc == 0) {
    int64_t rows = 0, cols = 0, ld = 0;
    void *back = NULL;
    cudaDataType_t type = CUDA_R_32F;
    cudssLayout_t layout = CUDSS_LAYOUT_ROW_MAJOR;
    rc = (int)cudssMatrixGetDn(dense, &rows, &cols, &ld, &back, &type, &layout);
    printf("cudssMatrixGetDn rc=%d %lldx%lld ld=%lld same=%d type=%d layout=%d\n", rc,
           (long long)rows, (long long)cols, (long long)ld, back == values, (int)type,
           (int)layout);
    int format = -1;
    rc = (int)cudssMatrixGetFormat(dense, &format);
    printf("cudssMatrixGetFormat(dense) rc=%d format=%d\n", rc, format);
    printf("cudssMatrixDestroy(dense) rc=%d\n", (int)cudssMatrixDestroy(dense));
  }
  int row_start[4] = {0, 1, 2, 3}, col[3] = {0, 1, 2};
  double diag[3] = {2, 3, 4};
  cudssMatrix_t csr = NULL;
  rc = (int)cudssMatrixCreateCsr(&csr, 3, 3, 3, row_start, NULL, col, diag, CUDA_R_32I,
                                 CUDA_R_32I, CUDA_R_64F, CUDSS_MTYPE_SPD, CUDSS_MVIEW_FULL,
                                 CUDSS_BASE_ZERO);
  printf("cudssMatrixCreateCsr rc=%d\n", rc);
  if (rc == 0) {
    int format = -1;
    rc = (int)cudssMatrixGetFormat(csr, &format);
    printf("cudssMatrixGetFormat(csr) rc=%d format=%d\n", rc, format);
    printf("cudssMatrixDestroy(csr) rc=%d\n", (int)cudssMatrixDestroy(csr));
  }

  printf("cudssLoggerSetLevel rc=%d\n", (int)cudssLoggerSetLevel(0));

  /* Without a GPU cuDSS makes no handle: its own code. */
  cudssHandle_t handle = NULL;
  rc = (int)cudssCreate(&handle);
  printf("cudssCreate rc=%d\n", rc);
  if (rc == 0) printf("cudssDestroy rc=%d\n", (int)cudssDestroy(handle));
  cudssData_t data = NULL;
  printf("cudssDataCreate(no handle) rc=%d\n", (int)cudssDataCreate(NULL, &data));
  printf("cudssSetStream(no handle) rc=%d\n", (int)cudssSetStream(NULL, NULL));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cudss_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
