/* A tiny baseline JPEG writer for the nvJPEG tests (tests/c/nvjpeg_host.c, and the GPU proof
 * tests/gpu/nvjpeg_decode.c): a W x H image (multiples of 8) of flat 8x8 blocks, three
 * components (Y, Cb, Cr, 4:4:4, one block each per MCU), every block carrying its DC coefficient
 * only. Quantization 1 everywhere; the DC table is the JPEG standard's luminance table (ITU T.81
 * Annex K.3, table K.3), the AC table has one code, end-of-block. Written here rather than taken
 * from a library: the test machine has no image library, and a program of its own says exactly
 * which pixels a decoder must give back (each block flat: level 128 + DC / 8). */
#ifndef TINY_JPEG_H
#define TINY_JPEG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The three levels (Y, Cb, Cr, 0..255) of block (bx, by): a gradient in Y, two in chroma. */
static inline void tiny_jpeg_block(int bx, int by, int levels[3]) {
  levels[0] = 16 + (bx * 37 + by * 23) % 220;
  levels[1] = 64 + (bx * 29) % 128;
  levels[2] = 64 + (by * 41) % 128;
}

typedef struct {
  uint8_t *out;
  size_t len, cap;
  uint32_t bits; /* pending bits, high first */
  int nbits;
} tiny_jpeg_writer;

static inline void tiny_jpeg_byte(tiny_jpeg_writer *w, int b) {
  if (w->len < w->cap) w->out[w->len] = (uint8_t)b;
  w->len++;
}

static inline void tiny_jpeg_put(tiny_jpeg_writer *w, uint32_t code, int n) {
  for (int i = n - 1; i >= 0; i--) {
    w->bits = (w->bits << 1) | ((code >> i) & 1);
    if (++w->nbits == 8) {
      tiny_jpeg_byte(w, (int)(w->bits & 0xff));
      if ((w->bits & 0xff) == 0xff) tiny_jpeg_byte(w, 0); /* byte stuffing */
      w->bits = 0;
      w->nbits = 0;
    }
  }
}

/* Writes the JPEG into out (cap bytes); returns its length (more than cap: too small). */
static inline size_t tiny_jpeg(uint8_t *out, size_t cap, int width, int height) {
  /* Table K.3: code counts per length 1..16 and the categories 0..11. */
  static const uint8_t dc_bits[16] = {0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  uint32_t dc_code[12];
  int dc_len[12];
  uint32_t code = 0;
  for (int len = 1, k = 0; len <= 16; len++, code <<= 1)
    for (int i = 0; i < dc_bits[len - 1]; i++, code++, k++) {
      dc_code[k] = code;
      dc_len[k] = len;
    }
  tiny_jpeg_writer w = {out, 0, cap, 0, 0};
  static const uint8_t head[] = {0xff, 0xd8, /* SOI */
                                 0xff, 0xdb, 0, 67, 0}; /* DQT: table 0, 8-bit, then 64 ones */
  for (size_t i = 0; i < sizeof head; i++) tiny_jpeg_byte(&w, head[i]);
  for (int i = 0; i < 64; i++) tiny_jpeg_byte(&w, 1);
  const uint8_t sof[] = {0xff, 0xc0, 0, 17, 8, (uint8_t)(height >> 8), (uint8_t)height,
                         (uint8_t)(width >> 8), (uint8_t)width, 3,
                         1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0};
  for (size_t i = 0; i < sizeof sof; i++) tiny_jpeg_byte(&w, sof[i]);
  /* DHT: DC table 0 (K.3), AC table 0 with one code of length 1, EOB (0x00). */
  tiny_jpeg_byte(&w, 0xff);
  tiny_jpeg_byte(&w, 0xc4);
  tiny_jpeg_byte(&w, 0);
  tiny_jpeg_byte(&w, 2 + 17 + 12 + 17 + 1);
  tiny_jpeg_byte(&w, 0x00);
  for (int i = 0; i < 16; i++) tiny_jpeg_byte(&w, dc_bits[i]);
  for (int i = 0; i < 12; i++) tiny_jpeg_byte(&w, i);
  tiny_jpeg_byte(&w, 0x10);
  for (int i = 0; i < 16; i++) tiny_jpeg_byte(&w, i == 0 ? 1 : 0);
  tiny_jpeg_byte(&w, 0x00);
  static const uint8_t sos[] = {0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0};
  for (size_t i = 0; i < sizeof sos; i++) tiny_jpeg_byte(&w, sos[i]);
  int pred[3] = {0, 0, 0};
  for (int by = 0; by < height / 8; by++)
    for (int bx = 0; bx < width / 8; bx++) {
      int levels[3];
      tiny_jpeg_block(bx, by, levels);
      for (int c = 0; c < 3; c++) {
        int dc = 8 * (levels[c] - 128);
        int diff = dc - pred[c];
        pred[c] = dc;
        int magnitude = diff < 0 ? -diff : diff, category = 0;
        while (magnitude >> category) category++;
        tiny_jpeg_put(&w, dc_code[category], dc_len[category]);
        if (category)
          tiny_jpeg_put(&w, (uint32_t)(diff < 0 ? diff - 1 : diff) & ((1u << category) - 1),
                        category);
        tiny_jpeg_put(&w, 0, 1); /* EOB */
      }
    }
  while (w.nbits) tiny_jpeg_put(&w, 1, 1); /* pad with ones */
  tiny_jpeg_byte(&w, 0xff);
  tiny_jpeg_byte(&w, 0xd9); /* EOI */
  return w.len;
}

#endif
