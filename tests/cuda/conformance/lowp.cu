// Narrow formats (PTX ISA 9.2 "cvt" with .e4m3x2/.e5m2x2 and .satfinite, .tf32, "Alternate
// floating-point formats"), through cuda_fp8.h's conversions (which NVRTC compiles to cvt on
// sm_90, or to integer code where PTX has no instruction): f32, f64, f16 and bf16 to E4M3 and
// E5M2 with and without saturation to the largest finite value, every one of the 256 codes of
// each fp8 format back to f16, f32 to TF32 (cvt.rna.tf32.f32); then the f16 approximations
// tanh.approx.f16 and ex2.approx.f16 (compared as f32 within 2 f16 ulps = 2^14 f32 ulps, twice
// PTX's bound), on f32_special()/hashed operands (inputs.cuh).
//! kernel lowp 3 256 9216
//! kernel lowp_approx 1 256 512 approx 16384
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "inputs.cuh"

__device__ __forceinline__ unsigned tf32_rna(float a) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(a));
  return r;
}

// 12 results per thread.
extern "C" __global__ void lowp(unsigned *out) {
  unsigned t = tid_global();
  float f = __uint_as_float(f32_operand(t, 0)), g = __uint_as_float(f32_operand(t, 1));
  double d = __longlong_as_double((long long)f64_operand(t, 2));
  __half_raw h;
  h.x = (unsigned short)f32_operand(t, 1);
  __nv_bfloat16_raw b;
  b.x = (unsigned short)(f32_operand(t, 0) >> 16);
  PUT(0, __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3));
  PUT(1, __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3));
  PUT(2, __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2));
  PUT(3, __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2));
  PUT(4, __nv_cvt_float2_to_fp8x2(make_float2(f, g), __NV_SATFINITE, __NV_E4M3));
  PUT(5, __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(t & 0xffu), __NV_E4M3).x);
  PUT(6, __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(t & 0xffu), __NV_E5M2).x);
  PUT(7, __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3));
  PUT(8, __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E5M2));
  PUT(9, __nv_cvt_double_to_fp8(d, __NV_SATFINITE, __NV_E4M3));
  PUT(10, tf32_rna(f));
  PUT(11, tf32_rna(g));
}

__device__ __forceinline__ unsigned short ex2_f16(unsigned short a) {
  unsigned short r;
  asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(a));
  return r;
}

// 2 results per thread: f16 values widened to f32 (exactly).
extern "C" __global__ void lowp_approx(unsigned *out) {
  unsigned t = threadIdx.x;
  // Specials, then f16 values in [-8, 8).
  unsigned short x = t < NSPECIAL ? (unsigned short)(f32_special(t) >> 16)
                                  : __half_as_ushort(__float2half((float)(int)(mix32(t) % 4096u) / 256.0f - 8.0f));
  __half hx = __ushort_as_half(x);
  out[t] = __float_as_uint(__half2float(htanh_approx(hx)));
  out[256 + t] = __float_as_uint(__half2float(__ushort_as_half(ex2_f16(x))));
}
