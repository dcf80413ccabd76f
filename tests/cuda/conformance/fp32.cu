// fp32 arithmetic in every rounding mode (PTX ISA 9.2 "Floating-Point Instructions" add sub mul
// fma div.rn/rz/rm/rp rcp.rn/.. sqrt.rn/..: IEEE 754 results, NaN outputs canonical) through
// CUDA's intrinsics, on every pair of f32_special() (±0, ±inf, NaN, subnormals, the largest
// value, ulp neighbours of 1) and on hashed operands (inputs.cuh); plus min/max, abs/neg,
// copysign, .sat and comparisons. Without -ftz (subnormals kept); fp32_ftz.cu is the same with
// -ftz=true.
//! kernel fp32 3 256 32256
#include "inputs.cuh"

__device__ __forceinline__ float sat_add(float a, float b) {
  float r;
  asm("add.rn.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ float nan_min(float a, float b) {
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ unsigned cmp_bits(float a, float b) {
  return (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 | (a >= b) << 5 |
         (isnan(a) << 6) | (isinf(b) << 7) | (signbit(a) ? 1u << 8 : 0u) | (isfinite(a) << 9);
}

#define F(x) __float_as_uint(x)

// 42 results per thread.
extern "C" __global__ void fp32(unsigned *out) {
  unsigned t = tid_global();
  float a = __uint_as_float(f32_operand(t, 0)), b = __uint_as_float(f32_operand(t, 1));
  float c = __uint_as_float(f32_operand(t, 2));
  PUT(0, F(__fadd_rn(a, b)));
  PUT(1, F(__fadd_rz(a, b)));
  PUT(2, F(__fadd_rd(a, b)));
  PUT(3, F(__fadd_ru(a, b)));
  PUT(4, F(__fsub_rn(a, b)));
  PUT(5, F(__fsub_rz(a, b)));
  PUT(6, F(__fsub_rd(a, b)));
  PUT(7, F(__fsub_ru(a, b)));
  PUT(8, F(__fmul_rn(a, b)));
  PUT(9, F(__fmul_rz(a, b)));
  PUT(10, F(__fmul_rd(a, b)));
  PUT(11, F(__fmul_ru(a, b)));
  PUT(12, F(__fmaf_rn(a, b, c)));
  PUT(13, F(__fmaf_rz(a, b, c)));
  PUT(14, F(__fmaf_rd(a, b, c)));
  PUT(15, F(__fmaf_ru(a, b, c)));
  PUT(16, F(__fdiv_rn(a, b)));
  PUT(17, F(__fdiv_rz(a, b)));
  PUT(18, F(__fdiv_rd(a, b)));
  PUT(19, F(__fdiv_ru(a, b)));
  PUT(20, F(__frcp_rn(a)));
  PUT(21, F(__frcp_rz(a)));
  PUT(22, F(__frcp_rd(a)));
  PUT(23, F(__frcp_ru(a)));
  PUT(24, F(__fsqrt_rn(a)));
  PUT(25, F(__fsqrt_rz(a)));
  PUT(26, F(__fsqrt_rd(a)));
  PUT(27, F(__fsqrt_ru(a)));
  PUT(28, F(a / b));     // div.rn.f32 (-prec-div=true, NVRTC's default)
  PUT(29, F(sqrtf(a)));  // sqrt.rn.f32 (-prec-sqrt=true)
  PUT(30, F(fminf(a, b)));
  PUT(31, F(fmaxf(a, b)));
  PUT(32, F(nan_min(a, b)));
  PUT(33, F(fabsf(a)));
  PUT(34, F(-a));
  PUT(35, F(copysignf(a, b)));
  PUT(36, F(__saturatef(a)));
  PUT(37, F(sat_add(a, b)));
  PUT(38, cmp_bits(a, b));
  PUT(39, F(a * b + c));  // contracted to fma.rn by default (-fmad=true)
  PUT(40, F(__fmul_rn(a, b) - c));
  PUT(41, F(fdimf(a, b)));
}
