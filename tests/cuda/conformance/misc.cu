// Instructions NVRTC emits less often, each through inline PTX or the intrinsic that emits it
// (PTX ISA 9.2): bfe/bfi/bfind on 64 bits, mad.wide, mad.hi, mul24.hi, mad24, slct (integer and
// float selector), testp, copysign (PTX's operand order: the sign of the first), cvt with
// saturation between integer widths, 16-bit min/max, 64-bit shifts past the width, abs.s64,
// set, cnot, the carry chain, mul.hi.s64, rem.s64, sad, bfind.shiftamt; then .relu on f16
// fma/max (__hfma_relu, __hfma2_relu), min/max .NaN, fns (__fns), 64-bit and 16-bit atomics
// (cas, add, max, exch; atom.cas.b16), f16 and bf16x2 atomic adds, nanosleep, __syncwarp and the
// cache-qualified loads and stores (__ldcs, __ldcg, __stcs). Operands are hashed (inputs.cuh).
//! kernel misc 4 256 32768
//! kernel misc_half_atomics 1 256 4096
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "inputs.cuh"

#undef THREADS
#define SP(op, v) out[(op) * 1024u + t] = (v)
#define SQ(op, v) out[(op) * 256u + t] = (v)
#define FOLD(x) ((unsigned)(x) ^ (unsigned)((x) >> 32))
// 32 results per thread.
extern "C" __global__ void misc(unsigned *out) {
  unsigned t = tid_global();
  unsigned a = mix32(t * 3u + 11u), b = mix32(t * 3u + 12u), c = mix32(t * 3u + 13u);
  unsigned long long A = ((unsigned long long)a << 32) | b, B = ((unsigned long long)c << 32) | a;
  unsigned long long r64;
  unsigned r;
  int s;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r64) : "l"(A), "r"(b & 127u), "r"((b >> 8) & 127u));
  SP(0, FOLD(r64));
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r64) : "l"(A), "r"(b & 63u), "r"((b >> 8) & 63u));
  SP(1, FOLD(r64));
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r64)
      : "l"(A), "l"(B), "r"(c & 127u), "r"((c >> 8) & 127u));
  SP(2, FOLD(r64));
  asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(A >> (a & 63u)));
  SP(3, r);
  asm("bfind.s64 %0, %1;" : "=r"(r) : "l"(A >> (a & 63u)));
  SP(4, r);
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r64) : "r"(a), "r"(b), "l"(B));
  SP(5, FOLD(r64));
  asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(r64) : "r"(a), "r"(b), "l"(B));
  SP(6, FOLD(r64));
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  SP(7, r);
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  SP(8, r);
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  SP(9, r);
  asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  SP(10, r);
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  SP(11, r);
  asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "f"(__uint_as_float(c)));
  SP(12, r);
  float fa = __uint_as_float(a & 0x80ffffffu | ((a >> 24) & 1u ? 0x7f000000u : 0u));
  unsigned tp = 0, q;
  asm("{.reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q;
  asm("{.reg .pred p; testp.infinite.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q << 1;
  asm("{.reg .pred p; testp.number.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q << 2;
  asm("{.reg .pred p; testp.notanumber.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q << 3;
  asm("{.reg .pred p; testp.normal.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q << 4;
  asm("{.reg .pred p; testp.subnormal.f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(q) : "f"(fa));
  tp |= q << 5;
  SP(13, tp);
  float cs;
  asm("copysign.f32 %0, %1, %2;" : "=f"(cs) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b)));
  SP(14, __float_as_uint(cs));
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"((int)a >> (b & 31u)));
  SP(15, r);
  asm("cvt.u8.s32 %0, %1;" : "=r"(r) : "r"(a));
  SP(16, r);
  unsigned short h;
  asm("cvt.s16.s64 %0, %1;" : "=h"(h) : "l"(A));
  SP(17, h);
  asm("cvt.sat.s16.s64 %0, %1;" : "=h"(h) : "l"((long long)A >> (b & 63u)));
  SP(18, h);
  asm("cvt.sat.u32.s64 %0, %1;" : "=r"(r) : "l"((long long)A >> (b & 63u)));
  SP(19, r);
  unsigned short h2;
  asm("min.s16 %0, %1, %2;" : "=h"(h2) : "h"((unsigned short)a), "h"((unsigned short)b));
  SP(20, h2);
  asm("max.u16 %0, %1, %2;" : "=h"(h2) : "h"((unsigned short)a), "h"((unsigned short)b));
  SP(21, h2);
  asm("shl.b64 %0, %1, %2;" : "=l"(r64) : "l"(A), "r"(c & 127u));
  SP(22, FOLD(r64));
  asm("shr.s64 %0, %1, %2;" : "=l"(r64) : "l"(A), "r"(c & 127u));
  SP(23, FOLD(r64));
  asm("abs.s64 %0, %1;" : "=l"(r64) : "l"(A));
  SP(24, FOLD(r64));
  asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  SP(25, r);
  asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(a & (b >> 31 ? 0u : ~0u)));
  SP(26, r);
  // One asm statement: the carry flag does not survive between statements.
  asm("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %5, %3;\n\taddc.u32 %2, 0, 0;"
      : "=r"(r), "=r"(q), "=r"(s)
      : "r"(a), "r"(b), "r"(c));
  SP(27, r ^ q * 3u ^ (unsigned)s * 7u);
  asm("mul.hi.s64 %0, %1, %2;" : "=l"(r64) : "l"(A), "l"(B));
  SP(28, FOLD(r64));
  asm("rem.s64 %0, %1, %2;" : "=l"(r64) : "l"(A), "l"((B >> 40) | 1ull));
  SP(29, FOLD(r64));
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  SP(30, r);
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31u)));
  SP(31, r);
}

#define H(x) (unsigned)__half_as_ushort(x)
#define W2(x) (*(const unsigned *)&(x))
__device__ unsigned long long g64[4];
__device__ unsigned short g16[4];
__device__ __half gh;
__device__ __nv_bfloat162 gb2;
// 16 results per thread (one block).
extern "C" __global__ void misc_half_atomics(unsigned *out) {
  unsigned t = threadIdx.x;
  unsigned a = mix32(t + 1u), b = mix32(t + 2u);
  __half x = __ushort_as_half((unsigned short)a), y = __ushort_as_half((unsigned short)b);
  __half z = __ushort_as_half((unsigned short)(a >> 16));
  SQ(0, H(__hfma_relu(x, y, z)));
  __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
  __half2 r2 = __hmax2_nan(p, q);
  SQ(1, W2(r2));
  r2 = __hfma2_relu(p, q, p);
  SQ(2, W2(r2));
  SQ(3, __fns(a, b & 31u, (int)(b >> 5) % 5 - 2));
  atomicCAS(&g64[0], 0ull, 5ull);
  atomicAdd(&g64[1], (unsigned long long)t);
  atomicMax((long long *)&g64[2], (long long)(a) - (1ll << 31));
  atomicExch(&g64[3], 77ull);
  atomicAdd(&gh, __float2half(0.25f));
  atomicAdd(&gb2, __floats2bfloat162_rn(1.0f, -0.5f));
  // Which thread wins each 16-bit compare-and-swap depends on the order: only the count of
  // winners (one per word) is checked.
  int won = atomicCAS(&g16[t & 3u], (unsigned short)0, (unsigned short)1) == 0;
  __syncthreads();
  __nanosleep(100);
  __syncwarp();
  SQ(4, (unsigned)g64[0]);
  SQ(5, (unsigned)g64[1]);
  SQ(6, (unsigned)(g64[2] >> 1));
  SQ(7, (unsigned)g64[3]);
  SQ(8, H(gh));
  SQ(9, W2(gb2));
  SQ(10, (unsigned)__syncthreads_count(won) | (unsigned)g16[t & 3u] << 16);
  SQ(11, __ffsll((long long)a << 20));
  SQ(12, __ldcs(&out[t]) + __ldcg(&out[256 + t]));
  __stcs(&out[13 * 256 + t], a);
  SQ(14, H(__hmin_nan(x, y)));
  SQ(15, __hisnan(z));
}
