// Whole-program kernels for stub-ptx's tests (tests/nvrtc_programs.rs), compiled by nvrtc.py
// to programs.ptx: a tiled matrix multiply over 2D grids and blocks, warp
// and tile reductions, every atomic of CUDA C++, 3D indexing, timers.
#include <cuda_fp16.h>

#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        as[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.f;
        bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.f;
        __syncthreads();
        #pragma unroll 4
        for (int k = 0; k < TILE; ++k) acc = fmaf(as[threadIdx.y][k], bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

// Warp and 8-lane tile reductions by butterfly shuffles (what cooperative groups' reduce does;
// their headers need libcu++, which the NVRTC wheel lacks).
extern "C" __global__ void groups(const int* in, int* warp_sums, int* tile_max, int* block_sum) {
    int t = threadIdx.x;
    int v = in[t];
    int ws = v, tm = v;
    for (int o = 16; o > 0; o >>= 1) ws += __shfl_xor_sync(0xffffffffu, ws, o);
    for (int o = 4; o > 0; o >>= 1) tm = max(tm, __shfl_xor_sync(0xffffffffu, tm, o, 8));
    if ((t & 31) == 0) warp_sums[t / 32] = ws;
    if ((t & 7) == 0) tile_max[t / 8] = tm;
    __shared__ int total;
    if (t == 0) total = 0;
    __syncthreads();
    if ((t & 31) == 0) atomicAdd(&total, ws);
    __syncthreads();
    if (t == 0) *block_sum = total;
}

struct Atoms {
    unsigned inc, dec, exch, andv, orv, xorv;
    int mins, maxs;
    unsigned long long add64, cas64;
    double addd;
    __half2 addh2;
};

extern "C" __global__ void all_atomics(Atoms* a, const int* in) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    atomicInc(&a->inc, 1000u);
    atomicDec(&a->dec, 1000u);
    atomicExch(&a->exch, (unsigned)t);
    atomicAnd(&a->andv, ~(1u << (t % 32)) | 0x80000000u);
    atomicOr(&a->orv, 1u << (t % 31));
    atomicXor(&a->xorv, (unsigned)v);
    atomicMin(&a->mins, v);
    atomicMax(&a->maxs, v);
    atomicAdd(&a->add64, (unsigned long long)v << 33);
    unsigned long long old = a->cas64, assumed;
    do { assumed = old; old = atomicCAS(&a->cas64, assumed, assumed + 3); } while (old != assumed);
    atomicAdd(&a->addd, 0.25 * v);
    atomicAdd(&a->addh2, __halves2half2(__float2half(1.0f), __float2half(0.5f)));
}

extern "C" __global__ void index3d(int* out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
    int lin = (z * h + y) * w + x;
    unsigned warp;
    asm("mov.u32 %0, %%warpid;" : "=r"(warp));
    out[lin * 2] = x + 100 * y + 10000 * z;
    out[lin * 2 + 1] = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x == 0 ? (int)gridDim.x * 1000 + gridDim.y * 10 + gridDim.z : -1;
}

extern "C" __global__ void timers(unsigned long long* out) {
    unsigned long long c0 = clock64();
    unsigned long long g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    __nanosleep(100);
    __threadfence();
    __threadfence_block();
    int s = 0;
    for (int i = 0; i < 50; ++i) s += __ldg((const int*)out + i % 2) & 1;
    unsigned long long c1 = clock64();
    out[threadIdx.x * 3] = c1 - c0;
    out[threadIdx.x * 3 + 1] = g0;
    out[threadIdx.x * 3 + 2] = s;
}
