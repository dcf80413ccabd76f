// Atomics (PTX ISA 9.2 "atom", "red"): add/sub/min/max/inc/dec/and/or/xor/exch/cas on int,
// unsigned, unsigned long long, float, double and half2, in global memory (every block of the
// grid on one location) and in shared memory (the block's threads on one location). The final
// values are deterministic; the old values each thread got depend on the order, so they are
// checked as a set: the kernel sorts them (one thread, after a barrier) or folds them into an
// order-independent sum and xor. Floating-point additions use values whose sums are exact in
// any order (small integers and halves), so the final value is deterministic too.
//! kernel atomics_global 4 128 1024
//! kernel atomics_shared 2 128 512
//! kernel atomics_old 2 64 256

#include <cuda_fp16.h>

#define NT 128

// The global locations, with initial values (a module's __device__ variables are initialised
// at load; the runner loads the module once and runs the kernel once).
__device__ unsigned g_u[8] = {0u, 0u, 0u, 0xffffffffu, 0u, 0u, 0xffffffffu, 0u};
__device__ int g_i[4] = {0, 0, 0, 0};
__device__ unsigned long long g_ull[4] = {0ull, 0ull, 0xffffffffffffffffull, 0ull};
__device__ float g_f[2] = {0.0f, 1.0f};
__device__ double g_d[2] = {0.0, 0.5};
__device__ __half2 g_h2;
__device__ unsigned g_count;     // blocks done
__device__ unsigned g_seen[16];  // bitmap of the old values of the add counter (0..511)

// The grid (4 blocks of 128) hammers the globals; the last block to finish (counted by
// g_count) writes the finals. The globals start at their load-time value 0 (a module's
// __device__ variables are zero-initialised) and the kernel runs once per module load.
extern "C" __global__ void atomics_global(unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;  // 0..511
  unsigned old = atomicAdd(&g_u[0], 1u);
  atomicOr(&g_seen[(old >> 5) & 15u], 1u << (old & 31u));
  atomicSub(&g_u[1], t * 3u);
  atomicMax(&g_u[2], t * 2654435761u);
  atomicMin(&g_u[3], 0xffffffffu - t * 7u);
  atomicInc(&g_u[4], 100u);  // wraps to 0 past 100
  atomicDec(&g_u[5], 37u);   // 0 (or past 37) becomes 37
  atomicAnd(&g_u[6], ~(1u << (t & 31u)) | (t & 0x100u ? 0u : 0x80000000u));
  atomicXor(&g_u[7], t * 0x01010101u);
  atomicMax(&g_i[0], (int)(t * 2654435761u));
  atomicMin(&g_i[1], (int)(t * 2654435761u));
  atomicAdd(&g_i[2], (int)t - 300);
  atomicOr((unsigned *)&g_i[3], 1u << (t % 31u));
  atomicAdd(&g_ull[0], (unsigned long long)t << 30);
  atomicMax(&g_ull[1], (unsigned long long)t * 0x9e3779b97f4a7c15ull);
  atomicMin(&g_ull[2], ~((unsigned long long)t * 0x9e3779b97f4a7c15ull));
  atomicXor(&g_ull[3], (unsigned long long)t * 0x9e3779b97f4a7c15ull);
  atomicAdd(&g_f[0], (float)(t & 15u) * 0.5f);
  atomicAdd(&g_f[1], -0.25f);
  atomicAdd(&g_d[0], (double)t * 0.125);
  atomicAdd(&g_d[1], -(double)(t & 7u));
  atomicAdd(&g_h2, __halves2half2(__float2half(0.5f), __float2half(-1.0f)));
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&g_count, 1u) == gridDim.x - 1u;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  // The last block: copy the finals (volatile reads: other blocks' atomics are done).
  volatile unsigned *vu = g_u;
  unsigned i = threadIdx.x;
  if (i < 8) out[i] = vu[i];
  if (i < 4) out[8 + i] = ((volatile int *)g_i)[i];
  if (i < 4) {
    unsigned long long v = ((volatile unsigned long long *)g_ull)[i];
    out[12 + 2 * i] = (unsigned)v;
    out[13 + 2 * i] = (unsigned)(v >> 32);
  }
  if (i < 2) out[20 + i] = __float_as_uint(((volatile float *)g_f)[i]);
  if (i < 2) {
    unsigned long long v = (unsigned long long)__double_as_longlong(((volatile double *)g_d)[i]);
    out[22 + 2 * i] = (unsigned)v;
    out[23 + 2 * i] = (unsigned)(v >> 32);
  }
  if (i == 0) out[26] = ((volatile unsigned *)&g_h2)[0];
  if (i >= 27 && i < 32) out[i] = 0;
  if (i >= 49 && i < 64) out[i] = 0;
  if (i < 16) out[32 + i] = ((volatile unsigned *)g_seen)[i];
  if (i == 0) out[48] = ((volatile unsigned *)&g_count)[0];
  // out[64..1023]: a CAS loop's result per thread of this block, deterministic (own word).
  for (unsigned w = 64 + i; w < 1024; w += blockDim.x) {
    unsigned expect = 0xdeadbeefu, got = atomicCAS(&out[w], expect, w * 3u);
    unsigned again = atomicCAS(&out[w], expect, 1u);  // fails: holds w * 3 now
    out[w] = got ^ again;
  }
}

// Shared memory: each block's 128 threads on shared locations; out[block * 256 + ...].
extern "C" __global__ void atomics_shared(unsigned *out) {
  __shared__ unsigned su[8];
  __shared__ int si[2];
  __shared__ unsigned long long sull[2];
  __shared__ float sf;
  __shared__ double sd;
  __shared__ __half2 sh2;
  __shared__ unsigned olds[NT];
  __shared__ unsigned scount;
  unsigned i = threadIdx.x, b = blockIdx.x;
  if (i < 8) su[i] = i == 3 ? 0xffffffffu : b;
  if (i < 2) si[i] = 0;
  if (i < 2) sull[i] = 0;
  if (i == 0) {
    scount = b * 1000u;
    sf = 1.0f;
    sd = 2.0;
    sh2 = __halves2half2(__float2half(0.0f), __float2half(8.0f));
  }
  __syncthreads();
  unsigned v = (i + 1u) * (b + 3u);
  atomicAdd(&su[0], v);
  // The old values of an add of one constant are a fixed set whatever the order (those of an
  // add of different values, the prefix sums, are not).
  olds[i] = atomicAdd(&scount, 3u);
  atomicSub(&su[1], i);
  atomicMax(&su[2], i * 2654435761u);
  atomicMin(&su[3], v * 2654435761u);
  atomicInc(&su[4], 50u);
  atomicDec(&su[5], 9u);
  atomicXor(&su[6], v * 0x01010101u);
  atomicOr(&su[7], 1u << (i & 31u));
  atomicMin(&si[0], (int)(v * 2654435761u));
  atomicAdd(&si[1], (int)i - 64);
  atomicAdd(&sull[0], (unsigned long long)v << 33);
  atomicMax(&sull[1], (unsigned long long)v * 0x9e3779b97f4a7c15ull);
  atomicAdd(&sf, (float)(i & 3u) * 0.25f);
  atomicAdd(&sd, -(double)i * 0.5);
  atomicAdd(&sh2, __halves2half2(__float2half(0.5f), __float2half(-0.125f)));
  __syncthreads();
  unsigned *o = out + b * 256u;
  if (i < 8) o[i] = su[i];
  if (i < 2) o[8 + i] = (unsigned)si[i];
  if (i < 2) {
    o[10 + 2 * i] = (unsigned)sull[i];
    o[11 + 2 * i] = (unsigned)(sull[i] >> 32);
  }
  if (i == 0) {
    o[14] = __float_as_uint(sf);
    unsigned long long d = (unsigned long long)__double_as_longlong(sd);
    o[15] = (unsigned)d;
    o[16] = (unsigned)(d >> 32);
    o[17] = *(unsigned *)&sh2;
    o[18] = scount;
    // The old values of the add, sorted (insertion sort, one thread).
    for (unsigned a = 1; a < NT; a++) {
      unsigned x = olds[a];
      unsigned c = a;
      while (c > 0 && olds[c - 1] > x) {
        olds[c] = olds[c - 1];
        c--;
      }
      olds[c] = x;
    }
  }
  __syncthreads();
  o[128 + i] = olds[i];
  if (i >= 19 && i < 128) o[i] = 0;
}

// The old values a compare-and-swap loop and an exchange chain hand out: each of 64 threads
// increments a shared counter by CAS retries; the olds are then a permutation of 0..63, sorted.
extern "C" __global__ void atomics_old(unsigned *out) {
  __shared__ unsigned counter, chain;
  __shared__ unsigned olds[64], exchanged[64];
  unsigned i = threadIdx.x;
  if (i == 0) {
    counter = 0;
    chain = 1000u;
  }
  __syncthreads();
  unsigned seen = counter, prev;
  do {
    prev = seen;
    seen = atomicCAS(&counter, prev, prev + 1u);
  } while (seen != prev);
  olds[i] = prev;
  exchanged[i] = atomicExch(&chain, i);
  __syncthreads();
  if (i == 0) {
    for (unsigned a = 1; a < 64; a++)
      for (unsigned c = a; c > 0 && olds[c - 1] > olds[c]; c--) {
        unsigned x = olds[c];
        olds[c] = olds[c - 1];
        olds[c - 1] = x;
      }
    // The exchange chain: every value handed out once, 1000 and 0..63 less the last one stored.
    unsigned sum = 0, xr = 0;
    for (unsigned a = 0; a < 64; a++) {
      sum += exchanged[a];
      xr ^= exchanged[a] * 2654435761u;
    }
    exchanged[0] = sum + chain;
    exchanged[1] = xr ^ (chain * 2654435761u);
    exchanged[2] = counter;
  }
  __syncthreads();
  unsigned *o = out + blockIdx.x * 128u;
  o[i] = olds[i];
  o[64 + i] = i < 3 ? exchanged[i] : 0u;
}
