//! `.f32` arithmetic (PTX ISA "Floating-point instructions": add, sub, mul, fma, div, rcp, sqrt,
//! rsqrt, sin, cos, lg2, ex2, tanh, min, max, abs, neg, copysign, testp).

use super::soft::{self, F32};
use super::{DivKind, Rnd, TestP};
use core::cmp::Ordering;

/// `.ftz` on an input: a subnormal becomes the zero of its sign.
#[inline]
pub(crate) fn flush_in(a: f32, ftz: bool) -> u64 {
    let b = a.to_bits() as u64;
    if ftz { F32.flush(b) } else { b }
}

/// A result of Rust's own arithmetic (IEEE 754 round-to-nearest-even, the `.rn` fast path),
/// with a NaN made canonical.
#[inline]
fn canon(v: f32) -> u64 {
    if v.is_nan() {
        F32.nan()
    } else {
        v.to_bits() as u64
    }
}

#[inline]
fn val(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

/// `.ftz` then `.sat` on a result given as bits.
#[inline]
pub(crate) fn finish(bits: u64, ftz: bool, sat: bool) -> f32 {
    let b = if ftz { F32.flush(bits) } else { bits };
    let b = if sat { F32.saturate(b) } else { b };
    f32::from_bits(b as u32)
}

/// `add{.rnd}{.ftz}{.sat}.f32 d, a, b`: `a + b` rounded once in `rnd` (IEEE 754).
#[inline]
pub fn add_f32(a: f32, b: f32, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    let (x, y) = (flush_in(a, ftz), flush_in(b, ftz));
    let r = match rnd {
        Rnd::Rn => canon(val(x) + val(y)),
        _ => soft::add(x, y, F32, rnd),
    };
    finish(r, ftz, sat)
}

/// `sub{.rnd}{.ftz}{.sat}.f32 d, a, b`: `a - b` rounded once in `rnd` (IEEE 754).
#[inline]
pub fn sub_f32(a: f32, b: f32, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    let (x, y) = (flush_in(a, ftz), flush_in(b, ftz));
    let r = match rnd {
        Rnd::Rn => canon(val(x) - val(y)),
        _ => soft::add(x, y ^ F32.sign_bit(), F32, rnd),
    };
    finish(r, ftz, sat)
}

/// `mul{.rnd}{.ftz}{.sat}.f32 d, a, b`: `a * b` rounded once in `rnd` (IEEE 754).
#[inline]
pub fn mul_f32(a: f32, b: f32, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    let (x, y) = (flush_in(a, ftz), flush_in(b, ftz));
    let r = match rnd {
        Rnd::Rn => canon(val(x) * val(y)),
        _ => soft::mul(x, y, F32, rnd),
    };
    finish(r, ftz, sat)
}

/// `fma.rnd{.ftz}{.sat}.f32 d, a, b, c` (and `mad.rnd.f32`): `a * b + c` with one rounding.
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    let r = soft::fma(
        flush_in(a, ftz),
        flush_in(b, ftz),
        flush_in(c, ftz),
        F32,
        rnd,
    );
    finish(r, ftz, sat)
}

/// `div{.approx,.full,.rnd}{.ftz}.f32 d, a, b` (PTX ISA "div (floating point)").
///
/// `.rnd` is IEEE 754 exact. `.full` (max 2 ulp in PTX) is computed correctly rounded. `.approx`
/// follows PTX's definition `a * (1/b)`: the reciprocal rounded to nearest, then the product
/// rounded to nearest (max 2 ulp for |b| in [2^-126, 2^126]); for 2^126 < |b| < 2^128 it gives 0
/// (NaN when `a` is infinite), as PTX documents.
pub fn div_f32(a: f32, b: f32, kind: DivKind, ftz: bool) -> f32 {
    let (ab, bb) = (flush_in(a, ftz), flush_in(b, ftz));
    match kind {
        DivKind::Rnd(Rnd::Rn) | DivKind::Full => finish(canon(val(ab) / val(bb)), ftz, false),
        DivKind::Rnd(rnd) => finish(soft::div(ab, bb, F32, rnd), ftz, false),
        DivKind::Approx => {
            let mag = f32::from_bits((bb as u32) & 0x7fff_ffff);
            // 2^126 < |b| < 2^128: PTX's documented result of the reciprocal underflowing.
            if mag > f32::from_bits(0x7e80_0000) && mag < f32::INFINITY {
                let fa = f32::from_bits(ab as u32);
                if fa.is_infinite() || fa.is_nan() {
                    return f32::from_bits(F32.nan() as u32);
                }
                let sign = (ab ^ bb) & F32.sign_bit();
                return f32::from_bits(sign as u32);
            }
            let r = soft::div(0x3f80_0000, bb, F32, Rnd::Rn);
            let r = if ftz { F32.flush(r) } else { r };
            finish(soft::mul(ab, r, F32, Rnd::Rn), ftz, false)
        }
    }
}

/// `sqrt{.approx,.rnd}{.ftz}.f32 d, a`: `rnd = None` is `.approx` (PTX: max relative error
/// 2^-23; here correctly rounded, which is within it); `Some(rnd)` is IEEE 754 exact.
/// sqrt(−0) = −0, sqrt(negative) = NaN.
#[inline]
pub fn sqrt_f32(a: f32, rnd: Option<Rnd>, ftz: bool) -> f32 {
    finish(
        soft::sqrt(flush_in(a, ftz), F32, rnd.unwrap_or(Rnd::Rn)),
        ftz,
        false,
    )
}

/// `rcp{.approx,.rnd}{.ftz}.f32 d, a`: `1/a`. `rnd = None` is `.approx` (PTX: max 1 ulp; here
/// correctly rounded); `Some(rnd)` is IEEE 754 exact. rcp(±0) = ±∞, rcp(±∞) = ±0.
#[inline]
pub fn rcp_f32(a: f32, rnd: Option<Rnd>, ftz: bool) -> f32 {
    let r = soft::div(0x3f80_0000, flush_in(a, ftz), F32, rnd.unwrap_or(Rnd::Rn));
    finish(r, ftz, false)
}

/// Rounds an f64 approximation to f32 (nearest), canonicalizing NaN and applying `.ftz`.
#[inline]
fn approx_result(x: f64, ftz: bool) -> f32 {
    if x.is_nan() {
        return f32::from_bits(F32.nan() as u32);
    }
    finish((x as f32).to_bits() as u64, ftz, false)
}

/// `rsqrt.approx{.ftz}.f32 d, a`: `1/sqrt(a)`, PTX max relative error 2^-22.9; here computed in
/// f64 and rounded to nearest (within 1 ulp, not the hardware's bits). rsqrt(±0) = ±∞,
/// rsqrt(+∞) = +0, rsqrt(negative) = NaN.
pub fn rsqrt_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    if x == 0.0 {
        return f32::from_bits((x.to_bits() & 0x8000_0000) | 0x7f80_0000);
    }
    approx_result(1.0 / libm::sqrt(x as f64), ftz)
}

/// `ex2.approx{.ftz}.f32 d, a`: `2^a`, PTX max 2 ulp over the full range; here computed in f64
/// and rounded to nearest (within 1 ulp). ex2(−∞) = +0, ex2(+∞) = +∞.
pub fn ex2_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    approx_result(libm::exp2(x as f64), ftz)
}

/// `lg2.approx{.ftz}.f32 d, a`: `log2(a)`, PTX max absolute error 2^-22.6 for a in (0.5, 2),
/// relative 2^-22 elsewhere; here computed in f64 and rounded to nearest. lg2(±0) = −∞,
/// lg2(negative) = NaN, lg2(+∞) = +∞.
pub fn lg2_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    approx_result(libm::log2(x as f64), ftz)
}

/// `sin.approx{.ftz}.f32 d, a`: PTX max absolute error 2^-20.5 in [−100π, 100π]; here computed
/// with f64 `libm::sin` (accurate for every argument, unlike the hardware far outside that
/// range). sin(±∞) = NaN, sin(±0) = ±0.
pub fn sin_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    approx_result(libm::sin(x as f64), ftz)
}

/// `cos.approx{.ftz}.f32 d, a`: PTX max absolute error 2^-20.5 in [−100π, 100π]; here f64
/// `libm::cos` rounded to nearest. cos(±∞) = NaN.
pub fn cos_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    approx_result(libm::cos(x as f64), ftz)
}

/// `tanh.approx.f32 d, a` (sm_75+): PTX max relative error 2^-11; here f64 `libm::tanh`
/// rounded to nearest (much closer than the hardware). tanh(±0) = ±0, tanh(±∞) = ±1.
pub fn tanh_f32(a: f32) -> f32 {
    approx_result(libm::tanh(a as f64), false)
}

/// Orders two non-NaN values with −0 below +0 (PTX's min/max treat −0.0 < +0.0).
#[inline]
fn total_lt(a: f32, b: f32) -> bool {
    a < b || (a == b && a.is_sign_negative() && !b.is_sign_negative())
}

/// `min{.ftz}{.NaN}.f32 d, a, b`: with one NaN operand the other is returned unless `nan`
/// (`.NaN`, sm_80+) is set, when the result is the canonical NaN; two NaNs give the canonical
/// NaN; −0.0 is less than +0.0.
pub fn min_f32(a: f32, b: f32, ftz: bool, nan: bool) -> f32 {
    minmax(a, b, ftz, nan, true)
}

/// `max{.ftz}{.NaN}.f32 d, a, b`: as [`min_f32`], returning the larger.
pub fn max_f32(a: f32, b: f32, ftz: bool, nan: bool) -> f32 {
    minmax(a, b, ftz, nan, false)
}

fn minmax(a: f32, b: f32, ftz: bool, nan: bool, min: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    let y = f32::from_bits(flush_in(b, ftz) as u32);
    let cnan = f32::from_bits(F32.nan() as u32);
    match (x.is_nan(), y.is_nan()) {
        (true, true) => cnan,
        (true, false) | (false, true) if nan => cnan,
        (true, false) => y,
        (false, true) => x,
        (false, false) => {
            if total_lt(x, y) == min {
                x
            } else {
                y
            }
        }
    }
}

/// `abs{.ftz}.f32 d, a`: clears the sign bit (a NaN keeps its payload); `.ftz` flushes a
/// subnormal to +0.
#[inline]
pub fn abs_f32(a: f32, ftz: bool) -> f32 {
    f32::from_bits(flush_in(a, ftz) as u32 & 0x7fff_ffff)
}

/// `neg{.ftz}.f32 d, a`: flips the sign bit; `.ftz` flushes a subnormal first.
#[inline]
pub fn neg_f32(a: f32, ftz: bool) -> f32 {
    f32::from_bits(flush_in(a, ftz) as u32 ^ 0x8000_0000)
}

/// `copysign.f32 d, a, b`: `b` with the sign of `a` (note PTX's operand order).
#[inline]
pub fn copysign_f32(a: f32, b: f32) -> f32 {
    f32::from_bits((b.to_bits() & 0x7fff_ffff) | (a.to_bits() & 0x8000_0000))
}

/// `testp.op.f32 p, a`.
#[inline]
pub fn testp_f32(a: f32, op: TestP) -> bool {
    testp_bits(a.to_bits() as u64, soft::F32, op)
}

/// `testp` over the bits of any format.
#[inline]
pub(crate) fn testp_bits(bits: u64, f: soft::Fmt, op: TestP) -> bool {
    let e = f.exp_field(bits);
    let all = (1u64 << f.w) - 1;
    match op {
        TestP::Finite => e != all,
        TestP::Infinite => e == all && bits & f.frac_mask() == 0,
        TestP::Number => !f.is_nan(bits),
        TestP::NotANumber => f.is_nan(bits),
        TestP::Normal => e != 0 && e != all,
        TestP::Subnormal => f.is_subnormal(bits),
    }
}

/// The order of `a` and `b` for `setp.cmp{.ftz}.f32` (`None`: unordered, a NaN is involved;
/// −0.0 equals +0.0).
#[inline]
pub fn cmp_f32(a: f32, b: f32, ftz: bool) -> Option<Ordering> {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    let y = f32::from_bits(flush_in(b, ftz) as u32);
    x.partial_cmp(&y)
}

/// `min.xorsign.abs{.ftz}{.NaN}.f32` (`max = false`) and `max.xorsign.abs…` (`max = true`),
/// sm_86+: the minimum (maximum) of |a| and |b| under the rules of [`min_f32`], with the sign
/// bit set to `sign(a) XOR sign(b)`; a NaN result is the canonical NaN.
pub fn xorsign_abs_f32(a: f32, b: f32, ftz: bool, nan: bool, max: bool) -> f32 {
    let sign = (a.to_bits() ^ b.to_bits()) & 0x8000_0000;
    let m = minmax(abs_f32(a, ftz), abs_f32(b, ftz), false, nan, !max);
    if m.is_nan() {
        m
    } else {
        f32::from_bits(m.to_bits() | sign)
    }
}
