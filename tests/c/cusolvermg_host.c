/* cuSOLVERMg through cusolverMg.h of one major, linked either to libstubs_cusolvermg.so or, for
 * comparison, to NVIDIA's libcusolverMg itself (tests/cusolvermg.rs). Prints one line per call:
 * what the handle, a device grid and a matrix descriptor answer without a GPU (the library's
 * own codes). With -DWITH_STATUS (the stub build), also what the stub says. */
/* NVIDIA's own switches: cusparse.h and 13.x's cusolverMg.h mark their deprecated API, which
 * -Werror would refuse. */
#define DISABLE_CUSPARSE_DEPRECATED
#define DISABLE_CUSOLVER_DEPRECATED
#define DISABLE_CUSOLVERMG_DEPRECATED
#include <cusolverMg.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  cusolverMgHandle_t handle = NULL;
  int rc = (int)cusolverMgCreate(&handle);
  printf("cusolverMgCreate rc=%d\n", rc);
  if (rc == 0) {
    int devices[1] = {0};
    rc = (int)cusolverMgDeviceSelect(handle, 1, devices);
    printf("cusolverMgDeviceSelect rc=%d\n", rc);
    rc = (int)cusolverMgDestroy(handle);
    printf("cusolverMgDestroy rc=%d\n", rc);
  }
  cudaLibMgGrid_t grid = NULL;
  const int32_t ids[1] = {0};
  rc = (int)cusolverMgCreateDeviceGrid(&grid, 1, 1, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR);
  printf("cusolverMgCreateDeviceGrid rc=%d\n", rc);
  if (rc == 0) {
    cudaLibMgMatrixDesc_t desc = NULL;
    rc = (int)cusolverMgCreateMatrixDesc(&desc, 64, 64, 32, 32, CUDA_R_64F, grid);
    printf("cusolverMgCreateMatrixDesc rc=%d\n", rc);
    if (rc == 0) cusolverMgDestroyMatrixDesc(desc);
    rc = (int)cusolverMgDestroyGrid(grid);
    printf("cusolverMgDestroyGrid rc=%d\n", rc);
  }

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cusolvermg_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
