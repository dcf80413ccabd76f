/* NVML through whatever libnvidia-ml the program is linked to (tests/nvml.rs: the stub, on a mock
 * driver or none; tests/gpu: the stub and the real library on a GPU machine). Compiled against
 * NVIDIA's nvml.h of one major: nvmlInit and nvmlDeviceGetCount are its macros for the _v2
 * names. Prints one line per call (an error string's NULL as "(null)"). With -DWITH_STATUS, also the stub's status (cuda_stubs.h);
 * with -DLEGACY_INIT, also the legacy unversioned nvmlInit (NVML_NO_UNVERSIONED_FUNC_DEFS). */
#include <nvml.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

#ifdef LEGACY_INIT
/* The unversioned v1 entry point, which the header's macro hides: bound by its symbol name. */
extern nvmlReturn_t legacy_nvml_init(void) __asm__("nvmlInit");
#endif

int main(void) {
  char text[96] = "";
  int rc = (int)nvmlSystemGetNVMLVersion(text, sizeof text);
  printf("nvmlSystemGetNVMLVersion rc=%d version=%s\n", rc, text);
  printf("nvmlDeviceGetCount(before init) rc=%d\n", (int)nvmlDeviceGetCount(&(unsigned){0}));
  rc = (int)nvmlInit();
  printf("nvmlInit rc=%d\n", rc);
  int cuda = 0;
  rc = (int)nvmlSystemGetCudaDriverVersion_v2(&cuda);
  printf("nvmlSystemGetCudaDriverVersion_v2 rc=%d version=%d\n", rc, cuda);
  unsigned count = 0;
  rc = (int)nvmlDeviceGetCount(&count);
  printf("nvmlDeviceGetCount rc=%d count=%u\n", rc, count);
  for (unsigned i = 0; rc == 0 && i < count; i++) {
    nvmlDevice_t device;
    int h = (int)nvmlDeviceGetHandleByIndex(i, &device);
    char name[96] = "";
    int n = h == 0 ? (int)nvmlDeviceGetName(device, name, sizeof name) : -1;
    printf("device %u handle rc=%d name rc=%d name=%s\n", i, h, n, name);
#if NVML_API_VERSION >= 13 /* first declared by 13.x's nvml.h */
    if (i == 0 && h == 0) {
      nvmlDeviceAddressingMode_t mode = {.version = nvmlDeviceAddressingMode_v1};
      printf("nvmlDeviceGetAddressingMode rc=%d\n",
             (int)nvmlDeviceGetAddressingMode(device, &mode));
    }
#endif
  }
#ifdef LEGACY_INIT
  printf("legacy nvmlInit rc=%d\n", (int)legacy_nvml_init());
#endif
  printf("nvmlShutdown rc=%d\n", (int)nvmlShutdown());
  const char *uninit = nvmlErrorString(NVML_ERROR_UNINITIALIZED);
  printf("nvmlErrorString(1)=%s\n", uninit ? uninit : "(null)");
  const char *not_found = nvmlErrorString(NVML_ERROR_LIBRARY_NOT_FOUND);
  printf("nvmlErrorString(12)=%s\n", not_found ? not_found : "(null)");
#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvml_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
  }
#endif
  return 0;
}
