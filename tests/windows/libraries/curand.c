/* cuRAND on Windows (tests/windows/win_math.c runs it as the command `curand`): its version,
 * then a generator, which needs a device. */
#include <stdio.h>

#include <curand.h>

void cmd_curand(void) {
  int v = -1;
  curandStatus_t rc = curandGetVersion(&v);
  printf("curandGetVersion rc=%d v=%d\n", (int)rc, v);
  /* CURAND_VERSION is 1000 * major + 100 * minor + patch. */
  if (rc == CURAND_STATUS_SUCCESS) printf("version curand %d.%d.%d\n", v / 1000, v % 1000 / 100, v % 100);
  curandGenerator_t g = NULL;
  rc = curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  printf("curandCreateGenerator rc=%d\n", (int)rc);
  if (rc == CURAND_STATUS_SUCCESS) curandDestroyGenerator(g);
}
