//! `.f64` arithmetic (PTX ISA "Floating-point instructions"): IEEE 754 add, sub, mul, fma, div,
//! sqrt, rcp in every rounding mode; the approximate `rcp.approx.ftz.f64` and
//! `rsqrt.approx{.ftz}.f64`; min, max, abs, neg, copysign, testp.

use super::soft::{self, F64};
use super::{Rnd, TestP};
use core::cmp::Ordering;

#[inline]
fn wrap(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// Rust's own `.rn` result (IEEE 754 nearest-even), with a NaN made canonical.
#[inline]
fn canon(v: f64) -> f64 {
    if v.is_nan() {
        f64::from_bits(F64.nan())
    } else {
        v
    }
}

/// `add.rnd.f64 d, a, b`: `a + b` rounded once in `rnd`.
#[inline]
pub fn add_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a + b),
        _ => wrap(soft::add(a.to_bits(), b.to_bits(), F64, rnd)),
    }
}

/// `sub.rnd.f64 d, a, b`: `a - b` rounded once in `rnd`.
#[inline]
pub fn sub_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a - b),
        _ => wrap(soft::add(
            a.to_bits(),
            b.to_bits() ^ F64.sign_bit(),
            F64,
            rnd,
        )),
    }
}

/// `mul.rnd.f64 d, a, b`: `a * b` rounded once in `rnd`.
#[inline]
pub fn mul_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a * b),
        _ => wrap(soft::mul(a.to_bits(), b.to_bits(), F64, rnd)),
    }
}

/// `fma.rnd.f64 d, a, b, c` (and `mad.rnd.f64`): `a * b + c` with one rounding.
#[inline]
pub fn fma_f64(a: f64, b: f64, c: f64, rnd: Rnd) -> f64 {
    wrap(soft::fma(a.to_bits(), b.to_bits(), c.to_bits(), F64, rnd))
}

/// `div.rnd.f64 d, a, b`: `a / b` rounded once in `rnd`.
#[inline]
pub fn div_f64(a: f64, b: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => canon(a / b),
        _ => wrap(soft::div(a.to_bits(), b.to_bits(), F64, rnd)),
    }
}

/// `sqrt.rnd.f64 d, a`: rounded once in `rnd`; sqrt(−0) = −0, sqrt(negative) = NaN.
#[inline]
pub fn sqrt_f64(a: f64, rnd: Rnd) -> f64 {
    wrap(soft::sqrt(a.to_bits(), F64, rnd))
}

/// `rcp.rnd.f64 d, a` (`Some(rnd)`, IEEE 754 exact) or `rcp.approx.ftz.f64 d, a` (`None`):
/// PTX documents the approximate form only as "a fast, gross approximation" with subnormal
/// inputs and results flushed to zero; here it is the correctly rounded reciprocal, flushed.
pub fn rcp_f64(a: f64, rnd: Option<Rnd>) -> f64 {
    match rnd {
        Some(r) => wrap(soft::div(1.0f64.to_bits(), a.to_bits(), F64, r)),
        None => {
            let x = F64.flush(a.to_bits());
            wrap(F64.flush(soft::div(1.0f64.to_bits(), x, F64, Rnd::Rn)))
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
    wrap(if ftz { F64.flush(r) } else { r })
}

/// `min{.NaN}.f64 d, a, b`: with one NaN operand the other is returned unless `nan`; two NaNs
/// (or `.NaN` with one) give the canonical NaN; −0.0 is less than +0.0.
pub fn min_f64(a: f64, b: f64, nan: bool) -> f64 {
    minmax(a, b, nan, true)
}

/// `max{.NaN}.f64 d, a, b`: as [`min_f64`], returning the larger.
pub fn max_f64(a: f64, b: f64, nan: bool) -> f64 {
    minmax(a, b, nan, false)
}

fn minmax(x: f64, y: f64, nan: bool, min: bool) -> f64 {
    let cnan = f64::from_bits(F64.nan());
    match (x.is_nan(), y.is_nan()) {
        (true, true) => cnan,
        (true, false) | (false, true) if nan => cnan,
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

/// `neg.f64 d, a`: flips the sign bit.
#[inline]
pub fn neg_f64(a: f64) -> f64 {
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
