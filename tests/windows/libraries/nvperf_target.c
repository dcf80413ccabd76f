/* Perfworks' target library on Windows (tests/windows/win_math.c runs it as the command
 * `nvperf_target`): `nvperf_target.dll`, from CUPTI's wheel. Without a device,
 * NVPW_InitializeTarget and NVPW_GetDeviceCount (0 devices). nvperf_host.dll exports these too:
 * the target's import library comes first (the specs' order), so they are the target DLL's in
 * the build linked to NVIDIA's DLLs as in the stubs', and the host's probe's
 * NVPW_QueryVersionNumber too. */
#include <stdio.h>
#include <string.h>
#define inline static inline
#include <nvperf_target.h>
#undef inline

void cmd_nvperf_target(void) {
  NVPW_InitializeTarget_Params target;
  memset(&target, 0, sizeof target);
  target.structSize = NVPW_InitializeTarget_Params_STRUCT_SIZE;
  printf("NVPW_InitializeTarget rc=%d\n", (int)NVPW_InitializeTarget(&target));
  NVPW_GetDeviceCount_Params count;
  memset(&count, 0, sizeof count);
  count.structSize = NVPW_GetDeviceCount_Params_STRUCT_SIZE;
  count.numDevices = 99;
  int rc = (int)NVPW_GetDeviceCount(&count);
  printf("NVPW_GetDeviceCount rc=%d devices=%u\n", rc, (unsigned)count.numDevices);
}
