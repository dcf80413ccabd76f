/* nvTIFF, compiled against NVIDIA's nvtiff.h of one major and linked either to
 * libstubs_nvtiff.so or, for comparison, to NVIDIA's libnvtiff.so.0 itself (tests/nvtiff.rs).
 * Prints one line per call: nvTIFF's own version, a tiny TIFF written by the program (2x3,
 * 8-bit grayscale, uncompressed) opened and read on the host (header, image info, a tag), decode
 * parameters, decoder creation (nvTIFF's own answer without a GPU) and a stream-less call.
 * With -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). */
/* nvTIFF 0.8's header is C++ where it names an enum by its tag alone: declared first, as
 * codegen does (codegen/shim-include/c-prelude/nvtiff.h). */
#include "c-prelude/nvtiff.h"
#include <nvtiff.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

/* One IFD entry: tag, type (3 SHORT, 4 LONG), count 1, value. */
static size_t entry(uint8_t *p, uint16_t tag, uint16_t type, uint32_t value) {
  p[0] = tag & 0xff, p[1] = tag >> 8, p[2] = type & 0xff, p[3] = type >> 8;
  p[4] = 1, p[5] = 0, p[6] = 0, p[7] = 0;
  for (int i = 0; i < 4; i++) p[8 + i] = (uint8_t)(value >> (8 * i));
  return 12;
}

/* A little-endian baseline TIFF of `w` x `h` 8-bit gray pixels: header, the pixels, one IFD. */
static size_t tiny_tiff(uint8_t *out, uint16_t w, uint16_t h) {
  size_t pixels = (size_t)w * h, ifd = 8 + pixels + (pixels & 1);
  memcpy(out, "II*\0", 4);
  for (int i = 0; i < 4; i++) out[4 + i] = (uint8_t)(ifd >> (8 * i));
  for (size_t i = 0; i < pixels; i++) out[8 + i] = (uint8_t)(i * 40);
  uint8_t *p = out + ifd;
  p[0] = 9, p[1] = 0;
  p += 2;
  p += entry(p, 256, 3, w);      /* ImageWidth */
  p += entry(p, 257, 3, h);      /* ImageLength */
  p += entry(p, 258, 3, 8);      /* BitsPerSample */
  p += entry(p, 259, 3, 1);      /* Compression: none */
  p += entry(p, 262, 3, 1);      /* PhotometricInterpretation: black is zero */
  p += entry(p, 273, 4, 8);      /* StripOffsets */
  p += entry(p, 277, 3, 1);      /* SamplesPerPixel */
  p += entry(p, 278, 3, h);      /* RowsPerStrip */
  p += entry(p, 279, 4, (uint32_t)pixels); /* StripByteCounts */
  memset(p, 0, 4);                /* no next IFD */
  return (size_t)(p + 4 - out);
}

int main(void) {
  const char *names[] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int i = 0; i < 3; i++) {
    int value = -1;
    int rc = (int)nvtiffGetProperty((libraryPropertyType)i, &value);
    printf("nvtiffGetProperty(%s) rc=%d value=%d\n", names[i], rc, value);
  }

  static uint8_t tiff[256];
  size_t size = tiny_tiff(tiff, 2, 3);
  nvtiffStream_t stream = NULL;
  int rc = (int)nvtiffStreamOpen(tiff, size, &stream);
  printf("nvtiffStreamOpen rc=%d\n", rc);
  if (rc == 0) {
    nvtiffStreamHeader_t header;
    memset(&header, 0, sizeof header);
    rc = (int)nvtiffStreamGetHeader(stream, &header);
    printf("nvtiffStreamGetHeader rc=%d variant=%d first_ifd=%zu\n", rc, (int)header.variant,
           header.first_ifd_offset);
    nvtiffImageInfo_t info;
    memset(&info, 0, sizeof info);
    rc = (int)nvtiffStreamGetImageInfo(stream, 0, &info);
    printf("nvtiffStreamGetImageInfo rc=%d %ux%u samples=%u bits=%u compression=%d\n", rc,
           info.image_width, info.image_height, (unsigned)info.samples_per_pixel,
           (unsigned)info.bits_per_pixel, (int)info.compression);
    int has = -1;
    rc = (int)nvtiffStreamHasTag(stream, 0, 278, &has);
    printf("nvtiffStreamHasTag(RowsPerStrip) rc=%d has=%d\n", rc, has);
    printf("nvtiffStreamClose rc=%d\n", (int)nvtiffStreamClose(stream));
  }
  stream = NULL;
  static const uint8_t not_tiff[] = "not a TIFF";
  printf("nvtiffStreamOpen(not a TIFF) rc=%d\n",
         (int)nvtiffStreamOpen(not_tiff, sizeof not_tiff, &stream));

  nvtiffDecodeParams_t params = NULL;
  rc = (int)nvtiffDecodeParamsCreate(&params);
  printf("nvtiffDecodeParamsCreate rc=%d\n", rc);
  if (rc == 0) printf("nvtiffDecodeParamsDestroy rc=%d\n", (int)nvtiffDecodeParamsDestroy(params));

  /* A decoder needs a device: nvTIFF's own answer without one. */
  nvtiffDecoder_t decoder = NULL;
  rc = (int)nvtiffDecoderCreateSimple(&decoder, NULL);
  printf("nvtiffDecoderCreateSimple rc=%d\n", rc);
  if (rc == 0) nvtiffDecoderDestroy(decoder, NULL);
  nvtiffStreamHeader_t none;
  printf("nvtiffStreamGetHeader(no stream) rc=%d\n", (int)nvtiffStreamGetHeader(NULL, &none));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvtiff_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
