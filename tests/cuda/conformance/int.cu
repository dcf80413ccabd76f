// Integer arithmetic (PTX ISA 9.2 "Integer Arithmetic Instructions"): add/sub/mul(.lo .hi
// .wide)/mad/mul24/sad/div/rem/abs/neg/min/max, .sat, the carry chain and 64-bit forms, on every
// pair of int_special() and on hashed operands (inputs.cuh). Division and remainder by zero are
// skipped (PTX: "unspecified, machine-specific value"), as is INT_MIN / -1 (overflow, undefined).
//! kernel int32 3 256 27648
//! kernel int64 3 256 18432
#include "inputs.cuh"

__device__ __forceinline__ int sat_add(int a, int b) {
  int r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ int sat_sub(int a, int b) {
  int r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ unsigned shl_raw(unsigned a, unsigned b) {
  unsigned r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ unsigned shr_raw_u(unsigned a, unsigned b) {
  unsigned r;
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ int shr_raw_s(int a, unsigned b) {
  int r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ int mad_hi_s(int a, int b, int c) {
  int r;
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ int mad_hi_sat(int a, int b, int c) {
  int r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
// 64-bit sum of (a:b) + (c:a) through the carry chain, returned as lo, hi.
__device__ __forceinline__ void carry_add(unsigned a, unsigned b, unsigned c, unsigned *lo, unsigned *hi) {
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;" : "=r"(*lo), "=r"(*hi) : "r"(a), "r"(c), "r"(b), "r"(a));
}
__device__ __forceinline__ void carry_sub(unsigned a, unsigned b, unsigned c, unsigned *lo, unsigned *hi) {
  asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %4, %5;" : "=r"(*lo), "=r"(*hi) : "r"(a), "r"(c), "r"(b), "r"(a));
}

// 36 results per thread.
extern "C" __global__ void int32(unsigned *out) {
  unsigned t = tid_global();
  unsigned a = int_operand(t, 0), b = int_operand(t, 1), c = int_operand(t, 2);
  int sa = (int)a, sb = (int)b, sc = (int)c;
  PUT(0, a + b);
  PUT(1, a - b);
  PUT(2, a * b);
  PUT(3, __umulhi(a, b));
  PUT(4, (unsigned)__mulhi(sa, sb));
  unsigned long long wu = (unsigned long long)a * b;
  long long ws = (long long)sa * sb;
  PUT(5, (unsigned)wu);
  PUT(6, (unsigned)(wu >> 32));
  PUT(7, (unsigned)ws);
  PUT(8, (unsigned)((unsigned long long)ws >> 32));
  PUT(9, a * b + c);
  PUT(10, __umul24(a, b));
  PUT(11, (unsigned)__mul24(sa, sb));
  PUT(12, b != 0 ? a / b : 0u);
  PUT(13, b != 0 ? a % b : 0u);
  bool sdiv_ok = sb != 0 && !(sa == (int)0x80000000 && sb == -1);
  PUT(14, sdiv_ok ? (unsigned)(sa / sb) : 0u);
  PUT(15, sdiv_ok ? (unsigned)(sa % sb) : 0u);
  PUT(16, (unsigned)min(sa, sb));
  PUT(17, (unsigned)max(sa, sb));
  PUT(18, min(a, b));
  PUT(19, max(a, b));
  PUT(20, (unsigned)abs(sa));
  PUT(21, __sad(sa, sb, c));
  PUT(22, __usad(a, b, c));
  PUT(23, (unsigned)__hadd(sa, sb));
  PUT(24, (unsigned)__rhadd(sa, sb));
  PUT(25, __uhadd(a, b));
  PUT(26, __urhadd(a, b));
  PUT(27, (unsigned)sat_add(sa, sb));
  PUT(28, (unsigned)sat_sub(sa, sb));
  PUT(29, shl_raw(a, b & 63u));
  PUT(30, shr_raw_u(a, b & 63u));
  PUT(31, (unsigned)shr_raw_s(sa, b & 63u));
  PUT(32, (unsigned)mad_hi_s(sa, sb, sc));
  PUT(33, (unsigned)mad_hi_sat(sa, sb, sc));
  unsigned lo, hi;
  carry_add(a, b, c, &lo, &hi);
  PUT(34, lo ^ (hi * 0x9e3779b9u));
  carry_sub(a, b, c, &lo, &hi);
  PUT(35, lo ^ (hi * 0x9e3779b9u));
}

// 12 64-bit results per thread.
extern "C" __global__ void int64(unsigned *out) {
  unsigned t = tid_global();
  unsigned long long a = ((unsigned long long)int_operand(t, 0) << 32) | int_operand(t, 2);
  unsigned long long b = ((unsigned long long)int_operand(t, 1) << 32) | int_operand(t, 0);
  // Small divisors too: the high word alone.
  unsigned long long d = t & 1u ? b : b >> 32;
  long long sa = (long long)a, sd = (long long)d;
  PUT64(0, a + b);
  PUT64(1, a - b);
  PUT64(2, a * b);
  PUT64(3, __umul64hi(a, b));
  PUT64(4, (unsigned long long)__mul64hi(sa, (long long)b));
  PUT64(5, d != 0 ? a / d : 0ull);
  PUT64(6, d != 0 ? a % d : 0ull);
  bool ok = sd != 0 && !(sa == (long long)0x8000000000000000ull && sd == -1);
  PUT64(7, ok ? (unsigned long long)(sa / sd) : 0ull);
  PUT64(8, ok ? (unsigned long long)(sa % sd) : 0ull);
  PUT64(9, (unsigned long long)min(sa, (long long)b));
  PUT64(10, max(a, b));
  PUT64(11, (a << (b & 63)) ^ (a >> (b & 63)) ^ (unsigned long long)(sa >> (d & 63)));
}
