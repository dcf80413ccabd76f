/* Perfworks' host library on Windows (tests/windows/win_math.c runs it as the command
 * `nvperf_host`): `nvperf_host.dll`, one name in every major, from CUPTI's wheel. Without a
 * device: the release NVPW_QueryVersionNumber answers for the SDK's API set (12.x, 13.x: printed
 * as the library's version; 11.8's header has no NVPW_SDK_VERSION), an unknown API set (the
 * error path, NVPA_STATUS_INVALID_ARGUMENT), NVPW_InitializeHost and the chips
 * NVPW_GetSupportedChipNames lists, as tests/c/nvperf_host.c does on Linux. */
#include <stdio.h>
#include <string.h>
/* 12.x's and 13.x's nvperf_common.h define NVPW_NVPAStatusToString `inline` without `static`:
 * C11 emits no definition of such a function for a call the compiler does not inline. */
#define inline static inline
#include <nvperf_host.h>
#include <nvperf_target.h>
#undef inline

void cmd_nvperf_host(void) {
  NVPW_QueryVersionNumber_Params p;
#ifdef NVPW_SDK_VERSION
  memset(&p, 0, sizeof p);
  p.structSize = NVPW_QueryVersionNumber_Params_STRUCT_SIZE;
  p.apiSet = NVPW_SDK_VERSION;
  int sdk = (int)NVPW_QueryVersionNumber(&p);
  printf("NVPW_QueryVersionNumber sdk rc=%d\n", sdk);
  if (sdk == 0) printf("version nvperf_host %u.%u.%u\n", p.relMajor, p.relMinor, p.relPatch);
#endif
  memset(&p, 0, sizeof p);
  p.structSize = NVPW_QueryVersionNumber_Params_STRUCT_SIZE;
  printf("NVPW_QueryVersionNumber unknown-api-set rc=%d\n", (int)NVPW_QueryVersionNumber(&p));
  NVPW_InitializeHost_Params host;
  memset(&host, 0, sizeof host);
  host.structSize = NVPW_InitializeHost_Params_STRUCT_SIZE;
  printf("NVPW_InitializeHost rc=%d\n", (int)NVPW_InitializeHost(&host));
  NVPW_GetSupportedChipNames_Params chips;
  memset(&chips, 0, sizeof chips);
  chips.structSize = NVPW_GetSupportedChipNames_Params_STRUCT_SIZE;
  int rc = (int)NVPW_GetSupportedChipNames(&chips);
  int has_ga100 = 0;
  for (size_t i = 0; rc == 0 && i < chips.numChipNames; i++)
    has_ga100 |= strcmp(chips.ppChipNames[i], "GA100") == 0;
  printf("NVPW_GetSupportedChipNames rc=%d chips=%u GA100=%d\n", rc, (unsigned)chips.numChipNames,
         has_ga100);
}
