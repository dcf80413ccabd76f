// The approximate functions (PTX ISA 9.2 sin cos ex2 lg2 rcp rsqrt sqrt tanh .approx.f32, and
// CUDA's intrinsics built on them: __sinf __cosf __expf __exp10f __logf __log2f __powf
// __fdividef), compared within twice the documented error (the GPU's value and the mock's each
// within it of the exact one), not bitwise. The CUDA C++ Programming Guide's "Intrinsic
// Functions" table gives the bounds: __sinf/__cosf 2^-21.41 absolute on [-pi, pi]; __expf
// 2 + floor(|1.173 x|) ulp, __exp10f 2 + floor(|2.97 x|) ulp; __logf/__log2f 2^-21.41 / 2^-22
// absolute on [0.5, 2], else 3 / 2 ulp; __fdividef 2 ulp for |y| in [2^-126, 2^126]; PTX's own
// sections give ex2 2 ulp, rcp/sqrt 1 ulp, rsqrt 2^-22.9 relative, tanh 2^-10.987 relative.
// Threads 0..23 take f32_special() (±0, ±inf, NaN: exact answers), the others values in the
// range each bound holds for.
//! kernel approx_sincos 1 256 512 approx 4 1e-6
//! kernel approx_ex2 1 256 256 approx 4
//! kernel approx_exp 1 256 768 approx 64
//! kernel approx_log 1 256 768 approx 8 1.5e-6
//! kernel approx_rcp 1 256 1024 approx 4
//! kernel approx_tanh 1 256 256 approx 8192
#include "inputs.cuh"

#undef THREADS
#define THREADS 256

// A value in [lo, hi) from thread t's hash, or the special value for t < NSPECIAL.
__device__ float in_range(unsigned t, unsigned k, float lo, float hi) {
  if (t < NSPECIAL) return __uint_as_float(f32_special(t));
  float u = (float)(mix32(t * 5u + k + 0x6a09e667u) >> 8) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

#define F(x) __float_as_uint(x)

__device__ __forceinline__ float asm_ex2(float a) {
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float asm_lg2(float a) {
  float r;
  asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float asm_rcp(float a) {
  float r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float asm_rsqrt(float a) {
  float r;
  asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float asm_sqrt(float a) {
  float r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float asm_tanh(float a) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

extern "C" __global__ void approx_sincos(unsigned *out) {
  unsigned t = threadIdx.x;
  float x = in_range(t, 0, -3.14159265f, 3.14159265f);
  PUT(0, F(__sinf(x)));
  PUT(1, F(__cosf(x)));
}

extern "C" __global__ void approx_ex2(unsigned *out) {
  unsigned t = threadIdx.x;
  PUT(0, F(asm_ex2(in_range(t, 0, -126.0f, 127.0f))));
}

extern "C" __global__ void approx_exp(unsigned *out) {
  unsigned t = threadIdx.x;
  PUT(0, F(__expf(in_range(t, 0, -10.0f, 10.0f))));
  PUT(1, F(__exp10f(in_range(t, 1, -4.0f, 4.0f))));
  PUT(2, F(__powf(in_range(t, 2, 0.5f, 4.0f), in_range(t, 3, -4.0f, 4.0f))));
}

extern "C" __global__ void approx_log(unsigned *out) {
  unsigned t = threadIdx.x;
  PUT(0, F(__logf(in_range(t, 0, 0.5f, 2.0f))));
  PUT(1, F(__log2f(in_range(t, 1, 0.5f, 2.0f))));
  PUT(2, F(asm_lg2(in_range(t, 2, 1e-30f, 1e30f))));
}

extern "C" __global__ void approx_rcp(unsigned *out) {
  unsigned t = threadIdx.x;
  float x = in_range(t, 0, 1e-30f, 1e30f);
  PUT(0, F(asm_rcp(x)));
  PUT(1, F(asm_rsqrt(x)));
  PUT(2, F(asm_sqrt(x)));
  PUT(3, F(__fdividef(in_range(t, 1, -1e10f, 1e10f), in_range(t, 2, 1e-10f, 1e10f))));
}

extern "C" __global__ void approx_tanh(unsigned *out) {
  unsigned t = threadIdx.x;
  PUT(0, F(asm_tanh(in_range(t, 0, -10.0f, 10.0f))));
}
