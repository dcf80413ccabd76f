// Cooperative groups' grid-wide sync (issue 47): run by tests/grid_sync.rs as a cooperative
// launch (stub_ptx::Prepared::run_cooperative). NVRTC 13.5, compute_80.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Sum of in[0..n) into *out, as reductionMultiBlockCG does it: each block sums a grid-stride
// slice into partial[blockIdx.x], the grid syncs, block 0 sums the partials. Twice, so that the
// barrier is reused (its arrival counter flips).
extern "C" __global__ void grid_sum(const int *in, int *partial, int *out, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    for (int round = 0; round < 2; ++round) {
        int acc = 0;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i] * (round + 1);
        s[block.thread_rank()] = acc;
        block.sync();
        for (int k = blockDim.x / 2; k > 0; k /= 2) {
            if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
            block.sync();
        }
        if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
        grid.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            int t = 0;
            for (int b = 0; b < gridDim.x; ++b) t += partial[b];
            out[round] = t;
        }
        grid.sync();
    }
}

// Each block writes its index, syncs the grid, then reads its neighbour's: wrong without a
// real grid-wide barrier (a block would read before the neighbour wrote). is_valid() answers
// whether the launch has a grid workspace.
extern "C" __global__ void neighbour(int *slots, int *seen, int *valid) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) valid[blockIdx.x] = grid.is_valid() ? 1 : 0;
    if (threadIdx.x == 0) slots[blockIdx.x] = (int)blockIdx.x * 10 + 1;
    grid.sync();
    if (threadIdx.x == 0) seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

// A hand-written grid barrier: block 0 spins on device memory until the grid's last block
// writes it. Blocks run in order would never get past block 0.
extern "C" __global__ void last_releases_first(volatile int *flag, int *out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        while (*flag == 0) {
        }
        out[0] = *flag + 1;
    } else if (blockIdx.x == gridDim.x - 1) {
        *flag = 7;
    }
}

// Inside one block, warp 0 spins on shared memory until warp 1 writes it (no bar.sync):
// a turn that ends while warp 0 spins must let warp 1 run.
extern "C" __global__ void warp_waits_warp(int *out) {
    __shared__ volatile int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        while (s == 0) {
        }
        out[blockIdx.x] = s;
    } else if (threadIdx.x == 32) {
        s = 5 + (int)blockIdx.x;
    }
}
