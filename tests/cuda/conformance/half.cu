// fp16 and bf16 (cuda_fp16.h, cuda_bf16.h; PTX ISA 9.2 "Half Precision Floating-Point
// Instructions" add sub mul fma neg abs min max (.NaN) .sat and their x2 forms, "cvt" between
// f16/bf16 and f32/f64/integers in every rounding mode). Operands: every pair of the special
// 16-bit patterns below (±0, ±inf, NaN, ±1, ulp neighbours, the normal/subnormal boundary, the
// largest value) and hashed ones; fp32 and fp64 operands for the conversions from inputs.cuh.
// One 16-bit result per word (zero-extended); x2 results take a whole word.
//! kernel fp16 3 256 36864
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "inputs.cuh"

__device__ unsigned short h_special(unsigned i) {
  const unsigned short s[NSPECIAL] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x3800,
                                      0x3e00, 0x3c01, 0x3bff, 0x0400, 0x03ff, 0x0001, 0x8003, 0x7bff,
                                      0xfbff, 0x4248, 0x3555, 0x6400, 0x1000, 0x0200, 0xc900, 0x5bff};
  return s[i % NSPECIAL];
}
__device__ unsigned short b_special(unsigned i) {
  const unsigned short s[NSPECIAL] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x3f80, 0xbf80, 0x3f00,
                                      0x3fc0, 0x3f81, 0x3f7f, 0x0080, 0x007f, 0x0001, 0x8003, 0x7f7f,
                                      0xff7f, 0x4049, 0x3eab, 0x4b00, 0x1000, 0x0040, 0xc120, 0x5f7f};
  return s[i % NSPECIAL];
}
__device__ unsigned short h_operand(unsigned t, unsigned k) {
  if (t < SPECIAL_PAIRS) return h_special(k == 0 ? t % NSPECIAL : k == 1 ? t / NSPECIAL : t * 7u + 3u);
  unsigned h = mix32(t * 3u + k + 0x3c6ef372u);
  // Half the hashed values of moderate size (exponent 2^-4..2^3) so that results round.
  return (unsigned short)(h & 1u ? h >> 8 : ((h >> 8) & 0x83ffu) | ((11u + ((h >> 20) & 7u)) << 10));
}
__device__ unsigned short b_operand(unsigned t, unsigned k) {
  if (t < SPECIAL_PAIRS) return b_special(k == 0 ? t % NSPECIAL : k == 1 ? t / NSPECIAL : t * 7u + 3u);
  unsigned h = mix32(t * 3u + k + 0xa54ff53au);
  return (unsigned short)(h & 1u ? h >> 8 : ((h >> 8) & 0x807fu) | ((123u + ((h >> 20) & 7u)) << 7));
}

#define H(x) (unsigned)__half_as_ushort(x)
#define B(x) (unsigned)__bfloat16_as_ushort(x)
#define W2(x) (*(const unsigned *)&(x))

// 48 results per thread.
extern "C" __global__ void fp16(unsigned *out) {
  unsigned t = tid_global();
  __half a = __ushort_as_half(h_operand(t, 0)), b = __ushort_as_half(h_operand(t, 1));
  __half c = __ushort_as_half(h_operand(t, 2));
  __nv_bfloat16 x = __ushort_as_bfloat16(b_operand(t, 0)), y = __ushort_as_bfloat16(b_operand(t, 1));
  __nv_bfloat16 z = __ushort_as_bfloat16(b_operand(t, 2));
  float f = __uint_as_float(f32_operand(t, 0));
  double d = __longlong_as_double((long long)f64_operand(t, 1));
  PUT(0, H(__hadd(a, b)));
  PUT(1, H(__hsub(a, b)));
  PUT(2, H(__hmul(a, b)));
  PUT(3, H(__hfma(a, b, c)));
  PUT(4, H(__hadd_sat(a, b)));
  PUT(5, H(__hmul_sat(a, b)));
  PUT(6, H(__hfma_sat(a, b, c)));
  PUT(7, H(__hneg(a)));
  PUT(8, H(__habs(a)));
  PUT(9, H(__hmin(a, b)));
  PUT(10, H(__hmax(a, b)));
  PUT(11, H(__hmin_nan(a, b)));
  PUT(12, H(__hmax_nan(a, b)));
  PUT(13, __heq(a, b) | __hlt(a, b) << 1 | __hle(a, b) << 2 | __hgtu(a, b) << 3 | __hisnan(a) << 4 |
              __hisinf(b) << 5 | __hneu(a, b) << 6);
  PUT(14, H(__hdiv(a, b)));
  __half2 a2 = __halves2half2(a, c), b2 = __halves2half2(b, a);
  __half2 r2 = __hadd2(a2, b2);
  PUT(15, W2(r2));
  r2 = __hmul2(a2, b2);
  PUT(16, W2(r2));
  r2 = __hfma2(a2, b2, __halves2half2(c, b));
  PUT(17, W2(r2));
  r2 = __hsub2(a2, b2);
  PUT(18, W2(r2));
  PUT(19, B(__hadd(x, y)));
  PUT(20, B(__hsub(x, y)));
  PUT(21, B(__hmul(x, y)));
  PUT(22, B(__hfma(x, y, z)));
  PUT(23, B(__hmin(x, y)));
  PUT(24, B(__hmax(x, y)));
  PUT(25, B(__hneg(x)) | B(__habs(y)) << 16);
  __nv_bfloat162 x2 = __halves2bfloat162(x, z), y2 = __halves2bfloat162(y, x);
  __nv_bfloat162 s2 = __hadd2(x2, y2);
  PUT(26, W2(s2));
  s2 = __hfma2(x2, y2, __halves2bfloat162(z, y));
  PUT(27, W2(s2));
  PUT(28, H(__float2half_rn(f)));
  PUT(29, H(__float2half_rz(f)));
  PUT(30, H(__float2half_rd(f)));
  PUT(31, H(__float2half_ru(f)));
  PUT(32, __float_as_uint(__half2float(a)));
  PUT(33, B(__float2bfloat16_rn(f)));
  PUT(34, B(__float2bfloat16_rz(f)));
  PUT(35, B(__float2bfloat16_rd(f)));
  PUT(36, B(__float2bfloat16_ru(f)));
  PUT(37, __float_as_uint(__bfloat162float(x)));
  PUT(38, H(__double2half(d)));
  PUT(39, B(__double2bfloat16(d)));
  PUT(40, (unsigned)__half2int_rn(a));
  PUT(41, (unsigned)__half2int_rz(a));
  PUT(42, (unsigned)__half2short_rd(b) & 0xffffu);
  PUT(43, __half2uint_ru(a));
  PUT(44, H(__int2half_rn((int)f32_operand(t, 2))));
  PUT(45, H(__uint2half_rz(f32_operand(t, 2))));
  PUT(46, (unsigned)__bfloat162int_rz(x));
  PUT(47, B(__int2bfloat16_rn((int)f32_operand(t, 2))));
}
