// Conversions (PTX ISA 9.2 "cvt"): float to integer in every rounding mode (.rni .rzi .rmi
// .rpi), saturating to the destination's range, NaN to 0; integer to float (.rn .rz .rm .rp);
// f64 to f32 in every mode; f32 to f64; .sat on float to float; the float to integer
// round-to-integral forms (cvt.rni.f32.f32 ...), on f32_special()/f64_special() (±0, ±inf,
// NaN, halfway cases, the largest value) and hashed operands (inputs.cuh).
//! kernel cvt 3 256 43008
#include "inputs.cuh"

__device__ __forceinline__ float sat_f32(float a) {
  float r;
  asm("cvt.sat.f32.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ float rni_f32(float a) {
  float r;
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ short f2s16_rni(float a) {
  short r;
  asm("cvt.rni.s16.f32 %0, %1;" : "=h"(r) : "f"(a));
  return r;
}
__device__ __forceinline__ unsigned char f2u8_rzi(float a) {
  unsigned short r;
  asm("cvt.rzi.u8.f32 %0, %1;" : "=h"(r) : "f"(a));
  return (unsigned char)r;
}
__device__ __forceinline__ int s8_of(unsigned a) {
  int r;
  asm("cvt.s32.s8 %0, %1;" : "=r"(r) : "r"(a));
  return r;
}
__device__ __forceinline__ unsigned u16_sat_of_s32(int a) {
  unsigned short r;
  asm("cvt.sat.u16.s32 %0, %1;" : "=h"(r) : "r"(a));
  return r;
}

#define F(x) __float_as_uint(x)
#define LO(x) (unsigned)(unsigned long long)(x)
#define HI(x) (unsigned)((unsigned long long)(x) >> 32)

// 56 results per thread.
extern "C" __global__ void cvt(unsigned *out) {
  unsigned t = tid_global();
  float f = __uint_as_float(f32_operand(t, 0));
  // Large and halfway values for the integer conversions: f scaled by powers of two too.
  float g = __uint_as_float(f32_operand(t, 1));
  double d = __longlong_as_double((long long)f64_operand(t, 0));
  unsigned i = int_operand(t, 0);
  unsigned long long l = ((unsigned long long)int_operand(t, 1) << 32) | int_operand(t, 2);
  PUT(0, (unsigned)__float2int_rn(f));
  PUT(1, (unsigned)__float2int_rz(f));
  PUT(2, (unsigned)__float2int_rd(f));
  PUT(3, (unsigned)__float2int_ru(f));
  PUT(4, __float2uint_rn(f));
  PUT(5, __float2uint_rz(f));
  PUT(6, __float2uint_rd(f));
  PUT(7, __float2uint_ru(f));
  long long ll = __float2ll_rn(g);
  PUT(8, LO(ll));
  PUT(9, HI(ll));
  ll = __float2ll_rz(g);
  PUT(10, LO(ll) ^ HI(ll));
  ll = __float2ll_rd(g);
  PUT(11, LO(ll) ^ HI(ll));
  ll = __float2ll_ru(g);
  PUT(12, LO(ll) ^ HI(ll));
  unsigned long long ull = __float2ull_rn(g);
  PUT(13, LO(ull));
  PUT(14, HI(ull));
  PUT(15, (unsigned)__double2int_rn(d));
  PUT(16, (unsigned)__double2int_rz(d));
  PUT(17, (unsigned)__double2int_rd(d));
  PUT(18, (unsigned)__double2int_ru(d));
  PUT(19, __double2uint_rn(d));
  ll = __double2ll_rn(d);
  PUT(20, LO(ll));
  PUT(21, HI(ll));
  ull = __double2ull_rz(d);
  PUT(22, LO(ull));
  PUT(23, HI(ull));
  PUT(24, F(__double2float_rn(d)));
  PUT(25, F(__double2float_rz(d)));
  PUT(26, F(__double2float_rd(d)));
  PUT(27, F(__double2float_ru(d)));
  double e = (double)f;
  PUT(28, LO(__double_as_longlong(e)));
  PUT(29, HI(__double_as_longlong(e)));
  PUT(30, F(__int2float_rn((int)i)));
  PUT(31, F(__int2float_rz((int)i)));
  PUT(32, F(__int2float_rd((int)i)));
  PUT(33, F(__int2float_ru((int)i)));
  PUT(34, F(__uint2float_rn(i)));
  PUT(35, F(__uint2float_rz(i)));
  PUT(36, F(__ll2float_rn((long long)l)));
  PUT(37, F(__ll2float_rd((long long)l)));
  PUT(38, F(__ull2float_ru(l)));
  PUT(39, F(__ull2float_rz(l)));
  double dl = __ll2double_rn((long long)l);
  PUT(40, LO(__double_as_longlong(dl)));
  PUT(41, HI(__double_as_longlong(dl)));
  dl = __ll2double_rz((long long)l);
  PUT(42, HI(__double_as_longlong(dl)) ^ LO(__double_as_longlong(dl)));
  dl = __ull2double_ru(l);
  PUT(43, HI(__double_as_longlong(dl)) ^ LO(__double_as_longlong(dl)));
  dl = __ull2double_rd(l);
  PUT(44, HI(__double_as_longlong(dl)) ^ LO(__double_as_longlong(dl)));
  dl = __int2double_rn((int)i);
  PUT(45, HI(__double_as_longlong(dl)));
  PUT(46, F(sat_f32(f)));
  PUT(47, F(rni_f32(f)));
  PUT(48, F(truncf(f)));
  PUT(49, F(floorf(f)));
  PUT(50, F(ceilf(f)));
  PUT(51, F(rintf(g)));
  PUT(52, (unsigned)(int)f2s16_rni(f));
  PUT(53, f2u8_rzi(g));
  PUT(54, (unsigned)s8_of(i));
  PUT(55, u16_sat_of_s32((int)i));
}
