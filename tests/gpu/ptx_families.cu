// GPU proof of the PTX executor's tensor-core, mbarrier, indirect-call and 128-bit tests (issue
// 47): the kernels of stub-ptx/tests/ptx/{tensor,tensor90,mbarrier,indirect,b128}.cu, run on the
// board with the inputs of stub-ptx/tests/nvrtc_{tensor,mbarrier,indirect,b128}.rs, each result checked
// against the same host computation those tests check the executor against. PASS/FAIL per
// kernel; exit 1 on any failure. Built and run by tests/gpu/ptx_families.sh.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include "../../stub-ptx/tests/ptx/tensor.cu"
#include "../../stub-ptx/tests/ptx/tensor90.cu"
#include "../../stub-ptx/tests/ptx/mbarrier.cu"
#include "../../stub-ptx/tests/ptx/indirect.cu"
#include "../../stub-ptx/tests/ptx/b128.cu"

static int failures = 0;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
static void report(const char* name, bool ok, const char* what) {
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : what);
    if (!ok) ++failures;
}
template <typename T> T* up(const std::vector<T>& v) { T* d; CK(cudaMalloc(&d, v.size() * sizeof(T) + 16)); CK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); return d; }
template <typename T> T* zeros(size_t n) { T* d; CK(cudaMalloc(&d, n * sizeof(T) + 16)); CK(cudaMemset(d, 0, n * sizeof(T) + 16)); return d; }
template <typename T> std::vector<T> down(const T* d, size_t n) { std::vector<T> v(n); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost)); return v; }

static float a_val(int i) { return (float)((i * 7 % 9) - 4) * 0.5f; }
static float b_val(int i) { return (float)((i * 5 % 7) - 3) * 0.25f; }
static float c_val(int i) { return (float)(i % 5) - 2.0f; }
static std::vector<double> gemm(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c, int m, int n, int k) {
    std::vector<double> d(m * n);
    for (int i = 0; i < m * n; ++i) d[i] = c[i];
    for (int r = 0; r < m; ++r) for (int col = 0; col < n; ++col) for (int kk = 0; kk < k; ++kk) d[r * n + col] += (double)a[r * k + kk] * b[kk * n + col];
    return d;
}
static std::vector<float> gen(int n, float (*f)(int)) { std::vector<float> v(n); for (int i = 0; i < n; ++i) v[i] = f(i); return v; }
template <typename H> static std::vector<unsigned short> bits16(const std::vector<float>& v, H conv) {
    std::vector<unsigned short> o(v.size()); for (size_t i = 0; i < v.size(); ++i) { auto h = conv(v[i]); memcpy(&o[i], &h, 2); } return o;
}

int main() {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("GPU: %s (sm_%d%d)\n", p.name, p.major, p.minor);
    auto a = gen(256, a_val), b = gen(128, b_val), c = gen(128, c_val);
    for (int bf = 0; bf < 2; ++bf) {  // mma.m16n8k16 f16 / bf16 -> f32
        auto ah = bf ? bits16(a, __float2bfloat16) : bits16(a, __float2half);
        auto bh = bf ? bits16(b, __float2bfloat16) : bits16(b, __float2half);
        auto da = up(ah); auto db = up(bh); auto dc = up(c); auto dd = zeros<float>(128);
        if (bf) mma_bf16_f32<<<1, 32>>>((const __nv_bfloat16*)da, (const __nv_bfloat16*)db, dc, dd);
        else mma_f16_f32<<<1, 32>>>((const __half*)da, (const __half*)db, dc, dd);
        auto got = down(dd, 128); auto want = gemm(a, b, c, 16, 8, 16);
        bool ok = true; for (int i = 0; i < 128; ++i) ok &= got[i] == want[i];
        report(bf ? "mma_bf16_f32" : "mma_f16_f32", ok, "D differs");
    }
    {   // m16n8k8 f16 accumulator
        auto a8 = gen(128, a_val), b8 = gen(64, b_val), c8 = gen(128, c_val);
        auto da = up(bits16(a8, __float2half)); auto db = up(bits16(b8, __float2half)); auto dc = up(bits16(c8, __float2half)); auto dd = zeros<__half>(128);
        mma_f16_k8_f16<<<1, 32>>>((const __half*)da, (const __half*)db, (const __half*)dc, dd);
        auto got = down(dd, 128); auto want = gemm(a8, b8, c8, 16, 8, 8);
        bool ok = true; for (int i = 0; i < 128; ++i) ok &= (double)__half2float(got[i]) == want[i];
        report("mma_f16_k8_f16", ok, "D differs");
    }
    {   // tf32 m16n8k8
        auto a8 = gen(128, a_val), b8 = gen(64, b_val), c8 = gen(128, c_val);
        auto da = up(a8); auto db = up(b8); auto dc = up(c8); auto dd = zeros<float>(128);
        mma_tf32<<<1, 32>>>(da, db, dc, dd);
        auto got = down(dd, 128); auto want = gemm(a8, b8, c8, 16, 8, 8);
        bool ok = true; for (int i = 0; i < 128; ++i) ok &= got[i] == want[i];
        report("mma_tf32", ok, "D differs");
    }
    for (int sat = 0; sat < 2; ++sat) {  // s8 m16n8k32
        std::vector<signed char> a8(512), b8(256); std::vector<int> c8(128);
        for (int i = 0; i < 512; ++i) a8[i] = i < 256 ? (signed char)(-128 + i % 7) : (signed char)(unsigned char)(i * 13 % 255);
        for (int i = 0; i < 256; ++i) b8[i] = i % 2 == 0 ? (signed char)-128 : (signed char)(unsigned char)(i * 11 % 251);
        for (int i = 0; i < 128; ++i) c8[i] = i < 32 ? INT32_MAX - i : i < 64 ? INT32_MIN + i : i * 1000 - 7;
        auto da = up(a8); auto db = up(b8); auto dc = up(c8); auto dd = zeros<int>(128);
        mma_s8<<<1, 32>>>(da, db, dc, dd, sat);
        auto got = down(dd, 128); bool ok = true;
        for (int r = 0; r < 16; ++r) for (int col = 0; col < 8; ++col) {
            long long acc = c8[r * 8 + col];
            for (int k = 0; k < 32; ++k) acc += (long long)a8[r * 32 + k] * b8[k * 8 + col];
            int want = sat ? (int)(acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc) : (int)(uint32_t)(uint64_t)acc;
            ok &= got[r * 8 + col] == want;
        }
        report(sat ? "mma_s8 satfinite" : "mma_s8 wrapping", ok, "D differs");
    }
    {   // ldmatrix
        std::vector<unsigned short> m(256); for (int i = 0; i < 256; ++i) m[i] = (unsigned short)(i * 3 + 1);
        auto dm = up(m); auto dout = zeros<unsigned>(256); auto dout2 = zeros<unsigned>(64);
        ldmatrix_x4<<<1, 32>>>(dm, dout, dout2);
        auto out = down(dout, 256); auto out2 = down(dout2, 64); bool ok = true;
        auto at = [&](int j, int r, int col) { return (unsigned)m[j * 64 + r * 8 + col]; };
        for (int l = 0; l < 32; ++l) for (int j = 0; j < 4; ++j) {
            int g = l / 4, t = l % 4;
            unsigned plain = at(j, g, 2 * t) | at(j, g, 2 * t + 1) << 16, trans = at(j, 2 * t, g) | at(j, 2 * t + 1, g) << 16;
            ok &= out[l * 8 + j] == plain && out[l * 8 + 4 + j] == trans && (j >= 2 || out2[l * 2 + j] == plain);
        }
        report("ldmatrix_x4", ok, "fragments differ");
    }
    {   // stmatrix
        auto dout = zeros<unsigned short>(512);
        stmatrix_x4<<<1, 32>>>(dout);
        auto out = down(dout, 512); bool ok = true;
        for (int l = 0; l < 32; ++l) for (int j = 0; j < 4; ++j) for (int h = 0; h < 2; ++h) {
            int g = l / 4, t = l % 4; unsigned short v = (unsigned short)(l * 16 + j * 4 + h);
            ok &= out[j * 64 + g * 8 + 2 * t + h] == v && out[256 + j * 64 + (2 * t + h) * 8 + g] == v;
        }
        report("stmatrix_x4", ok, "matrices differ");
    }
    for (int bf = 0; bf < 2; ++bf) {  // wmma f16 / bf16, alpha 2
        auto a16 = gen(256, a_val), b16 = gen(256, b_val), c16 = gen(256, c_val);
        std::vector<float> bcol(256); for (int k = 0; k < 16; ++k) for (int n = 0; n < 16; ++n) bcol[n * 16 + k] = b16[k * 16 + n];
        auto ah = bf ? bits16(a16, __float2bfloat16) : bits16(a16, __float2half);
        auto bh = bf ? bits16(bcol, __float2bfloat16) : bits16(bcol, __float2half);
        auto da = up(ah); auto db = up(bh); auto dc = up(c16); auto dd = zeros<float>(256);
        if (bf) wmma_bf16<<<1, 32>>>((const __nv_bfloat16*)da, (const __nv_bfloat16*)db, dc, dd, 2.0f);
        else wmma_f16<<<1, 32>>>((const __half*)da, (const __half*)db, dc, dd, 2.0f);
        auto got = down(dd, 256); auto ab = gemm(a16, b16, std::vector<float>(256, 0.0f), 16, 16, 16);
        bool ok = true; for (int i = 0; i < 256; ++i) ok &= got[i] == 2.0 * ab[i] + c16[i];
        report(bf ? "wmma_bf16" : "wmma_f16", ok, "D differs");
    }
    {   // wmma f16 accumulator, col-major store, stride 24
        auto a16 = gen(256, a_val), b16 = gen(256, b_val);
        std::vector<float> acol(256); for (int m = 0; m < 16; ++m) for (int k = 0; k < 16; ++k) acol[k * 16 + m] = a16[m * 16 + k];
        auto da = up(bits16(acol, __float2half)); auto db = up(bits16(b16, __float2half)); auto dd = zeros<__half>(16 * 24);
        wmma_f16_acc<<<1, 32>>>((const __half*)da, (const __half*)db, dd);
        auto got = down(dd, 16 * 24); auto want = gemm(a16, b16, std::vector<float>(256, 1.0f), 16, 16, 16);
        bool ok = true; for (int n = 0; n < 16; ++n) for (int m = 0; m < 24; ++m) ok &= (double)__half2float(got[n * 24 + m]) == (m < 16 ? want[m * 16 + n] : 0.0);
        report("wmma_f16_acc", ok, "D differs");
    }
    for (int u = 0; u < 2; ++u) {  // wmma s8 / u8
        std::vector<unsigned char> a8(256), b8(256); std::vector<int> c8(256);
        for (int i = 0; i < 256; ++i) { a8[i] = (unsigned char)(i * 37 % 256); b8[i] = (unsigned char)(i * 91 % 256); c8[i] = i * 1000 - 128000; }
        auto da = up(a8); auto db = up(b8); auto dc = up(c8); auto dd = zeros<int>(256);
        if (u) wmma_u8<<<1, 32>>>(da, db, dc, dd); else wmma_s8<<<1, 32>>>((const signed char*)da, (const signed char*)db, dc, dd);
        auto got = down(dd, 256); bool ok = true;
        for (int m = 0; m < 16; ++m) for (int n = 0; n < 16; ++n) {
            long long acc = c8[m * 16 + n];
            for (int k = 0; k < 16; ++k) acc += u ? (long long)a8[m * 16 + k] * b8[n * 16 + k] : (long long)(signed char)a8[m * 16 + k] * (signed char)b8[n * 16 + k];
            ok &= got[m * 16 + n] == (int)acc;
        }
        report(u ? "wmma_u8" : "wmma_s8", ok, "D differs");
    }
    {   // wmma tf32: inputs rounded by cvt.rna.tf32.f32; sums rounded once in the executor
        std::vector<float> a8(128), b8(128); auto c16 = gen(256, c_val);
        for (int i = 0; i < 128; ++i) { float e; uint32_t eb = 0x33800000; memcpy(&e, &eb, 4); a8[i] = a_val(i) + e * (float)(i % 3); b8[i] = b_val(i) * (1.0f + 1.1920929e-7f * (float)(i % 5) * 1000.0f); }
        auto tf = [](float x) { uint32_t u; memcpy(&u, &x, 4); u = (u + 0x1000) & 0xffffe000u; float y; memcpy(&y, &u, 4); return y; };
        std::vector<float> ar(128), br(128); for (int i = 0; i < 128; ++i) { ar[i] = tf(a8[i]); br[i] = tf(b8[i]); }
        auto da = up(a8); auto db = up(b8); auto dc = up(c16); auto dd = zeros<float>(256);
        wmma_tf32<<<1, 32>>>(da, db, dc, dd);
        auto got = down(dd, 256); auto want = gemm(ar, br, c16, 16, 16, 8);
        int exact = 0; double worst = 0; for (int i = 0; i < 256; ++i) { exact += got[i] == (float)want[i]; worst = fmax(worst, fabs(got[i] - want[i])); }
        printf("wmma_tf32: %d of 256 equal to the executor's single rounding, largest difference %g\n", exact, worst);
        report("wmma_tf32", worst < 1e-5, "beyond accumulation rounding");
    }
    {   // wmma f64
        std::vector<double> a8(32), b8(32), bcol(32), c8(64);
        for (int i = 0; i < 32; ++i) { a8[i] = a_val(i); b8[i] = b_val(i); }
        for (int k = 0; k < 4; ++k) for (int n = 0; n < 8; ++n) bcol[n * 4 + k] = b8[k * 8 + n];
        for (int i = 0; i < 64; ++i) c8[i] = c_val(i);
        auto da = up(a8); auto db = up(bcol); auto dc = up(c8); auto dd = zeros<double>(64);
        wmma_f64<<<1, 32>>>(da, db, dc, dd);
        auto got = down(dd, 64); bool ok = true;
        for (int m = 0; m < 8; ++m) for (int n = 0; n < 8; ++n) { double w = c8[m * 8 + n]; for (int k = 0; k < 4; ++k) w += a8[m * 4 + k] * b8[k * 8 + n]; ok &= got[m * 8 + n] == w; }
        report("wmma_f64", ok, "D differs");
    }
    {   // mbarrier + cp.async.bulk
        int blocks = 3; std::vector<int> src(256 * blocks); for (int i = 0; i < 256 * blocks; ++i) src[i] = i * 3 - 700;
        auto ds = up(src); auto dout = zeros<int>(256 * blocks); auto dcopy = zeros<int>(256 * blocks);
        bulk_copy<<<blocks, 64>>>(ds, dout, dcopy);
        auto out = down(dout, 256 * blocks); auto copy = down(dcopy, 256 * blocks); bool ok = true;
        for (int i = 0; i < 256 * blocks; ++i) ok &= out[i] == src[i] && copy[i] == 2 * src[i];
        report("bulk_copy", ok, "copies differ");
        std::vector<int> in(64); for (int i = 0; i < 64; ++i) in[i] = i * i - 50;
        auto din = up(in); auto dout2 = zeros<int>(128);
        arrive_wait<<<1, 64>>>(din, dout2);
        auto o2 = down(dout2, 128); ok = true;
        for (int ph = 0; ph < 2; ++ph) for (int t = 0; t < 64; ++t) { int u = t ^ 32; ok &= o2[ph * 64 + t] == (u >= 32 ? in[u] * (ph + 1) : in[u] + ph); }
        report("arrive_wait", ok, "phases differ");
    }
    {   // indirect calls
        int n = 100; std::vector<int> in(n); for (int i = 0; i < n; ++i) in[i] = i * 7 + i / 3;
        auto din = up(in); auto dout = zeros<int>(n);
        through_table<<<2, 64>>>(din, dout, n);
        auto out = down(dout, n); bool ok = true;
        for (int i = 0; i < n; ++i) ok &= out[i] == (in[i] % 3 == 0 ? 2 * i : in[i] % 3 == 1 ? i * i : -i);
        report("through_table", ok, "results differ");
        for (int which = 0; which < 2; ++which) {
            auto d2 = zeros<int>(32); chosen<<<1, 32>>>(d2, which); auto o = down(d2, 32); ok = true;
            for (int t = 0; t < 32; ++t) ok &= o[t] == (which == 0 ? 2 * t : t * t);
            report(which ? "chosen square" : "chosen twice", ok, "results differ");
        }
    }
    {   // 128-bit loads, moves and stores
        std::vector<unsigned long long> in(64); for (int i = 0; i < 64; ++i) in[i] = (unsigned long long)i * 0x9e3779b97f4a7c15ull;
        auto din = up(in); auto dout = zeros<unsigned long long>(64);
        swap128<<<1, 32>>>(din, dout, 0);
        auto out = down(dout, 64); bool ok = true;
        for (int t = 0; t < 32; ++t) ok &= out[2 * t] == in[2 * t + 1] && out[2 * t + 1] == in[2 * t];
        report("swap128", ok, "halves differ");
    }
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
