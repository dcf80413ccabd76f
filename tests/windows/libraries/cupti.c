/* CUPTI on Windows (tests/windows/win_math.c runs it as the command `cupti`): its API version
 * (`cuptiGetVersion`: 18 in 11.8, 28 in 12.9, 130401 in 13.4 where it reaches a driver), a
 * status text, and what the calls that need the driver answer without one (activity buffers,
 * a subscriber, a timestamp). */
#include <stdio.h>
#include <stdlib.h>

/* cupti_common.h packs its activity records with MSVC's `__pragma(pack(...))` and
 * `__declspec(align(8))` under _WIN32: MinGW's GCC spells them `_Pragma` and `aligned`. */
#define __pragma(x) _Pragma(#x)
#define align(n) aligned(n)
#include <cupti.h>
#undef align

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *size = 1 << 16;
  *buffer = malloc(*size);
  *max_records = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                              size_t valid) {
  (void)ctx, (void)stream, (void)size, (void)valid;
  free(buffer);
}

static void CUPTIAPI callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const void *data) {
  (void)userdata, (void)domain, (void)cbid, (void)data;
}

void cmd_cupti(void) {
  uint32_t version = 0;
  CUptiResult rc = cuptiGetVersion(&version);
  printf("cuptiGetVersion rc=%d\n", (int)rc);
  if (rc == CUPTI_SUCCESS) printf("version cupti %u\n", version);
  if (rc == CUPTI_SUCCESS) {
    /* A status text where CUPTI answers at all: without a driver 13.x answers every call
     * CUPTI_ERROR_UNKNOWN and writes no text, where the stub writes the header's (an error text
     * never fails; tests/cupti.rs checks that on Linux). */
    const char *text = NULL;
    rc = cuptiGetResultString(CUPTI_ERROR_NOT_INITIALIZED, &text);
    printf("text cuptiGetResultString rc=%d %s\n", (int)rc, text ? text : "(null)");
  }
  printf("cuptiActivityRegisterCallbacks rc=%d\n",
         (int)cuptiActivityRegisterCallbacks(requested, completed));
  printf("cuptiActivityEnable rc=%d\n", (int)cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL));
  CUpti_SubscriberHandle subscriber = NULL;
  rc = cuptiSubscribe(&subscriber, callback, NULL);
  printf("cuptiSubscribe rc=%d\n", (int)rc);
  if (rc == CUPTI_SUCCESS) cuptiUnsubscribe(subscriber);
  uint64_t timestamp = 0;
  printf("cuptiGetTimestamp rc=%d\n", (int)cuptiGetTimestamp(&timestamp));
}
