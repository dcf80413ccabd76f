// Bit manipulation (PTX ISA 9.2 "Integer Arithmetic Instructions" popc clz bfind brev bfe bfi
// szext dp4a dp2a, "Logic and Shift Instructions" lop3 shf, "Data Movement" prmt), on every pair
// of int_special() and on hashed operands (inputs.cuh). bfe/bfi positions and lengths come from
// the operands' low bytes, so that lengths past the word (clamped by PTX) are covered.
// bits_simd: CUDA's SIMD-within-a-word intrinsics (__vadd2, __vabsdiffu4 ...), which NVRTC
// compiles to PTX's video instructions (vadd2, vabsdiff4, vset4 ..., "Video Instructions") or
// to plain integer code.
//! kernel bits 3 256 26112
//! kernel bits_simd 3 256 6144
#include "inputs.cuh"

__device__ __forceinline__ unsigned bfe_u(unsigned a, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  return r;
}
__device__ __forceinline__ int bfe_s(int a, unsigned pos, unsigned len) {
  int r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  return r;
}
__device__ __forceinline__ unsigned bfi(unsigned a, unsigned b, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len));
  return r;
}
__device__ __forceinline__ unsigned bfind_u(unsigned a) {
  unsigned r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a));
  return r;
}
__device__ __forceinline__ unsigned bfind_s_shift(int a) {
  unsigned r;
  asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(a));
  return r;
}
__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  // Three fixed truth tables: a^b^c (0x96), majority (0xe8), a&~b|c (0xf2) mixed.
  unsigned x, y, z;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(x) : "r"(a), "r"(b), "r"(c));
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(y) : "r"(a), "r"(b), "r"(c));
  asm("lop3.b32 %0, %1, %2, %3, 0xf2;" : "=r"(z) : "r"(a), "r"(b), "r"(c));
  return x ^ (y * 3u) ^ (z * 5u);
}
__device__ __forceinline__ unsigned shf_l_wrap(unsigned lo, unsigned hi, unsigned n) {
  unsigned r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n));
  return r;
}
__device__ __forceinline__ unsigned shf_r_clamp(unsigned lo, unsigned hi, unsigned n) {
  unsigned r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n));
  return r;
}
__device__ __forceinline__ unsigned prmt_mode(unsigned a, unsigned b, unsigned sel, int mode) {
  unsigned r = 0;
  switch (mode) {
    case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
    case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
    case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
    case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
    case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); break;
  }
  return r;
}
__device__ __forceinline__ unsigned szext_s(unsigned a, unsigned n) {
  unsigned r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));
  return r;
}

// 34 results per thread.
extern "C" __global__ void bits(unsigned *out) {
  unsigned t = tid_global();
  unsigned a = int_operand(t, 0), b = int_operand(t, 1), c = int_operand(t, 2);
  unsigned long long a64 = ((unsigned long long)a << 32) | c;
  PUT(0, __popc(a));
  PUT(1, __clz((int)a));
  PUT(2, __brev(a));
  PUT(3, __ffs((int)a));
  PUT(4, bfind_u(a));
  PUT(5, bfind_s_shift((int)a));
  PUT(6, __popcll(a64));
  PUT(7, __clzll((long long)a64));
  unsigned long long r64 = __brevll(a64);
  PUT(8, (unsigned)r64 ^ (unsigned)(r64 >> 32));
  PUT(9, bfe_u(a, b & 0xffu, (b >> 8) & 0xffu));
  PUT(10, (unsigned)bfe_s((int)a, b & 31u, (b >> 8) & 31u));
  PUT(11, bfe_u(a, b & 31u, (b >> 8) & 31u));
  PUT(12, bfi(a, c, b & 0xffu, (b >> 8) & 0xffu));
  PUT(13, bfi(a, c, b & 31u, (b >> 8) & 31u));
  PUT(14, __byte_perm(a, c, b));
  PUT(15, prmt_mode(a, c, b, 0));
  PUT(16, prmt_mode(a, c, b, 1));
  PUT(17, prmt_mode(a, c, b, 2));
  PUT(18, prmt_mode(a, c, b, 3));
  PUT(19, prmt_mode(a, c, b, 4));
  PUT(20, prmt_mode(a, c, b, 5));
  PUT(21, __funnelshift_l(a, c, b));
  PUT(22, __funnelshift_r(a, c, b));
  PUT(23, __funnelshift_lc(a, c, b));
  PUT(24, __funnelshift_rc(a, c, b));
  PUT(25, shf_l_wrap(a, c, b));
  PUT(26, shf_r_clamp(a, c, b));
  PUT(27, (unsigned)__dp4a((int)a, (int)b, (int)c));
  PUT(28, __dp4a(a, b, c));
  PUT(29, (unsigned)__dp2a_lo((int)a, (int)b, (int)c));
  PUT(30, __dp2a_hi(a, b, c));
  PUT(31, lop3(a, b, c));
  PUT(32, szext_s(a, b & 63u));
  PUT(33, (a & b) ^ (a | c) ^ ~(b ^ c));
}

// 8 results per thread.
extern "C" __global__ void bits_simd(unsigned *out) {
  unsigned t = tid_global();
  unsigned a = int_operand(t, 0), b = int_operand(t, 1);
  PUT(0, __vabsdiffu4(a, b));
  PUT(1, __vadd2(a, b));
  PUT(2, __vcmpgtu4(a, b));
  PUT(3, __vsub4(a, b));
  PUT(4, __vmaxs2(a, b));
  PUT(5, __vavgu4(a, b));
  PUT(6, __vsads2(a, b));
  PUT(7, __vaddss4(a, b) ^ __vsubus2(a, b) * 3u);
}
