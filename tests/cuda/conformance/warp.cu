// Warp-level operations (PTX ISA 9.2 "Parallel Synchronization and Communication Instructions"
// shfl.sync up/down/bfly/idx with widths 32/16/8/4 (c operand's segment mask and clamp),
// vote.sync all/any/uni/ballot, match.sync any/all, redux.sync add/min/max/and/or/xor,
// activemask, %lanemask_*), with full and partial masks: in 96-thread blocks (three full warps)
// and 80-thread blocks (the third warp has 16 lanes), and under divergence (odd lanes only).
// A shuffle reading a lane that does not exist is undefined (CUDA C++ Programming Guide, "Warp
// Shuffle Functions"): in the partial warp those results are replaced by 0.
//! kernel warp_full 2 96 6144
//! kernel warp_partial 2 80 5120
#include "inputs.cuh"

#undef THREADS
// Results are out[op * total threads + t].
#define WPUT(op, value) out[(op) * (gridDim.x * blockDim.x) + t] = (value)

__device__ __forceinline__ unsigned lanemasks() {
  unsigned lt, ge, eq, le, gt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  return lt ^ ge * 3u ^ eq * 5u ^ le * 7u ^ gt * 11u;
}

// 32 results per thread; `full`: every warp has 32 lanes (else a full-width shuffle may read a
// lane that does not exist).
template <bool full>
__device__ void warp_ops(unsigned *out) {
  unsigned t = tid_global();
  unsigned lane = threadIdx.x & 31u;
  unsigned v = mix32(t + 17u);
  unsigned small = v & 7u;  // few distinct values, for match
  unsigned mask = __activemask();
  WPUT(0, mask);
  WPUT(1, full ? __shfl_sync(mask, v, (lane * 7u + 3u) & 31u) : 0u);
  WPUT(2, full ? __shfl_up_sync(mask, v, 3) : 0u);
  WPUT(3, full ? __shfl_down_sync(mask, v, 5) : 0u);
  WPUT(4, full ? __shfl_xor_sync(mask, v, 9) : 0u);
  WPUT(5, __shfl_sync(mask, v, lane + 2u, 16));
  WPUT(6, __shfl_up_sync(mask, v, 2, 8));
  WPUT(7, __shfl_down_sync(mask, v, 1, 4));
  WPUT(8, __shfl_xor_sync(mask, v, 3, 8));
  WPUT(9, __ballot_sync(mask, v & 1u));
  WPUT(10, __all_sync(mask, small != 0u) | __any_sync(mask, small == 7u) << 1 | __uni_sync(mask, lane < 64u) << 2);
  WPUT(11, __match_any_sync(mask, small));
  int pred = 0;
  unsigned all = __match_all_sync(mask, small >> 2, &pred);
  WPUT(12, all ^ (unsigned)pred << 31);
  WPUT(13, __reduce_add_sync(mask, v));
  WPUT(14, __reduce_min_sync(mask, v));
  WPUT(15, __reduce_max_sync(mask, v));
  WPUT(16, (unsigned)__reduce_min_sync(mask, (int)v));
  WPUT(17, (unsigned)__reduce_max_sync(mask, (int)v));
  WPUT(18, __reduce_and_sync(mask, v | 0x0f0f0f0fu));
  WPUT(19, __reduce_or_sync(mask, v & 0x11111111u));
  WPUT(20, __reduce_xor_sync(mask, v));
  // Divergence: the odd lanes alone.
  unsigned r = 0xabcdu;
  if (lane & 1u) {
    unsigned odd = __activemask();
    r = odd ^ __shfl_xor_sync(odd, v, 2) ^ __ballot_sync(odd, v & 2u) ^ __reduce_add_sync(odd, v);
  }
  WPUT(21, r);
  // A value from a loop whose trip count differs per lane, then a shuffle at the join.
  unsigned acc = 0;
  for (unsigned i = 0; i < (v & 15u); i++) acc += i * v;
  WPUT(22, full ? __shfl_sync(mask, acc, 31u - lane) : __shfl_sync(mask, acc, 15u - (lane & 15u)));
  WPUT(23, lane);
  WPUT(24, lanemasks());
  unsigned warpid;
  asm("mov.u32 %0, %%warpid;" : "=r"(warpid));
  // %warpid is not the warp's rank (the hardware's slot): only that it is below 64 is checked.
  WPUT(25, warpid < 64u);
  WPUT(26, __popc(__activemask()));
  WPUT(27, __shfl_sync(mask, v, 0));
  WPUT(28, full ? __shfl_down_sync(mask, v, 31) : 0u);
  WPUT(29, __shfl_up_sync(mask, v, 0));
  WPUT(30, __shfl_sync(mask, v, 40u));
  WPUT(31, __ballot_sync(mask, 1));
}

extern "C" __global__ void warp_full(unsigned *out) { warp_ops<true>(out); }
extern "C" __global__ void warp_partial(unsigned *out) { warp_ops<false>(out); }
