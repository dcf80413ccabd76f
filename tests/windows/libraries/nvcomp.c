/* nvCOMP on Windows (tests/windows/win_math.c runs it as the command `nvcomp`): its own version
 * and the runtime it was built with (nvcompGetProperties), LZ4's host-side output bound, which
 * needs no device, and a compression, which does. NVIDIA's 5.0.0.6 header (CUDA 11) includes
 * nvcomp_export.h and nvcomp/version.h, which its wheel lacks: codegen's shims. */
#include <stdio.h>

#include <nvcomp.h>
#include <nvcomp/lz4.h>

void cmd_nvcomp(void) {
  nvcompProperties_t p = {0, 0};
  nvcompStatus_t rc = nvcompGetProperties(&p);
  printf("nvcompGetProperties rc=%d cudart=%u\n", (int)rc, p.cudart_version);
  /* Its own version, 1000 * major + 100 * minor + patch (6000 for 6.0.0). */
  if (rc == nvcompSuccess)
    printf("version nvcomp %u.%u.%u\n", p.version / 1000, p.version % 1000 / 100, p.version % 100);
  size_t bytes = 0;
  rc = nvcompBatchedLZ4CompressGetMaxOutputChunkSize(65536, nvcompBatchedLZ4CompressDefaultOpts, &bytes);
  printf("nvcompBatchedLZ4CompressGetMaxOutputChunkSize rc=%d bytes=%zu\n", (int)rc, bytes);
  static char chunk[64], out_chunk[1024], temp[1024];
  const void *in[1] = {chunk};
  size_t in_bytes[1] = {sizeof chunk}, out_bytes[1] = {0};
  void *out[1] = {out_chunk};
  nvcompStatus_t statuses[1];
  rc = nvcompBatchedLZ4CompressAsync(in, in_bytes, sizeof chunk, 1, temp, sizeof temp, out, out_bytes,
                                     nvcompBatchedLZ4CompressDefaultOpts, statuses, (cudaStream_t)0);
  printf("nvcompBatchedLZ4CompressAsync(no device) rc=%d\n", (int)rc);
}
