// fp64 arithmetic in every rounding mode (PTX ISA 9.2 "Floating-Point Instructions" add sub mul
// fma div rcp sqrt .rn/.rz/.rm/.rp on f64: IEEE 754 results, NaN outputs canonical), through
// CUDA's intrinsics, on every pair of f64_special() and on hashed operands (inputs.cuh); plus
// min/max, abs/neg, copysign and comparisons. 64-bit results are two words, low first.
//! kernel fp64 3 256 52224
#include "inputs.cuh"

__device__ __forceinline__ double rcp_rz(double a) {
  double r;
  asm("rcp.rz.f64 %0, %1;" : "=d"(r) : "d"(a));
  return r;
}
__device__ __forceinline__ double sqrt_rz(double a) {
  double r;
  asm("sqrt.rz.f64 %0, %1;" : "=d"(r) : "d"(a));
  return r;
}
#define D(x) (unsigned long long)__double_as_longlong(x)

// 34 64-bit results per thread.
extern "C" __global__ void fp64(unsigned *out) {
  unsigned t = tid_global();
  double a = __longlong_as_double((long long)f64_operand(t, 0));
  double b = __longlong_as_double((long long)f64_operand(t, 1));
  double c = __longlong_as_double((long long)f64_operand(t, 2));
  PUT64(0, D(__dadd_rn(a, b)));
  PUT64(1, D(__dadd_rz(a, b)));
  PUT64(2, D(__dadd_rd(a, b)));
  PUT64(3, D(__dadd_ru(a, b)));
  PUT64(4, D(__dsub_rn(a, b)));
  PUT64(5, D(__dsub_rz(a, b)));
  PUT64(6, D(__dsub_rd(a, b)));
  PUT64(7, D(__dsub_ru(a, b)));
  PUT64(8, D(__dmul_rn(a, b)));
  PUT64(9, D(__dmul_rz(a, b)));
  PUT64(10, D(__dmul_rd(a, b)));
  PUT64(11, D(__dmul_ru(a, b)));
  PUT64(12, D(__fma_rn(a, b, c)));
  PUT64(13, D(__fma_rz(a, b, c)));
  PUT64(14, D(__fma_rd(a, b, c)));
  PUT64(15, D(__fma_ru(a, b, c)));
  PUT64(16, D(__ddiv_rn(a, b)));
  PUT64(17, D(__ddiv_rz(a, b)));
  PUT64(18, D(__ddiv_rd(a, b)));
  PUT64(19, D(__ddiv_ru(a, b)));
  PUT64(20, D(__drcp_rn(a)));
  PUT64(21, D(rcp_rz(a)));
  PUT64(22, D(__drcp_rd(a)));
  PUT64(23, D(__drcp_ru(a)));
  PUT64(24, D(__dsqrt_rn(a)));
  PUT64(25, D(sqrt_rz(a)));
  PUT64(26, D(__dsqrt_rd(a)));
  PUT64(27, D(__dsqrt_ru(a)));
  PUT64(28, D(fmin(a, b)));
  PUT64(29, D(fmax(a, b)));
  PUT64(30, D(copysign(fabs(a), -b)));
  PUT64(31, (unsigned long long)((a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 |
                                 (isnan(b) << 5)));
  PUT64(32, D(a * b + c));
  PUT64(33, D(fabs(a)) ^ D(-b));
}
