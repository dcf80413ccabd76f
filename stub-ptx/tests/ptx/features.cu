// More kernels for stub-ptx's tests (tests/nvrtc_features.rs), compiled by nvrtc.py to
// features.ptx: local arrays, generic pointers to shared and local memory, printf, struct
// parameters, vector accesses, warp primitives of sm_70/sm_80, f16x2, 64-bit integers.
#include <cuda_fp16.h>

__device__ __noinline__ void fill(int* p, int n, int base) {
    for (int i = 0; i < n; ++i) p[i] = base + i * i;
}

extern "C" __global__ void local_and_shared(const int* idx, int* out, float* sout) {
    int arr[16];
    __shared__ float tile[64];
    int t = threadIdx.x;
    fill(arr, 16, t);                      // generic pointer into local memory
    out[t] = arr[idx[t] & 15] + arr[(idx[t] + 5) & 15];
    float* g = tile;                       // generic pointer into shared memory
    g[t] = t * 1.5f;
    __syncthreads();
    sout[t] = g[63 - t];
}

struct Params { int a; double scale; short s; char c[5]; };

extern "C" __global__ void struct_param(Params p, double* out) {
    out[threadIdx.x] = (p.a + threadIdx.x) * p.scale + p.s + p.c[threadIdx.x % 5];
}

extern "C" __global__ void vectors(const float4* a, float4* b, const int2* c, long long* d) {
    int t = threadIdx.x;
    float4 v = a[t];
    b[t] = make_float4(v.w, v.z * 2.f, v.y + 1.f, v.x);
    int2 w = c[t];
    d[t] = (long long)w.x * w.y;
}

extern "C" __global__ void warp_more(const unsigned* in, unsigned* out) {
    unsigned t = threadIdx.x, lane = t & 31;
    unsigned v = in[t];
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    unsigned match = __match_any_sync(0xffffffffu, v % 4);
    unsigned rsum = __reduce_add_sync(0xffffffffu, v);
    unsigned rmin = __reduce_min_sync(0xffffffffu, v);
    unsigned x = __shfl_xor_sync(0xffffffffu, v, 5);
    unsigned seg = __shfl_sync(0xffffffffu, v, 2, 8);      // lane 2 of each 8-lane segment
    unsigned act = 0;
    if (lane & 1) act = __activemask();
    __syncwarp();
    out[t * 8 + 0] = match;
    out[t * 8 + 1] = rsum;
    out[t * 8 + 2] = rmin;
    out[t * 8 + 3] = x;
    out[t * 8 + 4] = seg;
    out[t * 8 + 5] = act;
    out[t * 8 + 6] = lt;
    out[t * 8 + 7] = __popc(lt & __ballot_sync(0xffffffffu, v & 1));
}

extern "C" __global__ void wide_ints(const unsigned long long* a, unsigned long long* out) {
    int t = threadIdx.x;
    unsigned long long x = a[t], y = a[t + 32] | 1;
    out[t * 4 + 0] = __umul64hi(x, y);
    out[t * 4 + 1] = x / y + x % y;
    out[t * 4 + 2] = (x << (t & 63)) ^ (x >> ((t * 3) & 63)) ^ (unsigned long long)((long long)x >> 7);
    out[t * 4 + 3] = (unsigned long long)min((long long)x, (long long)y) + max(x, y);
}

extern "C" __global__ void halves(const __half2* a, const __half2* b, __half2* c, float* f) {
    int t = threadIdx.x;
    __half2 r = __hadd2(a[t], b[t]);
    c[t] = __hmul2(r, b[t]);
    f[t] = __half2float(__low2half(r)) + __half2float(__high2half(r));
}

extern "C" __global__ void nested_loops(const int* lim, int* out) {
    int t = threadIdx.x, acc = 0;
    for (int i = 0; i < lim[t]; ++i) {
        if (i % 3 == 2) continue;
        for (int j = 0; j < i; ++j) {
            if (j > 5) break;
            acc += i * j + (t & 1 ? 1 : -1);
        }
        if (acc > 400) break;
    }
    out[t] = acc;
}

extern "C" __global__ void prints(int k) {
    printf("thread %d of %d: %d\n", (int)threadIdx.x, (int)blockDim.x, k);
}

extern "C" __global__ void float_math(const float* x, float* out) {
    int t = threadIdx.x;
    float v = x[t];
    out[t * 6 + 0] = fmaf(v, 1.25f, -0.5f);
    out[t * 6 + 1] = sqrtf(fabsf(v));
    out[t * 6 + 2] = fminf(v, 0.25f) + fmaxf(v, -1.f);
    out[t * 6 + 3] = v / 3.0f;
    out[t * 6 + 4] = (float)(int)(v * 7.9f);
    out[t * 6 + 5] = __expf(v * 0.1f);
}

// __syncthreads_count/and/or (bar.red), 128-bit addition with the carry flag, testp, cp.async,
// elect.sync (inline PTX where CUDA C++ has no spelling the compiler keeps).
extern "C" __global__ void block_votes(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    int c = __syncthreads_count(v > 3);
    int a = __syncthreads_and(v >= 0);
    int o = __syncthreads_or(v == 42);
    out[t * 3 + 0] = c;
    out[t * 3 + 1] = a;
    out[t * 3 + 2] = o;
}

extern "C" __global__ void carries(const unsigned* a, const unsigned* b, unsigned* sum, unsigned* diff) {
    int t = threadIdx.x;
    const unsigned* x = a + 4 * t;
    const unsigned* y = b + 4 * t;
    unsigned s0, s1, s2, s3, d0, d1, d2, d3;
    asm("add.cc.u32 %0, %4, %8;\n\taddc.cc.u32 %1, %5, %9;\n\taddc.cc.u32 %2, %6, %10;\n\taddc.u32 %3, %7, %11;"
        : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    asm("sub.cc.u32 %0, %4, %8;\n\tsubc.cc.u32 %1, %5, %9;\n\tsubc.cc.u32 %2, %6, %10;\n\tsubc.u32 %3, %7, %11;"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    sum[4 * t] = s0; sum[4 * t + 1] = s1; sum[4 * t + 2] = s2; sum[4 * t + 3] = s3;
    diff[4 * t] = d0; diff[4 * t + 1] = d1; diff[4 * t + 2] = d2; diff[4 * t + 3] = d3;
}

extern "C" __global__ void async_copy_and_elect(const int4* src, int* out, float* f) {
    __shared__ int4 stage[64];
    int t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&stage[t]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src + t));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    int4 v = stage[63 - t];
    unsigned leader, is_leader;
    asm("{\n\t.reg .pred p;\n\telect.sync %0|p, %2;\n\tselp.u32 %1, 1, 0, p;\n\t}" : "=r"(leader), "=r"(is_leader) : "r"(0xfffffff0u));
    out[t * 3 + 0] = v.x + v.y + v.z + v.w;
    out[t * 3 + 1] = leader;
    out[t * 3 + 2] = is_leader;
    float x = f[t];
    unsigned inf, nan;
    asm("{\n\t.reg .pred p, q;\n\ttestp.infinite.f32 p, %2;\n\ttestp.notanumber.f32 q, %2;\n\tselp.u32 %0, 1, 0, p;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(inf), "=r"(nan) : "f"(x));
    f[t] = inf * 10 + nan;
}
