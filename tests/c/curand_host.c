/* cuRAND's host API, compiled against NVIDIA's curand.h of one major and linked either to
 * libstubs_curand.so or, for comparison, to NVIDIA's libcurand.so.10 itself (tests/curand.rs).
 * Prints one line per call: the library's version, a host generator's first numbers (cuRAND's
 * host generators run on the CPU: no GPU needed), a device generator's status (the real
 * library's own "no CUDA" error without a GPU). With -DWITH_STATUS (the stub build), also
 * what the stubs say (cuda_stubs.h) and which libcudart files the process has mapped. */
#include <curand.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  int version = 0;
  int rc = (int)curandGetVersion(&version);
  printf("curandGetVersion rc=%d version=%d\n", rc, version);

  int major = -1;
  rc = (int)curandGetProperty(MAJOR_VERSION, &major);
  printf("curandGetProperty(MAJOR_VERSION) rc=%d value=%d\n", rc, major);

  curandGenerator_t host = NULL;
  rc = (int)curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_DEFAULT);
  printf("curandCreateGeneratorHost rc=%d\n", rc);
  if (rc == 0) {
    printf("curandSetPseudoRandomGeneratorSeed rc=%d\n",
           (int)curandSetPseudoRandomGeneratorSeed(host, 1234ULL));
    unsigned int values[4] = {0, 0, 0, 0};
    rc = (int)curandGenerate(host, values, 4);
    printf("curandGenerate rc=%d values=%u,%u,%u,%u\n", rc, values[0], values[1], values[2],
           values[3]);
    float uniform[2] = {0.0f, 0.0f};
    rc = (int)curandGenerateUniform(host, uniform, 2);
    printf("curandGenerateUniform rc=%d values=%.6f,%.6f\n", rc, uniform[0], uniform[1]);
    printf("curandDestroyGenerator rc=%d\n", (int)curandDestroyGenerator(host));
  }

  curandGenerator_t device = NULL;
  rc = (int)curandCreateGenerator(&device, CURAND_RNG_PSEUDO_DEFAULT);
  printf("curandCreateGenerator rc=%d\n", rc);
  if (rc == 0) curandDestroyGenerator(device);

#ifdef WITH_STATUS
  /* Which runtimes the process has mapped: one CUDA release per process. */
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  while (maps && fgets(line, sizeof line, maps)) {
    char *path = strchr(line, '/');
    if (!path || !strstr(path, "/libcudart.so")) continue;
    path[strcspn(path, "\n")] = 0;
    if (strcmp(path, last) != 0) printf("mapped %s\n", path);
    strncpy(last, path, sizeof last - 1);
  }
  if (maps) fclose(maps);
  cuda_stubs_status s;
  if (cuda_stubs_curand_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
