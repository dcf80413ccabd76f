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

/// `.ftz` detects a subnormal result before rounding, as an H100 does: an exact result below
/// 2^-126 that rounds up to the smallest normal `±0x00800000` is flushed to the zero of its sign
/// (`tests/data/conformance/fp32_ftz.txt`, `fp32.6445`: 2^-126 × (1 − 2^-24) = `00000000`
/// under `mul.rn.ftz`). `exact_rz` is the operation rounded toward zero: below 2^-126 exactly
/// when the exact result is.
#[inline]
fn tiny_before_rounding(bits: u64, ftz: bool, exact_rz: impl FnOnce() -> u64) -> u64 {
    if ftz && bits & 0x7fff_ffff == 0x0080_0000 && exact_rz() & 0x7fff_ffff < 0x0080_0000 {
        bits & F32.sign_bit()
    } else {
        bits
    }
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
    let r = tiny_before_rounding(r, ftz, || soft::mul(x, y, F32, Rnd::Rz));
    finish(r, ftz, sat)
}

/// `fma.rnd{.ftz}{.sat}.f32 d, a, b, c` (and `mad.rnd.f32`): `a * b + c` with one rounding.
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    let (x, y, z) = (flush_in(a, ftz), flush_in(b, ftz), flush_in(c, ftz));
    let r = match rnd {
        Rnd::Rn => fma_rn_fast(x, y, z).unwrap_or_else(|| soft::fma(x, y, z, F32, rnd)),
        _ => soft::fma(x, y, z, F32, rnd),
    };
    let r = tiny_before_rounding(r, ftz, || soft::fma(x, y, z, F32, Rnd::Rz));
    finish(r, ftz, sat)
}

/// `fma.rn.f32` through the host's f64 when that is provably the correctly rounded result
/// (the hot path of every matrix product): `x * y` is exact in f64 (24 + 24 bits), the sum
/// is rounded once to f64 and then to f32. Double rounding can differ from one rounding only
/// when the f64 sum is exactly halfway between two f32 values (its 29 low mantissa bits
/// `1000…0`; Boldo and Melquiond, "When double rounding is odd"), or when the result is
/// subnormal in f32 (fewer bits, so the halfway pattern is longer): those, infinities and NaNs
/// are left to [`soft::fma`] (`None`).
#[inline]
fn fma_rn_fast(x: u64, y: u64, z: u64) -> Option<u64> {
    let s = f64::from(val(x)) * f64::from(val(y)) + f64::from(val(z));
    let bits = s.to_bits();
    let exp = (bits >> 52) & 0x7ff;
    // An exact zero: `x * y` is exact and a sum of two f64 values never underflows to zero, so
    // the host's sign of zero (IEEE 754's rule for rounding to nearest) is fma's.
    if bits << 1 == 0 {
        return Some(u64::from((s as f32).to_bits()));
    }
    // f32's smallest normal is 2^-126 (biased f64 exponent 1023 - 126); 0x7ff: infinity, NaN.
    if exp < 1023 - 126 || exp == 0x7ff || bits & 0x1fff_ffff == 0x1000_0000 {
        return None;
    }
    // Past f32's range: rounding to nearest gives the infinity of its sign, as IEEE 754 does.
    Some(u64::from((s as f32).to_bits()))
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
        DivKind::Rnd(Rnd::Rn) | DivKind::Full => {
            let r = canon(val(ab) / val(bb));
            let r = tiny_before_rounding(r, ftz, || soft::div(ab, bb, F32, Rnd::Rz));
            finish(r, ftz, false)
        }
        DivKind::Rnd(rnd) => {
            let r = soft::div(ab, bb, F32, rnd);
            let r = tiny_before_rounding(r, ftz, || soft::div(ab, bb, F32, Rnd::Rz));
            finish(r, ftz, false)
        }
        DivKind::Approx => {
            // Without `.ftz` a subnormal divisor is scaled into the normal range together
            // with the dividend (by 2^24, exact), as on an H100: `approx.txt`,
            // `approx_rcp.783`: `__fdividef(2^-149, 2^-149)` = 1, not 2^-149 × (1/2^-149 = ∞).
            let (ab, bb) = if !ftz && F32.is_subnormal(bb) {
                const TWO_24: u64 = 0x4b80_0000;
                (
                    soft::mul(ab, TWO_24, F32, Rnd::Rn),
                    soft::mul(bb, TWO_24, F32, Rnd::Rn),
                )
            } else {
                (ab, bb)
            };
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
    let x = flush_in(a, ftz);
    let r = soft::div(0x3f80_0000, x, F32, rnd.unwrap_or(Rnd::Rn));
    let r = tiny_before_rounding(r, ftz, || soft::div(0x3f80_0000, x, F32, Rnd::Rz));
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

/// The argument reduction of `sin.approx.f32`/`cos.approx.f32` on an H100: `x` times 1/(2π)
/// rounded to f32 toward zero (the FMUL.RZ ptxas emits before MUFU.SIN/COS), whose fraction
/// in [−½, ½] is the angle in turns (exact in f64). Far outside [−100π, 100π] this is what
/// the board answers, not the true sine: `tests/data/conformance/approx.txt`,
/// `approx_sincos.17`: sin(`7f7fffff`) = 0 (x/(2π) an integer in f32), `approx_sincos.23`:
/// sin(65504) = 0.977028 where the true value is 0.975376 (the product truncated to 2^-10).
/// ±∞ and NaN give NaN.
fn sincos_turns(x: f32) -> f64 {
    const INV_2PI: u64 = 0x3e22_f983; // 1/(2π) rounded to nearest f32
    let r = f64::from(val(soft::mul(x.to_bits() as u64, INV_2PI, F32, Rnd::Rz)));
    let t = r - libm::round(r);
    // A whole number of turns keeps the sign of x, as sin(±0) = ±0 does.
    if t == 0.0 { libm::copysign(0.0, r) } else { t }
}

/// `sin.approx{.ftz}.f32 d, a`: PTX max absolute error 2^-20.5 in [−100π, 100π]; here the
/// board's argument reduction ([`sincos_turns`]), then f64 `libm::sin` rounded to nearest.
/// sin(±∞) = NaN, sin(±0) = ±0.
pub fn sin_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    approx_result(libm::sin(core::f64::consts::TAU * sincos_turns(x)), ftz)
}

/// `cos.approx{.ftz}.f32 d, a`: PTX max absolute error 2^-20.5 in [−100π, 100π]; as
/// [`sin_f32`], the board's argument reduction then f64 `libm::cos` rounded to nearest.
/// cos(±∞) = NaN.
pub fn cos_f32(a: f32, ftz: bool) -> f32 {
    let x = f32::from_bits(flush_in(a, ftz) as u32);
    approx_result(libm::cos(core::f64::consts::TAU * sincos_turns(x)), ftz)
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

/// `abs{.ftz}.f32 d, a`: clears the sign bit; `.ftz` flushes a subnormal to +0. A NaN gives
/// the canonical NaN, as on an H100 (`tests/data/conformance/fp32.txt`, `fp32.25348`:
/// fabsf(`7fc00000`) = `7fffffff`; ptxas applies the modifier in a float add).
#[inline]
pub fn abs_f32(a: f32, ftz: bool) -> f32 {
    if a.is_nan() {
        return f32::from_bits(CANONICAL_NAN_F32);
    }
    f32::from_bits(flush_in(a, ftz) as u32 & 0x7fff_ffff)
}

/// `neg{.ftz}.f32 d, a`: flips the sign bit; `.ftz` flushes a subnormal first. A NaN gives
/// the canonical NaN, as [`abs_f32`] (`fp32.txt`, `fp32.26116`: -`7fc00000` = `7fffffff`).
#[inline]
pub fn neg_f32(a: f32, ftz: bool) -> f32 {
    if a.is_nan() {
        return f32::from_bits(CANONICAL_NAN_F32);
    }
    f32::from_bits(flush_in(a, ftz) as u32 ^ 0x8000_0000)
}

/// The NaN f32 arithmetic produces on NVIDIA GPUs: sign clear, every other bit set.
const CANONICAL_NAN_F32: u32 = 0x7fff_ffff;

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
