// Kernels for stub-ptx's tests (tests/nvrtc_kernels.rs), compiled by nvrtc.py to kernels.ptx.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void block_sum(const int* in, int* out, int n) {
    extern __shared__ int buf[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

// Divergent control flow: each thread runs a data-dependent loop and an if/else.
extern "C" __global__ void collatz(const unsigned* in, unsigned* steps, unsigned* parity, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i], s = 0;
    while (x != 1 && s < 1000) {
        if (x & 1) x = 3 * x + 1; else x >>= 1;
        ++s;
    }
    steps[i] = s;
    if (s % 3 == 0) parity[i] = 100 + s; else if (s % 3 == 1) parity[i] = 200; else parity[i] = 300 - s;
}

__device__ __noinline__ long long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ float scale(float x, float k, int* calls) { atomicAdd(calls, 1); return x * k; }

extern "C" __global__ void recursive(const int* n, long long* out, float* f, int* calls) {
    int i = threadIdx.x;
    out[i] = fib(n[i]);
    f[i] = scale(f[i], 2.5f, calls);
}

extern "C" __global__ void warp_ops(const int* in, int* sum, unsigned* ballot, int* bcast, int* up) {
    int t = threadIdx.x;
    int v = in[t];
    int s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    unsigned b = __ballot_sync(0xffffffffu, v > 10);
    int first = __shfl_sync(0xffffffffu, v, 3);
    int u = __shfl_up_sync(0xffffffffu, v, 1);
    if ((t & 31) == 0) sum[t / 32] = s;
    ballot[t] = b;
    bcast[t] = first + (__all_sync(0xffffffffu, v >= 0) ? 1000 : 0) + (__any_sync(0xffffffffu, v == 7) ? 10000 : 0);
    up[t] = u;
}

extern "C" __global__ void atomics(int* counter, unsigned* maxv, float* fsum, unsigned* cas, int* hist, const int* in) {
    __shared__ int local_hist[8];
    int t = threadIdx.x;
    if (t < 8) local_hist[t] = 0;
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + t];
    atomicAdd(counter, 1);
    atomicMax(maxv, (unsigned)v);
    atomicAdd(fsum, 0.5f);
    atomicAdd(&local_hist[v & 7], 1);
    unsigned old = *cas, assumed;
    do { assumed = old; old = atomicCAS(cas, assumed, assumed + 2); } while (old != assumed);
    __syncthreads();
    if (t < 8) atomicAdd(&hist[t], local_hist[t]);
}

#include <cuda_fp16.h>
__device__ double gtable[4] = {1.5, 2.5, 3.5, 4.5};
__constant__ int ctable[4] = {10, 20, 30, 40};

extern "C" __global__ void math_mix(const double* x, double* y, long long* z, unsigned short* h) {
    int t = threadIdx.x;
    double v = x[t];
    y[t] = sqrt(v) * gtable[t & 3] + (double)ctable[t & 3] / 3.0;
    long long q = (long long)v * -7 / 3;
    z[t] = q % 5 + __popc(t) + __clz(t + 1) + __brev(t) % 7;
    h[t] = __half_as_ushort(__float2half((float)v));
}

extern "C" __global__ void out_of_bounds(int* p) {
    p[threadIdx.x * 1024 * 1024] = 1;
}

// What assert() expands to (NVRTC has no <assert.h> without the toolkit's include path).
extern "C" __device__ void __assertfail(const char*, const char*, unsigned, const char*, size_t);
extern "C" __global__ void asserts(const int* p) {
    if (!(p[threadIdx.x] < 5)) __assertfail("p[threadIdx.x] < 5", "kernels.cu", 87, "asserts", 1);
}
