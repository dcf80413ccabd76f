// Special registers (PTX ISA 9.2 "Special Registers"), the deterministic ones: %tid, %ntid,
// %ctaid, %nctaid (x, y, z of a 1-D launch), %laneid, %lanemask_eq, %dynamic_smem_size; those
// the hardware picks (%warpid, %nwarpid, %smid, %nsmid, %clock, %clock64, %globaltimer) only
// through facts that hold on every board: %warpid < %nwarpid, %smid < %nsmid, the clocks and
// the timer never going back within a thread.
//! kernel sreg 3 100 2400
#include "inputs.cuh"

#undef THREADS
#define SPUT(op, value) out[(op) * (gridDim.x * blockDim.x) + t] = (value)

#define SREG_FN(name)                                      \
  __device__ __forceinline__ unsigned sreg_##name() {      \
    unsigned r;                                            \
    asm volatile("mov.u32 %0, %%" #name ";" : "=r"(r));    \
    return r;                                              \
  }
SREG_FN(laneid)
SREG_FN(lanemask_eq)
SREG_FN(warpid)
SREG_FN(nwarpid)
SREG_FN(smid)
SREG_FN(nsmid)
SREG_FN(dynamic_smem_size)
#define SREG(name) sreg_##name()

// 8 results per thread.
extern "C" __global__ void sreg(unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  SPUT(0, threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20);
  SPUT(1, blockDim.x | blockDim.y << 10 | blockDim.z << 20);
  SPUT(2, blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20);
  SPUT(3, gridDim.x | gridDim.y << 10 | gridDim.z << 20);
  SPUT(4, SREG(laneid) | SREG(lanemask_eq) << 5);
  unsigned warpid = SREG(warpid), nwarpid = SREG(nwarpid);
  unsigned smid = SREG(smid), nsmid = SREG(nsmid);
  SPUT(5, (warpid < nwarpid) | (smid < nsmid) << 1 | (nsmid > 0u) << 2 | (SREG(dynamic_smem_size) == 0u) << 3);
  unsigned c1 = (unsigned)clock();
  long long c64a = clock64();
  unsigned long long g1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  unsigned x = threadIdx.x;
  for (unsigned k = 0; k < 100u; k++) x = x * 1664525u + 1013904223u;
  long long c64b = clock64();
  unsigned long long g2;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g2));
  unsigned c2 = (unsigned)clock();
  SPUT(6, (c64b >= c64a) | (g2 >= g1) << 1 | ((c2 - c1) < 0x80000000u) << 2);
  SPUT(7, x);
}
