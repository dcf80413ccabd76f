// Control flow (PTX ISA 9.2 "Control Flow Instructions" bra, call, ret, exit; divergence and
// reconvergence within a warp): loops whose trip counts differ per lane, nested and divergent
// branches, a switch (a jump table or a compare chain, as the compiler picks), recursion, early
// exit of some lanes, a loop with break and continue, and predicated code, each thread writing
// what it computed. -G is not used: the optimiser's own branch structure is what runs.
//! kernel control 2 256 6144
//! kernel control_exit 1 96 96
#include "inputs.cuh"

#undef THREADS
#define CPUT(op, value) out[(op) * (gridDim.x * blockDim.x) + t] = (value)

__device__ __noinline__ unsigned fib(unsigned n) { return n < 2u ? n : fib(n - 1u) + fib(n - 2u); }

__device__ __noinline__ unsigned ackermann_small(unsigned m, unsigned n) {
  if (m == 0u) return n + 1u;
  if (n == 0u) return ackermann_small(m - 1u, 1u);
  return ackermann_small(m - 1u, ackermann_small(m, n - 1u));
}

__device__ __noinline__ unsigned collatz(unsigned x) {
  unsigned steps = 0;
  while (x != 1u && steps < 500u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    steps++;
  }
  return steps;
}

// 12 results per thread.
extern "C" __global__ void control(unsigned *out) {
  unsigned t = tid_global();
  unsigned v = mix32(t + 99u);
  // The barrier reductions (bar.red, i.e. barrier.red.aligned) first, while every warp is still
  // converged: .aligned requires it, and after the divergent recursion below an H100 gave
  // per-thread garbage (recorded 2026-12-06: op 11 differed between threads of one block).
  unsigned red = __syncthreads_count(v & 1u);
  red ^= (unsigned)__syncthreads_or(v == 5u) << 16;
  red ^= (unsigned)__syncthreads_and(v != 0u) << 17;
  CPUT(0, fib(t % 17u));
  CPUT(1, collatz((v & 0x3ffu) + 1u));
  unsigned s = 0;
  switch (v % 9u) {
    case 0: s = 11; break;
    case 1: s = v >> 3; break;
    case 2: s = v * 7u;  // falls through
    case 3: s += 5; break;
    case 4: s = __popc(v); break;
    case 5: s = v ^ 0xffffu; break;
    case 6: s = t; break;
    case 7: s = fib(5); break;
    default: s = 0xabcdefu; break;
  }
  CPUT(2, s);
  // Nested divergent branches.
  unsigned n = 0;
  if (v & 1u) {
    if (v & 2u) {
      n = v >> 16;
    } else {
      for (unsigned i = 0; i < (v & 7u); i++) n += i * i;
    }
  } else if (v & 4u) {
    n = (v & 8u) ? collatz((v >> 20) + 1u) : 7u;
  } else {
    n = 0xffffu;
  }
  CPUT(3, n);
  // break and continue in a loop with a per-lane trip count.
  unsigned acc = 0;
  for (unsigned i = 0; i < 64u; i++) {
    if (((v >> (i & 31u)) & 3u) == 3u) continue;
    acc = acc * 31u + i;
    if (acc > (v | 0x100000u)) break;
  }
  CPUT(4, acc);
  CPUT(5, ackermann_small(2u, t % 8u));
  // A while loop whose exit test is at the end (do-while), lanes leaving one by one.
  unsigned x = v, k = 0;
  do {
    x = x * 1103515245u + 12345u;
    k++;
  } while ((x >> 28) != 0u && k < 200u);
  CPUT(6, k ^ x);
  // Predicated selects the compiler keeps branch-free.
  int a = (int)v, b = (int)mix32(v);
  CPUT(7, (unsigned)(a < b ? a - b : b - a));
  CPUT(8, (v & 0x10u) ? __brev(v) : __byte_perm(v, 0u, 0x0123u));
  // A loop with a barrier inside: trip count uniform per block.
  __shared__ unsigned sh[256];
  unsigned sum = 0;
  for (unsigned r = 0; r < 3u; r++) {
    sh[threadIdx.x] = v + r;
    __syncthreads();
    sum += sh[(threadIdx.x + 1u + r * 37u) % blockDim.x];
    __syncthreads();
  }
  CPUT(9, sum);
  // Recursion depth per lane.
  CPUT(10, fib((v & 7u) + 10u));
  CPUT(11, red);
}

// Early exit: threads with an odd hash return before writing; the others write after a barrier
// that the exited threads no longer take part in. Words of returned threads stay 0xdeadbeef.
extern "C" __global__ void control_exit(unsigned *out) {
  unsigned t = threadIdx.x;
  unsigned v = mix32(t + 5u);
  if (v & 1u) return;
  __syncthreads();
  unsigned r = 0;
  for (unsigned i = 0; i <= (v & 31u); i++) {
    if (i == 20u) break;
    r += i;
  }
  out[t] = r;
}
