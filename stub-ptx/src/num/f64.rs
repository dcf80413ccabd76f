//! `.f64` arithmetic (PTX ISA "Floating-point instructions"): IEEE 754 add, sub, mul, fma, div,
//! sqrt, rcp in every rounding mode; the approximate `rcp.approx.ftz.f64` and
//! `rsqrt.approx{.ftz}.f64`; min, max, abs, neg, copysign, testp.

use super::soft::{self, F64};
use super::{Rnd, TestP};
use core::cmp::Ordering;

/// The NaN an f64 operation produces from non-NaN operands (∞ − ∞, 0 × ∞, 0/0, √−1): sign
/// set, quiet bit only, as an H100 gives it (`tests/data/conformance/fp64.txt`, e.g.
/// `fp64.103`: −∞ + ∞ = `fff8000000000000`), unlike the f32 canonical `7fffffff`.
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// The quiet bit of an f64 NaN (the fraction's top bit).
const F64_QUIET: u64 = 0x0008_0000_0000_0000;

/// The NaN rule of f64 arithmetic on the board: a NaN result is the first NaN operand, made
/// quiet, or [`F64_DEFAULT_NAN`] where no operand is NaN (`fp64.8`: NaN + 0 =
/// `7ff8000000000000`, the operand itself). Non-NaN results pass unchanged.
#[inline]
fn nan_rule(r: u64, operands: &[f64]) -> f64 {
    if !F64.is_nan(r) {
        return f64::from_bits(r);
    }
    let first = operands.iter().find(|x| x.is_nan());
    f64::from_bits(first.map_or(F64_DEFAULT_NAN, |x| x.to_bits() | F64_QUIET))
}

/// Rust's own `.rn` result (IEEE 754 nearest-even), with a NaN following [`nan_rule`].
#[inline]
fn canon(v: f64, operands: &[f64]) -> f64 {
    nan_rule(v.to_bits(), operands)
}

/// `add.rnd.f64 d, a, b`: `a + b` rounded once in `rnd`.
#[inline]
pub fn add_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a + b, &[a, b]),
        _ => nan_rule(soft::add(a.to_bits(), b.to_bits(), F64, rnd), &[a, b]),
    }
}

/// `sub.rnd.f64 d, a, b`: `a - b` rounded once in `rnd`.
#[inline]
pub fn sub_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a - b, &[a, b]),
        _ => nan_rule(
            soft::add(a.to_bits(), b.to_bits() ^ F64.sign_bit(), F64, rnd),
            &[a, b],
        ),
    }
}

/// `mul.rnd.f64 d, a, b`: `a * b` rounded once in `rnd`.
#[inline]
pub fn mul_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a * b, &[a, b]),
        _ => nan_rule(soft::mul(a.to_bits(), b.to_bits(), F64, rnd), &[a, b]),
    }
}

/// `fma.rnd.f64 d, a, b, c` (and `mad.rnd.f64`): `a * b + c` with one rounding.
#[inline]
pub fn fma_f64(a: f64, b: f64, c: f64, rnd: Rnd) -> f64 {
    nan_rule(
        soft::fma(a.to_bits(), b.to_bits(), c.to_bits(), F64, rnd),
        &[a, b, c],
    )
}

/// `div.rnd.f64 d, a, b`: `a / b` rounded once in `rnd`.
#[inline]
pub fn div_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a / b, &[a, b]),
        _ => nan_rule(soft::div(a.to_bits(), b.to_bits(), F64, rnd), &[a, b]),
    }
}

/// `sqrt.rnd.f64 d, a`: rounded once in `rnd`; sqrt(−0) = −0, sqrt(negative) = NaN.
#[inline]
pub fn sqrt_f64(a: f64, rnd: Rnd) -> f64 {
    nan_rule(soft::sqrt(a.to_bits(), F64, rnd), &[a])
}

/// `rcp.rnd.f64 d, a` (`Some(rnd)`, IEEE 754 exact) or `rcp.approx.ftz.f64 d, a` (`None`):
/// PTX documents the approximate form only as "a fast, gross approximation" with subnormal
/// inputs and results flushed to zero; here it is the correctly rounded reciprocal, flushed.
pub fn rcp_f64(a: f64, rnd: Option<Rnd>) -> f64 {
    match rnd {
        Some(r) => nan_rule(soft::div(1.0f64.to_bits(), a.to_bits(), F64, r), &[a]),
        None => {
            let x = F64.flush(a.to_bits());
            nan_rule(
                F64.flush(soft::div(1.0f64.to_bits(), x, F64, Rnd::Rn)),
                &[a],
            )
        }
    }
}

/// `rsqrt.approx{.ftz}.f64 d, a`: `1/sqrt(a)` (PTX: approximate, max relative error about
/// 2^-40 on the hardware; here the f64 sqrt and division, each rounded to nearest, within
/// 1.5 ulp). rsqrt(±0) = ±∞, rsqrt(+∞) = +0, rsqrt(negative) = NaN.
pub fn rsqrt_f64(a: f64, ftz: bool) -> f64 {
    let x = if ftz {
        F64.flush(a.to_bits())
    } else {
        a.to_bits()
    };
    let xf = f64::from_bits(x);
    if xf == 0.0 {
        return f64::from_bits((x & F64.sign_bit()) | F64.inf());
    }
    let s = soft::sqrt(x, F64, Rnd::Rn);
    let r = soft::div(1.0f64.to_bits(), s, F64, Rnd::Rn);
    nan_rule(if ftz { F64.flush(r) } else { r }, &[a])
}

/// `min{.NaN}.f64 d, a, b`: with one NaN operand the other is returned unless `nan`; two NaNs
/// (or `.NaN` with one) give the first NaN operand, made quiet; −0.0 is less than +0.0.
pub fn min_f64(a: f64, b: f64, nan: bool) -> f64 {
    minmax(a, b, nan, true)
}

/// `max{.NaN}.f64 d, a, b`: as [`min_f64`], returning the larger.
pub fn max_f64(a: f64, b: f64, nan: bool) -> f64 {
    minmax(a, b, nan, false)
}

fn minmax(x: f64, y: f64, nan: bool, min: bool) -> f64 {
    // A NaN result follows the arithmetic's rule: on the board fmin(NaN, NaN) is the operand
    // `7ff8000000000000` (`fp64.43209`, the high word `7ff80000`).
    let qnan = || nan_rule(F64.nan(), &[x, y]);
    match (x.is_nan(), y.is_nan()) {
        (true, true) => qnan(),
        (true, false) | (false, true) if nan => qnan(),
        (true, false) => y,
        (false, true) => x,
        (false, false) => {
            let lt = x < y || (x == y && x.is_sign_negative() && !y.is_sign_negative());
            if lt == min { x } else { y }
        }
    }
}

/// `abs.f64 d, a`: clears the sign bit.
#[inline]
pub fn abs_f64(a: f64) -> f64 {
    f64::from_bits(a.to_bits() & !F64.sign_bit())
}

/// `neg.f64 d, a`: flips the sign bit of a number; a NaN passes unchanged, as on an H100
/// (`fp64.33` lines 96..: `-b` of `7ff8000000000000` is `7ff8000000000000`; sm_90 has no
/// f64 negation and ptxas negates with an add, whose NaN rule keeps the operand).
#[inline]
pub fn neg_f64(a: f64) -> f64 {
    if a.is_nan() {
        return a;
    }
    f64::from_bits(a.to_bits() ^ F64.sign_bit())
}

/// `copysign.f64 d, a, b`: `b` with the sign of `a`.
#[inline]
pub fn copysign_f64(a: f64, b: f64) -> f64 {
    f64::from_bits((b.to_bits() & !F64.sign_bit()) | (a.to_bits() & F64.sign_bit()))
}

/// `testp.op.f64 p, a`.
#[inline]
pub fn testp_f64(a: f64, op: TestP) -> bool {
    super::f32::testp_bits(a.to_bits(), F64, op)
}

/// The order of `a` and `b` for `setp.cmp.f64` (`None`: unordered).
#[inline]
pub fn cmp_f64(a: f64, b: f64) -> Option<Ordering> {
    a.partial_cmp(&b)
}
