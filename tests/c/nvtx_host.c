/* NVTX 2's API, compiled against NVIDIA's nvToolsExt.h of one major and linked either to
 * libstubs_nvtx.so or, for comparison, to NVIDIA's libnvToolsExt.so.1 itself (tests/nvtx.rs).
 * Prints one line per call: pushes and pops (nesting levels), a range's id, a domain and a
 * registered string (NULL or not), and names of the thread and a CUDA stream (void). Run with
 * NVTX_INJECTION64_PATH naming tests/c/nvtx_tool.c's library, the calls reach that tool, which
 * prints what it was given. With -DWITH_STATUS (the stub build), also what the stub says
 * (cuda_stubs.h). */
/* NVTX 2's headers announce its end (CUDA 12.9) at every include: this program is NVTX 2's. */
#define NVTX_SUPPRESS_V2_DEPRECATION_WARNING
#include <nvToolsExt.h>
#include <nvToolsExtCuda.h>
#include <nvToolsExtSync.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  printf("nvtxRangePushA rc=%d\n", nvtxRangePushA("outer"));
  printf("nvtxRangePushA rc=%d\n", nvtxRangePushA("inner"));
  nvtxMarkA("a marker");
  printf("nvtxRangePop rc=%d\n", nvtxRangePop());
  printf("nvtxRangePop rc=%d\n", nvtxRangePop());

  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "with attributes";
  printf("nvtxRangePushEx rc=%d\n", nvtxRangePushEx(&attributes));
  printf("nvtxRangePop rc=%d\n", nvtxRangePop());

  nvtxRangeId_t id = nvtxRangeStartA("a range");
  printf("nvtxRangeStartA id=%llu\n", (unsigned long long)id);
  nvtxRangeEnd(id);

  nvtxDomainHandle_t domain = nvtxDomainCreateA("cuda-stubs");
  printf("nvtxDomainCreateA %s\n", domain ? "handle" : "null");
  nvtxStringHandle_t string = nvtxDomainRegisterStringA(domain, "registered");
  printf("nvtxDomainRegisterStringA %s\n", string ? "handle" : "null");
  printf("nvtxDomainRangePushEx rc=%d\n", nvtxDomainRangePushEx(domain, &attributes));
  printf("nvtxDomainRangePop rc=%d\n", nvtxDomainRangePop(domain));
  nvtxSyncUserAttributes_t sync = {0};
  sync.version = NVTX_VERSION;
  sync.size = NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE;
  nvtxSyncUser_t user = nvtxDomainSyncUserCreate(domain, &sync);
  printf("nvtxDomainSyncUserCreate %s\n", user ? "handle" : "null");
  nvtxDomainDestroy(domain);

  nvtxNameOsThreadA(1234, "main");
  nvtxNameCuStreamA((CUstream)0, "default stream");
  nvtxNameCategoryA(7, "category");

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvtx_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
