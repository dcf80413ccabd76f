// Memory spaces (PTX ISA 9.2 "State Spaces", "ld", "st", "cvta", "isspacep"): shared (static,
// 8/16/32/64-bit and vector accesses, bank-crossing strides), local (an array indexed at run
// time, so it stays in local memory), constant (__constant__ with an initializer, ld.const),
// global __device__ variables with initializers, generic pointers to each space (cvta and
// isspacep), vector loads and stores (.v2/.v4) of global memory, byte and half-word stores into
// words, and __ldg (ld.global.nc).
//! kernel memory 2 128 7168
#include "inputs.cuh"

#undef THREADS
#define MPUT(op, value) out[(op) * (gridDim.x * blockDim.x) + t] = (value)

__constant__ unsigned c_table[16] = {3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u, 5u, 3u, 5u, 8u, 9u, 7u, 9u, 3u};
__constant__ double c_d = 2.718281828459045;
__device__ unsigned d_words[64] = {7u, 11u, 13u};
__device__ unsigned char d_bytes[256];
__device__ uint4 d_vec[256];

__device__ __noinline__ unsigned through_generic(unsigned *p, unsigned i) {
  // A generic pointer: the callee does not know the space.
  p[i & 7u] += i;
  return p[(i + 1u) & 7u] ^ (unsigned)__isShared(p) << 28 ^ (unsigned)__isLocal(p) << 29 ^
         (unsigned)__isGlobal(p) << 30 ^ (unsigned)__isConstant(p) << 31;
}

// 28 results per thread.
extern "C" __global__ void memory(unsigned *out) {
  unsigned t = tid_global(), i = threadIdx.x;
  unsigned v = mix32(t + 7u);
  __shared__ unsigned sh[128];
  __shared__ unsigned short sh16[256];
  __shared__ unsigned char sh8[512];
  __shared__ unsigned long long sh64[128];
  __shared__ float4 shv[128];
  sh[i] = v;
  sh16[2 * i] = (unsigned short)v;
  sh16[2 * i + 1] = (unsigned short)(v >> 16);
  for (unsigned k = 0; k < 4u; k++) sh8[4 * i + k] = (unsigned char)(v >> (8 * k));
  sh64[i] = ((unsigned long long)v << 32) | (v ^ 0xffffffffu);
  shv[i] = make_float4((float)i, (float)v, -(float)i, 0.5f);
  __syncthreads();
  unsigned j = (i * 17u + 5u) & 127u;
  MPUT(0, sh[j]);
  MPUT(1, sh16[(i * 33u) & 255u]);
  MPUT(2, sh8[(i * 65u + 3u) & 511u]);
  unsigned long long w = sh64[j];
  MPUT(3, (unsigned)(w >> 16));
  float4 f4 = shv[j];
  MPUT(4, __float_as_uint(f4.x + f4.y) ^ __float_as_uint(f4.z * f4.w));
  // Reading the words' bytes through another type (the layout is little-endian).
  MPUT(5, ((unsigned char *)sh)[(i * 7u) & 511u]);
  // Local memory: an array indexed at run time.
  unsigned local[24];
  for (unsigned k = 0; k < 24u; k++) local[k] = v * (k + 1u);
  unsigned idx = v % 24u;
  local[(idx + 5u) % 24u] ^= 0x5555u;
  MPUT(6, local[idx] + local[(idx + 5u) % 24u]);
  MPUT(7, through_generic(local, v));
  __shared__ unsigned own[128 * 8];
  for (unsigned k = 0; k < 8u; k++) own[i * 8u + k] = v + k;
  MPUT(8, through_generic(&own[i * 8u], v));  // shared: the thread's own eight words
  // Constant memory.
  MPUT(9, c_table[v & 15u] + c_table[(v >> 4) & 15u] * 10u);
  MPUT(10, (unsigned)(__double_as_longlong(c_d * (double)(v & 255u)) >> 20));
  MPUT(11, __isConstant(&c_table[0]) | __isGlobal(d_words) << 1 | __isShared(sh) << 2 | __isLocal(local) << 3);
  // Global __device__ variables: initial values, then each thread's own stores.
  MPUT(12, d_words[t & 63u] * (t < 64u ? 1u : 0u));
  d_bytes[t & 255u] = (unsigned char)v;
  d_vec[t & 255u] = make_uint4(v, v + 1u, v + 2u, t);
  __syncthreads();
  // Within the block: the bytes this block's threads stored (t & 255 distinct per block).
  MPUT(13, d_bytes[(t & ~127u & 255u) + ((i * 5u) & 127u)]);
  uint4 q = d_vec[(t & ~127u & 255u) + ((i * 3u) & 127u)];
  MPUT(14, q.y ^ q.w);
  MPUT(15, q.z - q.x);
  // Vector loads and stores of `out` itself (global .v4 and .v2), aligned.
  unsigned base = (gridDim.x * blockDim.x) * 16u + 4u * t;
  reinterpret_cast<uint4 *>(out)[base / 4u] = make_uint4(v, ~v, v >> 1, v << 1);
  uint2 two = reinterpret_cast<const uint2 *>(out)[base / 2u + 1u];
  MPUT(20, two.x ^ two.y);
  MPUT(21, __ldg(&out[base]) + __ldg(&out[base + 1u]));  // ld.global.nc of words this thread wrote
  // Byte and half-word stores into words (st.global.u8/.u16).
  unsigned short *h = reinterpret_cast<unsigned short *>(&out[22u * (gridDim.x * blockDim.x) + t]);
  h[0] = (unsigned short)(v >> 3);
  h[1] = 0x1234u;
  unsigned char *b = reinterpret_cast<unsigned char *>(&out[23u * (gridDim.x * blockDim.x) + t]);
  b[0] = (unsigned char)v;
  b[2] = 0x5au;  // b[1] and b[3] keep 0xbe and 0xde of 0xdeadbeef
  // Dynamic local indexing of a struct array, and a 64-bit generic load.
  struct pair {
    unsigned a;
    unsigned long long b;
  } ps[4];
  for (unsigned k = 0; k < 4u; k++) ps[k] = {v + k, (unsigned long long)v * (k + 3u)};
  pair p = ps[v & 3u];
  MPUT(24, p.a ^ (unsigned)(p.b >> 7));
  MPUT(25, (unsigned)(&sh64[j] - &sh64[0]) ^ (unsigned)((const char *)&shv[j] - (const char *)&shv[0]));
  MPUT(26, __isShared(&shv[0]) + __isGlobal(out) * 2u);
  MPUT(27, i);
}
