/* cuSOLVERMg on Windows (tests/windows/win_math.c runs it as the command `cusolvermg`): a
 * handle and a device grid. NVIDIA's `cusolverMg64_<n>.dll` is not fetched (182, 187 and
 * 105 MB): the stub is run without a DLL only, where every call answers the spec's "no
 * library" code. */
#include <stdio.h>

#include <cusolverMg.h>

void cmd_cusolvermg(void) {
  cusolverMgHandle_t h = NULL;
  cusolverStatus_t rc = cusolverMgCreate(&h);
  printf("cusolverMgCreate rc=%d\n", (int)rc);
  int devices[1] = {0};
  cudaLibMgGrid_t grid = NULL;
  rc = cusolverMgCreateDeviceGrid(&grid, 1, 1, devices, CUDALIBMG_GRID_MAPPING_COL_MAJOR);
  printf("cusolverMgCreateDeviceGrid rc=%d\n", (int)rc);
  if (rc == CUSOLVER_STATUS_SUCCESS) cusolverMgDestroyGrid(grid);
  if (h) cusolverMgDestroy(h);
}
