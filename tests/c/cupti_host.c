/* CUPTI without a GPU, compiled against NVIDIA's cupti.h of one major and linked either to
 * libstubs_cupti.so or, for comparison, to NVIDIA's libcupti itself (tests/cupti.rs). Prints
 * one line per call: the header's and the library's API version, the text of every status code
 * the oldest header defines (cuptiGetResultString, and 12.x's cuptiGetErrorMessage), and what
 * the calls needing a driver answer without one (activity, callbacks, timestamps, the profiler
 * with its self-sized parameter structures set to this header's *_STRUCT_SIZE). With 13.x's
 * header, also functions CUPTI 11.8 or 12.9 lack, and the 13.x sizes of structures that grew:
 * what an older CUPTI does with a newer program. The program's callbacks are registered as
 * they are; nothing calls them without a GPU (tests/gpu/cupti.sh runs them). With
 * -DWITH_STATUS (the stub build), also what the stubs say (cuda_stubs.h).
 *
 * With the argument `no-driver-init`, the calls that make CUPTI 11.8 and 12.9 set up their
 * connection to the driver are left out (activity, subscriber, flush, profiler initialization,
 * and the profiler's device query but with 13.x's structure size, which the older CUPTIs refuse
 * first): under qemu-user, NVIDIA's aarch64 CUPTI spins in that setup forever. */
#include <cupti.h>
#include <cupti_profiler_target.h>
#if CUPTI_API_VERSION >= 130000
#include <cupti_range_profiler.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

/* The largest status code 11.8's cupti_result.h defines (CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED):
 * every code up to it is known to all three majors. */
#define LAST_COMMON_CODE 42

static int requested, completed, callbacks;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  requested++;
  *size = 1 << 16;
  *buffer = malloc(*size);
  *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid) {
  (void)ctx, (void)stream, (void)size, (void)valid;
  completed++;
  free(buffer);
}

static void CUPTIAPI callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const void *data) {
  (void)userdata, (void)domain, (void)cbid, (void)data;
  callbacks++;
}

/* The text a text function wrote, or that it wrote none (the pointer left as it was). */
static const char *written(const char *text, const char *unset) {
  return text == unset ? "(unset)" : text ? text : "(null)";
}

int main(int argc, char **argv) {
  static const char unset[] = "";
  int driver_init = !(argc > 1 && strcmp(argv[1], "no-driver-init") == 0);
  printf("cupti header CUPTI_API_VERSION=%d\n", (int)CUPTI_API_VERSION);
  uint32_t version = 0;
  int rc = (int)cuptiGetVersion(&version);
  printf("cuptiGetVersion rc=%d version=%u\n", rc, version);

  for (int code = 0; code <= LAST_COMMON_CODE + 1; code++) {
    CUptiResult result = code > LAST_COMMON_CODE ? CUPTI_ERROR_UNKNOWN : (CUptiResult)code;
    const char *text = unset;
    rc = (int)cuptiGetResultString(result, &text);
    printf("text cuptiGetResultString(%d) rc=%d %s\n", (int)result, rc, written(text, unset));
#if CUPTI_API_VERSION >= 19 /* 12.x */
    text = unset;
    rc = (int)cuptiGetErrorMessage(result, &text);
    printf("text cuptiGetErrorMessage(%d) rc=%d %s\n", (int)result, rc, written(text, unset));
#endif
  }
  printf("cuptiGetResultString(NULL) rc=%d\n", (int)cuptiGetResultString(CUPTI_SUCCESS, NULL));

  printf("cuptiActivityRegisterCallbacks rc=%d\n",
         (int)cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  uint64_t timestamp = 0;
  rc = (int)cuptiGetTimestamp(&timestamp);
  printf("cuptiGetTimestamp rc=%d nonzero=%d\n", rc, timestamp != 0);
  if (driver_init) {
    printf("cuptiActivityEnable(CONCURRENT_KERNEL) rc=%d\n",
           (int)cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    static int userdata;
    CUpti_SubscriberHandle subscriber = NULL;
    printf("cuptiSubscribe rc=%d\n", (int)cuptiSubscribe(&subscriber, callback, &userdata));
    printf("cuptiActivityFlushAll rc=%d\n", (int)cuptiActivityFlushAll(0));
    CUpti_Profiler_Initialize_Params init;
    memset(&init, 0, sizeof init);
    init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    printf("cuptiProfilerInitialize rc=%d\n", (int)cuptiProfilerInitialize(&init));
  }
#if CUPTI_API_VERSION >= 19 /* 12.x; 11.8 faults on its own size without a driver */
  if (driver_init || CUPTI_API_VERSION >= 130000) {
    CUpti_Profiler_DeviceSupported_Params supported;
    memset(&supported, 0, sizeof supported);
    supported.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    rc = (int)cuptiProfilerDeviceSupported(&supported);
    printf("cuptiProfilerDeviceSupported (structSize %zu) rc=%d\n", supported.structSize, rc);
  }
#endif
#if CUPTI_API_VERSION >= 130000
  /* 13.x only: cuptiActivityEnable_v2; the range profiler (12.6) with 13.x's larger
   * CUpti_RangeProfiler_Enable_Params (12.9 faults on its own size without a driver). */
  rc = (int)cuptiActivityEnable_v2(NULL, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, NULL);
  printf("cuptiActivityEnable_v2 (header 13) rc=%d\n", rc);
  CUpti_RangeProfiler_Enable_Params enable;
  memset(&enable, 0, sizeof enable);
  enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  rc = (int)cuptiRangeProfilerEnable(&enable);
  printf("cuptiRangeProfilerEnable (header 13, structSize %zu) rc=%d\n", enable.structSize, rc);
#endif
  printf("cupti callbacks requested=%d completed=%d called=%d\n", requested, completed,
         callbacks);

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cupti_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
