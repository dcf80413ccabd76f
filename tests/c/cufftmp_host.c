/* cuFFTMp's host API, compiled against NVIDIA's cufftMp.h of one major (with the wheel's own
 * cufft.h / cufftXt.h, which it includes) and linked either to libstubs_cufftmp.so or, for
 * comparison, to NVIDIA's libcufftMp itself (tests/cufftmp.rs). Prints one line per call: the
 * library's version and properties, then what a plan, cufftMpAttachComm and a reshape answer
 * without a GPU (the library's own errors). cufftMpMakeReshape is cufftMp.h's static inline
 * wrapper of __cufftMpMakeReshape_11_4. cufftMp.h is C++ where it uses `nullptr` (its inline
 * helpers, which C cannot call: they emit no definition), defined here as the codegen prelude
 * does. With -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h) and whether
 * NVSHMEM's host library is mapped (the real library's DT_NEEDED, found by its RPATH). */
#define _GNU_SOURCE
#include <stddef.h>
#define nullptr ((void *)0)
#include <cufftMp.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#include <link.h>
#include <string.h>

static int nvshmem_mapped;

static int find_nvshmem(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  if (info->dlpi_name && strstr(info->dlpi_name, "libnvshmem_host.so.3"))
    nvshmem_mapped = 1;
  return 0;
}
#endif

int main(void) {
  int version = 0;
  int rc = (int)cufftGetVersion(&version);
  printf("cufftGetVersion rc=%d version=%d\n", rc, version);
  int major = -1, minor = -1, patch = -1;
  rc = (int)cufftGetProperty(MAJOR_VERSION, &major);
  printf("cufftGetProperty(MAJOR_VERSION) rc=%d value=%d\n", rc, major);
  rc = (int)cufftGetProperty(MINOR_VERSION, &minor);
  printf("cufftGetProperty(MINOR_VERSION) rc=%d value=%d\n", rc, minor);
  rc = (int)cufftGetProperty(PATCH_LEVEL, &patch);
  printf("cufftGetProperty(PATCH_LEVEL) rc=%d value=%d\n", rc, patch);

  cufftHandle plan = 0;
  rc = (int)cufftCreate(&plan);
  printf("cufftCreate rc=%d\n", rc);
  rc = (int)cufftMpAttachComm(plan, CUFFT_COMM_NONE, NULL);
  printf("cufftMpAttachComm rc=%d\n", rc);
  size_t work = 0;
  rc = (int)cufftMakePlan3d(plan, 8, 8, 8, CUFFT_C2C, &work);
  printf("cufftMakePlan3d rc=%d\n", rc);

  cufftReshapeHandle reshape = NULL;
  rc = (int)cufftMpCreateReshape(&reshape);
  printf("cufftMpCreateReshape rc=%d\n", rc);
  long long lower[3] = {0, 0, 0}, upper[3] = {4, 4, 4}, strides[3] = {16, 4, 1};
  rc = (int)cufftMpMakeReshape(reshape, 8, 3, lower, upper, strides, lower, upper, strides, NULL,
                               CUFFT_COMM_NONE);
  printf("cufftMpMakeReshape rc=%d\n", rc);
  size_t reshape_work = 7;
  rc = (int)cufftMpGetReshapeSize(reshape, &reshape_work);
  printf("cufftMpGetReshapeSize rc=%d size=%zu\n", rc, reshape_work);
  rc = (int)cufftMpDestroyReshape(reshape);
  printf("cufftMpDestroyReshape rc=%d\n", rc);

#ifdef WITH_STATUS
  dl_iterate_phdr(find_nvshmem, NULL);
  printf("mapped nvshmem=%d\n", nvshmem_mapped);
  cuda_stubs_status s;
  if (cuda_stubs_cufftmp_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
