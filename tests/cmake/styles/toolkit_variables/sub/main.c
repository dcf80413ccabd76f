/* Linked to FindCUDAToolkit's CUDA_cudart_LIBRARY and CUDA_cuda_driver_LIBRARY by name
 * (tests/packaging.rs checks which files those were): what the runtime and the driver answer.
 * No CUDA headers: the two prototypes are the same in every CUDA version. */
#include <stdio.h>

int cudaRuntimeGetVersion(int *runtimeVersion);
int cuDriverGetVersion(int *driverVersion);

int main(void) {
  int runtime = 0, driver = 0;
  int rc = cudaRuntimeGetVersion(&runtime);
  printf("cudaRuntimeGetVersion rc=%d version=%d\n", rc, runtime);
  rc = cuDriverGetVersion(&driver);
  printf("cuDriverGetVersion rc=%d version=%d\n", rc, driver);
  return 0;
}
