// Deterministic inputs of the conformance kernels (tests/c/conformance_runner.c): fixed lists of
// interesting bit patterns, then hashed ones (murmur3's finalizer of the index), computed inside
// the kernel so that the GPU and the mock see the same operands with nothing copied in.
//
// Pairs: thread t < SPECIAL_PAIRS takes special a = t % NSPECIAL, b = t / NSPECIAL (every pair of
// the special list); the threads after take hashed operands. THREADS = 3 blocks of 256.
#pragma once

#define NSPECIAL 24
#define SPECIAL_PAIRS (NSPECIAL * NSPECIAL)
#define THREADS 768
#define BLOCK 256

__device__ __forceinline__ unsigned mix32(unsigned x) {
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

__device__ __forceinline__ unsigned tid_global() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Integers: 0, ±1, ±2, the 8/16/32-bit limits and their neighbours.
__device__ unsigned int_special(unsigned i) {
  const unsigned s[NSPECIAL] = {0u,          1u,          2u,          3u,          0xffffffffu, 0xfffffffeu,
                                0x7fffffffu, 0x80000000u, 0x80000001u, 0x7ffffffeu, 0x0000ffffu, 0x00010000u,
                                0x00007fffu, 0x00008000u, 0xffff8000u, 0x000000ffu, 0x00000080u, 0xffffff80u,
                                0x12345678u, 0xdeadbeefu, 7u,          0xfffffff9u, 0x55555555u, 0xaaaaaaaau};
  return s[i % NSPECIAL];
}

// Float patterns: ±0, ±inf, NaN, ±1, halfway and ulp neighbours, the normal/subnormal boundary,
// the largest finite value, powers of two, 1/3 and pi.
__device__ unsigned f32_special(unsigned i) {
  const unsigned s[NSPECIAL] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u,
                                0xbf800000u, 0x3f000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u, 0x3f800001u,
                                0x3f7fffffu, 0x00800000u, 0x007fffffu, 0x00000001u, 0x80000003u, 0x7f7fffffu,
                                0xff7fffffu, 0x4b000000u, 0x3eaaaaabu, 0x40490fdbu, 0x4f000000u, 0x477fe000u};
  return s[i % NSPECIAL];
}

__device__ unsigned long long f64_special(unsigned i) {
  const unsigned long long s[NSPECIAL] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull,
      0x3ff8000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull, 0x3ff0000000000001ull,
      0x3fefffffffffffffull, 0x0010000000000000ull, 0x000fffffffffffffull, 0x0000000000000001ull,
      0x8000000000000003ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x4330000000000000ull,
      0x3fd5555555555555ull, 0x400921fb54442d18ull, 0x43e0000000000000ull, 0x36a0000000000000ull};
  return s[i % NSPECIAL];
}

// A hashed float: half the time raw bits (every exponent, NaN payloads included), half the
// time a value of moderate size (exponent 2^-8..2^8) so that sums and products round.
__device__ unsigned f32_hashed(unsigned i) {
  unsigned h = mix32(i * 0x9e3779b9u + 0x2545f491u);
  if (h & 1u) return h;
  return (h & 0x807fffffu) | ((119u + ((h >> 23) & 15u)) << 23);
}

__device__ unsigned long long f64_hashed(unsigned i) {
  unsigned long long h = mix64(i * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull);
  if (h & 1ull) return h;
  return (h & 0x800fffffffffffffull) | ((1015ull + ((h >> 52) & 15ull)) << 52);
}

// Operand k (0, 1, 2) of thread t: the special pair (and a third from the list), or hashed.
__device__ unsigned int_operand(unsigned t, unsigned k) {
  if (t < SPECIAL_PAIRS) return int_special(k == 0 ? t % NSPECIAL : k == 1 ? t / NSPECIAL : t * 7u + 3u);
  return mix32(t * 3u + k + 0x51ed270bu);
}

__device__ unsigned f32_operand(unsigned t, unsigned k) {
  if (t < SPECIAL_PAIRS) return f32_special(k == 0 ? t % NSPECIAL : k == 1 ? t / NSPECIAL : t * 7u + 3u);
  return f32_hashed(t * 3u + k);
}

__device__ unsigned long long f64_operand(unsigned t, unsigned k) {
  if (t < SPECIAL_PAIRS) return f64_special(k == 0 ? t % NSPECIAL : k == 1 ? t / NSPECIAL : t * 7u + 3u);
  return f64_hashed(t * 3u + k);
}

// out[op * THREADS + t]: result `op` of thread t.
#define PUT(op, value) out[(op) * THREADS + t] = (value)
#define PUT64(op, value)                                       \
  do {                                                         \
    unsigned long long v_ = (value);                           \
    out[(2 * (op)) * THREADS + 2 * t] = (unsigned)v_;          \
    out[(2 * (op)) * THREADS + 2 * t + 1] = (unsigned)(v_ >> 32); \
  } while (0)
