/* Mock libnvidia-ml.so.1 (NVML, which ships with the driver), built by build.rs with the real
 * soname. No machine in CI has a driver: this stands in for one.
 *
 *   MOCK_CUDA_MAJOR  the CUDA major the "driver" serves: nvmlSystemGetNVMLVersion answers
 *                    "<major>.580.0" (the real form, `13.580.159.04`), before nvmlInit too
 *
 * Everything else needs nvmlInit first (NVML_ERROR_UNINITIALIZED, 1, as the real library).
 * Two devices; the legacy nvmlInit (v1) answers 4242 so that a test sees which one was called.
 * nvmlDeviceGetAddressingMode (first declared by nvml.h 13.x) is exported for a 13 driver
 * only. */
#include <stdio.h>
#include <string.h>

#ifndef MOCK_CUDA_MAJOR
#error MOCK_CUDA_MAJOR must be defined
#endif

#define EXPORT __attribute__((visibility("default")))

static int initialized;

EXPORT int nvmlSystemGetNVMLVersion(char *version, unsigned length) {
  return snprintf(version, length, "%d.580.0", MOCK_CUDA_MAJOR) < (int)length ? 0 : 7;
}

EXPORT int nvmlInit_v2(void) {
  initialized++;
  return 0;
}

EXPORT int nvmlInit(void) { return 4242; }

EXPORT int nvmlShutdown(void) {
  if (!initialized) return 1;
  initialized--;
  return 0;
}

EXPORT int nvmlSystemGetCudaDriverVersion_v2(int *version) {
  if (!initialized) return 1;
  *version = MOCK_CUDA_MAJOR * 1000;
  return 0;
}

EXPORT int nvmlDeviceGetCount_v2(unsigned *count) {
  if (!initialized) return 1;
  *count = 2;
  return 0;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned index, void **device) {
  if (!initialized) return 1;
  if (index >= 2) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
  *device = (void *)(0x1000 + (unsigned long)index);
  return 0;
}

EXPORT int nvmlDeviceGetName(void *device, char *name, unsigned length) {
  if (!initialized) return 1;
  return snprintf(name, length, "Mock GPU %lu", (unsigned long)device - 0x1000) < (int)length
             ? 0
             : 7;
}

#if MOCK_CUDA_MAJOR >= 13
EXPORT int nvmlDeviceGetAddressingMode(void *device, unsigned *mode) {
  (void)device;
  if (!initialized) return 1;
  mode[1] = 2; /* nvmlDeviceAddressingMode_t: version, then value */
  return 0;
}
#endif
