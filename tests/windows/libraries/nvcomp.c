/* nvCOMP on Windows (tests/windows/win_math.c runs it as the command `nvcomp`): its own version
 * and the runtime it was built with (nvcompGetProperties), LZ4's host-side output bound and
 * alignments, which need no device. No device call: without a GPU, NVIDIA's 13.x nvcomp64_6.dll
 * faults on a compression's host pointers (Linux's answers nvcompErrorCudaError). NVIDIA's
 * 5.0.0.6 header (CUDA 11) includes nvcomp_export.h and nvcomp/version.h, which its wheel lacks:
 * codegen's shims. */
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
  nvcompAlignmentRequirements_t align = {0, 0, 0};
  rc = nvcompBatchedLZ4CompressGetRequiredAlignments(nvcompBatchedLZ4CompressDefaultOpts, &align);
  printf("nvcompBatchedLZ4CompressGetRequiredAlignments rc=%d input=%zu output=%zu temp=%zu\n",
         (int)rc, align.input, align.output, align.temp);
}
