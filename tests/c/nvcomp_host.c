/* nvCOMP's C API, compiled against NVIDIA's nvcomp.h and nvcomp/lz4.h of one major (5.0 for
 * CUDA 11, 6.0 for 12 and 13) and linked either to libstubs_nvcomp.so or, for comparison, to
 * NVIDIA's libnvcomp.so.5 / .6 itself (tests/nvcomp.rs). Prints one line per call: the
 * library's properties (its version and its runtime's), LZ4's host-side sizes and alignments,
 * the temp size (5.x's GetTempSizeAsync, 6.x's GetTempSize with a stream), a compression
 * with no device (nvCOMP's own answer without a GPU), and with a 6.x header the status texts.
 * With -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). */
#include <nvcomp.h>
#include <nvcomp/lz4.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  nvcompProperties_t properties = {0, 0};
  int rc = (int)nvcompGetProperties(&properties);
  printf("nvcompGetProperties rc=%d version=%u cudart_version=%u\n", rc, properties.version,
         properties.cudart_version);

  size_t max_out = 0;
  rc = (int)nvcompBatchedLZ4CompressGetMaxOutputChunkSize(65536, nvcompBatchedLZ4CompressDefaultOpts,
                                                          &max_out);
  printf("nvcompBatchedLZ4CompressGetMaxOutputChunkSize(65536) rc=%d bytes=%zu\n", rc, max_out);
  nvcompAlignmentRequirements_t align = {0, 0, 0};
  rc = (int)nvcompBatchedLZ4CompressGetRequiredAlignments(nvcompBatchedLZ4CompressDefaultOpts,
                                                         &align);
  printf("nvcompBatchedLZ4CompressGetRequiredAlignments rc=%d input=%zu output=%zu temp=%zu\n", rc,
         align.input, align.output, align.temp);
  size_t temp = 0;
#ifndef NVCOMP_VER_MAJOR
  /* 5.x's header (its nvcomp/version.h is missing from NVIDIA's cu11 wheel: codegen's shim,
   * which defines no version). */
  rc = (int)nvcompBatchedLZ4CompressGetTempSizeAsync(4, 65536, nvcompBatchedLZ4CompressDefaultOpts,
                                                     &temp, 4 * 65536);
  printf("nvcompBatchedLZ4CompressGetTempSizeAsync (header 5) rc=%d bytes=%zu\n", rc, temp);
#else
  rc = (int)nvcompBatchedLZ4CompressGetTempSize(4, 65536, nvcompBatchedLZ4CompressDefaultOpts,
                                                &temp, 4 * 65536, (cudaStream_t)0);
  printf("nvcompBatchedLZ4CompressGetTempSize (header %d) rc=%d bytes=%zu\n", NVCOMP_VER_MAJOR, rc,
         temp);
#endif
  /* Host pointers where device ones belong, on a machine without a GPU: nvCOMP's own answer. */
  static char chunk[64];
  const void *in[1] = {chunk};
  size_t in_bytes[1] = {sizeof chunk};
  static char out_chunk[1024];
  void *out[1] = {out_chunk};
  size_t out_bytes[1] = {0};
  static char temp_buf[1024];
  nvcompStatus_t statuses[1];
  rc = (int)nvcompBatchedLZ4CompressAsync(in, in_bytes, sizeof chunk, 1, temp_buf, sizeof temp_buf,
                                          out, out_bytes, nvcompBatchedLZ4CompressDefaultOpts,
                                          statuses, (cudaStream_t)0);
  printf("nvcompBatchedLZ4CompressAsync(no device) rc=%d\n", rc);
#ifdef NVCOMP_VER_MAJOR
  const nvcompStatus_t codes[] = {nvcompSuccess, nvcompErrorNotSupported, nvcompErrorCudaError,
                                  nvcompErrorInternal};
  for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    const char *text = nvcompGetStatusString(codes[i]);
    printf("nvcompGetStatusString(%d)=%s\n", (int)codes[i], text ? text : "(null)");
  }
#endif

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvcomp_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
