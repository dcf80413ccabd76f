/* NVML on Windows (tests/windows/win_math.c runs it as the command `nvml`), against the
 * stand-in nvml.dll (tests/mocks/nvml.c: the real one ships with the driver): its version
 * string, which answers before nvmlInit, then the calls after it. */
#include <stdio.h>

#include <nvml.h>

void cmd_nvml(void) {
  char version[96] = "";
  nvmlReturn_t rc = nvmlSystemGetNVMLVersion(version, sizeof version);
  printf("nvmlSystemGetNVMLVersion rc=%d\n", (int)rc);
  if (rc == NVML_SUCCESS) printf("version nvml %s\n", version);
  printf("nvmlInit_v2 rc=%d\n", (int)nvmlInit_v2());
  unsigned count = 0;
  rc = nvmlDeviceGetCount_v2(&count);
  printf("nvmlDeviceGetCount_v2 rc=%d n=%u\n", (int)rc, count);
  int cuda = -1;
  rc = nvmlSystemGetCudaDriverVersion_v2(&cuda);
  printf("nvmlSystemGetCudaDriverVersion_v2 rc=%d v=%d\n", (int)rc, cuda);
  printf("nvmlShutdown rc=%d\n", (int)nvmlShutdown());
}
