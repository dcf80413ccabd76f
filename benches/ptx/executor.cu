// Kernels of stubs-benches' executor benchmark (src/bin/ptx_exec.rs), the shapes of NVIDIA's
// vectorAdd, matrixMul and a shared-memory reduction, written for this benchmark. Compiled to
// executor.ptx by: python3 benches/ptx/nvrtc.py (NVRTC 13.5, compute_80).

// vectorAdd: one element per thread.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + 0.0f;
}

// matrixMul: C = A * B with BLOCK x BLOCK shared-memory tiles; wa = A's width, wb = B's width
// (both multiples of BLOCK); block (BLOCK, BLOCK), grid (wb / BLOCK, ha / BLOCK).
#define BLOCK 32
extern "C" __global__ void matrix_mul(float* c, const float* a, const float* b, int wa, int wb) {
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int a_begin = wa * BLOCK * by, a_end = a_begin + wa - 1, a_step = BLOCK;
    int b_begin = BLOCK * bx, b_step = BLOCK * wb;
    float sum = 0.0f;
    for (int i = a_begin, j = b_begin; i <= a_end; i += a_step, j += b_step) {
        __shared__ float as[BLOCK][BLOCK];
        __shared__ float bs[BLOCK][BLOCK];
        as[ty][tx] = a[i + wa * ty + tx];
        bs[ty][tx] = b[j + wb * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK; ++k) sum += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[wb * BLOCK * by + BLOCK * bx + wb * ty + tx] = sum;
}

// A shared-memory tree reduction: each block sums blockDim.x * 2 inputs into out[blockIdx.x].
extern "C" __global__ void reduce_sum(const int* in, int* out, int n) {
    extern __shared__ int buf[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + t;
    int v = i < n ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    buf[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

// A tensor-core GEMM (the shape of the cuda-samples' wmma GEMMs, without their shared-memory
// staging): C = A * B, f16 in, f32 out, n x n matrices (n a multiple of 16), A row-major, B
// column-major; one warp per 16x16 tile of C, grid (n / 16, n / 16), block 32.
#include <mma.h>
extern "C" __global__ void wmma_gemm(const __half* a, const __half* b, float* c, int n) {
    using namespace nvcuda;
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * n + k, n);
        wmma::load_matrix_sync(fb, b + tn * n + k, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * n + tn, acc, n, wmma::mem_row_major);
}
