// Warp-level matrix instructions for stub-ptx's tests (tests/nvrtc_tensor.rs), compiled by
// nvrtc.py to tensor.ptx (compute_80). mma.sync and ldmatrix have no CUDA C++ intrinsics: they
// are written as inline PTX, as CUTLASS and the cuda-samples do; wmma through <mma.h>.
// Each kernel is run by one warp.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

// The fragment layouts of PTX ISA "Matrix fragments for mma.m16n8k16 / m16n8k8 / m16n8k32":
// groupID g = lane / 4, threadID_in_group t = lane % 4.
__device__ unsigned pack2(unsigned short lo, unsigned short hi) { return lo | ((unsigned)hi << 16); }

// A 16x16 row-major, B 16x8 row-major (k x n), C and D 16x8 row-major; f16 in, f32 accumulate.
template <typename T>
__device__ void mma_m16n8k16(const T* A, const T* B, const float* C, float* D, bool bf16) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned short* a = (const unsigned short*)A;
    const unsigned short* b = (const unsigned short*)B;
    unsigned ra[4], rb[2];
    for (int r = 0; r < 4; ++r) {
        int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        ra[r] = pack2(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int r = 0; r < 2; ++r) {
        int k = 2 * t + 8 * r;
        rb[r] = pack2(b[k * 8 + g], b[(k + 1) * 8 + g]);
    }
    float c[4], d[4];
    for (int i = 0; i < 4; ++i) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    if (bf16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; ++i) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

extern "C" __global__ void mma_f16_f32(const __half* A, const __half* B, const float* C, float* D) {
    mma_m16n8k16(A, B, C, D, false);
}
extern "C" __global__ void mma_bf16_f32(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D) {
    mma_m16n8k16(A, B, C, D, true);
}

// m16n8k8 with an f16 accumulator: A 16x8, B 8x8 (k x n), C and D 16x8 f16, row-major.
extern "C" __global__ void mma_f16_k8_f16(const __half* A, const __half* B, const __half* C, __half* D) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned short* a = (const unsigned short*)A;
    const unsigned short* b = (const unsigned short*)B;
    const unsigned short* c = (const unsigned short*)C;
    unsigned ra0 = pack2(a[g * 8 + 2 * t], a[g * 8 + 2 * t + 1]);
    unsigned ra1 = pack2(a[(g + 8) * 8 + 2 * t], a[(g + 8) * 8 + 2 * t + 1]);
    unsigned rb = pack2(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
    unsigned rc0 = pack2(c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1]);
    unsigned rc1 = pack2(c[(g + 8) * 8 + 2 * t], c[(g + 8) * 8 + 2 * t + 1]);
    unsigned rd0, rd1;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(rd0), "=r"(rd1) : "r"(ra0), "r"(ra1), "r"(rb), "r"(rc0), "r"(rc1));
    unsigned short* d = (unsigned short*)D;
    d[g * 8 + 2 * t] = rd0 & 0xffff; d[g * 8 + 2 * t + 1] = rd0 >> 16;
    d[(g + 8) * 8 + 2 * t] = rd1 & 0xffff; d[(g + 8) * 8 + 2 * t + 1] = rd1 >> 16;
}

// tf32 m16n8k8: A 16x8, B 8x8 (k x n), C and D 16x8 f32, row-major.
extern "C" __global__ void mma_tf32(const float* A, const float* B, const float* C, float* D) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    unsigned ra[4], rb[2];
    for (int i = 0; i < 4; ++i) ra[i] = __float_as_uint(A[(g + 8 * (i & 1)) * 8 + t + 4 * (i >> 1)]);
    for (int i = 0; i < 2; ++i) rb[i] = __float_as_uint(B[(t + 4 * i) * 8 + g]);
    float c[4], d[4];
    for (int i = 0; i < 4; ++i) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; ++i) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

// s8 m16n8k32 (and .satfinite when sat): A 16x32, B 32x8 (k x n) int8, C and D 16x8 int32.
extern "C" __global__ void mma_s8(const signed char* A, const signed char* B, const int* C, int* D, int sat) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned char* a = (const unsigned char*)A;
    const unsigned char* b = (const unsigned char*)B;
    unsigned ra[4], rb[2];
    for (int r = 0; r < 4; ++r) {
        int row = g + 8 * (r & 1), col = 4 * t + 16 * (r >> 1);
        ra[r] = a[row * 32 + col] | (a[row * 32 + col + 1] << 8) | (a[row * 32 + col + 2] << 16) | ((unsigned)a[row * 32 + col + 3] << 24);
    }
    for (int r = 0; r < 2; ++r) {
        int k = 4 * t + 16 * r;
        rb[r] = b[k * 8 + g] | (b[(k + 1) * 8 + g] << 8) | (b[(k + 2) * 8 + g] << 16) | ((unsigned)b[(k + 3) * 8 + g] << 24);
    }
    int c[4], d[4];
    for (int i = 0; i < 4; ++i) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    if (sat)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; ++i) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}

// ldmatrix: four 8x8 b16 matrices (row-major, 64 elements each) copied to shared memory; lane
// l gives row l % 8 of matrix l / 8. out[lane * 8 + j]: register j of .x4, then 4 + j of
// .x4.trans; out2[lane * 2 + j]: .x2 (lanes 0-15 give the addresses).
extern "C" __global__ void ldmatrix_x4(const unsigned short* M, unsigned* out, unsigned* out2) {
    __shared__ __align__(16) unsigned short s[4 * 64];
    int lane = threadIdx.x & 31;
    for (int i = lane; i < 4 * 64; i += 32) s[i] = M[i];
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(lane / 8) * 64 + (lane % 8) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[lane * 8 + 0] = r0; out[lane * 8 + 1] = r1; out[lane * 8 + 2] = r2; out[lane * 8 + 3] = r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[lane * 8 + 4] = r0; out[lane * 8 + 5] = r1; out[lane * 8 + 6] = r2; out[lane * 8 + 7] = r3;
    unsigned addr2 = (unsigned)__cvta_generic_to_shared(&s[((lane % 16) / 8) * 64 + (lane % 8) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr2));
    out2[lane * 2] = r0; out2[lane * 2 + 1] = r1;
}

// wmma m16n16k16: D = A * B + C, A row-major, B column-major, C and D row-major, f32 accumulate.
using namespace nvcuda;
template <typename T>
__device__ void wmma_gemm(const T* A, const T* B, const float* C, float* D, float alpha) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(acc, a, b, acc);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    // Element-wise over matching fragments, as the cuda-samples' GEMMs scale by alpha and beta.
    for (int i = 0; i < c.num_elements; ++i) c.x[i] = alpha * acc.x[i] + c.x[i];
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}
extern "C" __global__ void wmma_f16(const __half* A, const __half* B, const float* C, float* D, float alpha) {
    wmma_gemm(A, B, C, D, alpha);
}
extern "C" __global__ void wmma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D, float alpha) {
    wmma_gemm(A, B, C, D, alpha);
}
// f16 accumulator, column-major store with a stride of 24.
extern "C" __global__ void wmma_f16_acc(const __half* A, const __half* B, __half* D) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
    wmma::fill_fragment(acc, __float2half(1.0f));
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(acc, a, b, acc);
    wmma::store_matrix_sync(D, acc, 24, wmma::mem_col_major);
}

// Integer wmma (immaTensorCoreGemm's types): D = A * B + C, A row-major, B column-major,
// C and D row-major int32; s8 or u8 inputs.
template <typename T>
__device__ void wmma_int(const T* A, const T* B, const int* C, int* D) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}
extern "C" __global__ void wmma_s8(const signed char* A, const signed char* B, const int* C, int* D) { wmma_int(A, B, C, D); }
extern "C" __global__ void wmma_u8(const unsigned char* A, const unsigned char* B, const int* C, int* D) { wmma_int(A, B, C, D); }

// tf32 wmma m16n16k8 (tf32TensorCoreGemm's shape): A 16x8 row-major, B 8x16 row-major, C and
// D 16x16 row-major f32; the inputs rounded to tf32 as the sample does.
extern "C" __global__ void wmma_tf32(const float* A, const float* B, const float* C, float* D) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 16);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

// f64 wmma m8n8k4 (dmmaTensorCoreGemm's shape): A 8x4 row-major, B 4x8 column-major, C and D
// 8x8 row-major.
extern "C" __global__ void wmma_f64(const double* A, const double* B, const double* C, double* D) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::load_matrix_sync(a, A, 4);
    wmma::load_matrix_sync(b, B, 4);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}
