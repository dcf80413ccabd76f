/* NCCL without a GPU, compiled against NVIDIA's nccl.h of one major and linked either to
 * libstubs_nccl.so or, for comparison, to NVIDIA's libnccl.so.2 itself (tests/nccl.rs). Prints
 * one line per call: the version (both names: ncclGetVersion and its profiling alias
 * pncclGetVersion), every error string, a unique id (NCCL makes one without a GPU), and what
 * the calls needing CUDA answer without a driver (communicator creation, memory), with the
 * last error's text after each. With a header of NCCL 2.32 or later, also ncclCommSuspend and
 * ncclCommInitRankConfig with that header's (larger) ncclConfig_t: what an older NCCL does with
 * a newer program. With -DWITH_STATUS (the stub build), also what the stubs say
 * (cuda_stubs.h). */
#include <nccl.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

int main(void) {
  int version = 0;
  int rc = (int)ncclGetVersion(&version);
  printf("ncclGetVersion rc=%d version=%d\n", rc, version);
  version = 0;
  rc = (int)pncclGetVersion(&version);
  printf("ncclGetVersion (pnccl) rc=%d version=%d\n", rc, version);

  for (int code = 0; code <= 9; code++)
    printf("ncclGetErrorString(%d) = %s\n", code, text(ncclGetErrorString((ncclResult_t)code)));
  printf("ncclGetErrorString (pnccl, 5) = %s\n", text(pncclGetErrorString(ncclInvalidUsage)));
  printf("ncclGetLastError before(NULL) = [%s]\n", text(ncclGetLastError(NULL)));

  ncclUniqueId id;
  memset(&id, 0, sizeof id);
  rc = (int)ncclGetUniqueId(&id);
  printf("ncclGetUniqueId rc=%d\n", rc);

  ncclComm_t comm = NULL;
  rc = (int)ncclCommInitRank(&comm, 1, id, 0);
  printf("ncclCommInitRank rc=%d\n", rc);
  printf("ncclGetLastError(NULL) = [%s]\n", text(ncclGetLastError(NULL)));
  printf("ncclGetLastError (pnccl) = [%s]\n", text(pncclGetLastError(NULL)));

  int device = 0;
  rc = (int)ncclCommInitAll(&comm, 1, &device);
  printf("ncclCommInitAll rc=%d\n", rc);

  void *memory = NULL;
  rc = (int)ncclMemAlloc(&memory, 1024);
  printf("ncclMemAlloc rc=%d\n", rc);
  printf("ncclGroupStart rc=%d\n", (int)ncclGroupStart());
  printf("ncclGroupEnd rc=%d\n", (int)ncclGroupEnd());

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 32, 0)
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  rc = (int)ncclCommInitRankConfig(&comm, 1, id, 0, &config);
  printf("ncclCommInitRankConfig (header %d) rc=%d\n", NCCL_VERSION_CODE, rc);
  /* Not in 2.21.5; 2.32.3 checks the communicator (ncclCommShrink with a NULL one crashes
   * NVIDIA's CUDA 12 build of 2.32.3). */
  rc = (int)ncclCommSuspend(NULL, 0);
  printf("ncclCommSuspend (header %d) rc=%d\n", NCCL_VERSION_CODE, rc);
#endif

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nccl_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
