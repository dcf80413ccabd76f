//! Half-precision arithmetic on bit patterns: `.f16` and `.bf16` on `u16`, `.f16x2` and
//! `.bf16x2` on `u32` (low half = first element), PTX ISA "Half precision floating-point
//! instructions" (add, sub, mul, fma, neg, abs, min, max, tanh, ex2) and the comparisons of
//! `setp`. Arithmetic is IEEE 754 exact in the given rounding (PTX allows `.rn` only for halves);
//! the x2 forms apply the scalar operation to each half independently.

use super::soft::{self, BF16, F16, F64, Fmt};
use super::{Rnd, TestP};
use core::cmp::Ordering;

#[inline]
fn pre(a: u16, f: Fmt, ftz: bool) -> u64 {
    if ftz { f.flush(a as u64) } else { a as u64 }
}

#[inline]
fn post(r: u64, f: Fmt, ftz: bool, sat: bool) -> u16 {
    let r = if ftz { f.flush(r) } else { r };
    (if sat { f.saturate(r) } else { r }) as u16
}

#[inline]
fn add_h(a: u16, b: u16, f: Fmt, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
    post(
        soft::add(pre(a, f, ftz), pre(b, f, ftz), f, rnd),
        f,
        ftz,
        sat,
    )
}

#[inline]
fn sub_h(a: u16, b: u16, f: Fmt, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
    let nb = pre(b, f, ftz) ^ f.sign_bit();
    post(soft::add(pre(a, f, ftz), nb, f, rnd), f, ftz, sat)
}

#[inline]
fn mul_h(a: u16, b: u16, f: Fmt, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
    post(
        soft::mul(pre(a, f, ftz), pre(b, f, ftz), f, rnd),
        f,
        ftz,
        sat,
    )
}

#[inline]
fn fma_h(a: u16, b: u16, c: u16, f: Fmt, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
    let r = soft::fma(pre(a, f, ftz), pre(b, f, ftz), pre(c, f, ftz), f, rnd);
    post(r, f, ftz, sat)
}

/// `.relu`: negative results (−0.0 included) become +0.0, NaN becomes the canonical NaN.
#[inline]
fn relu_h(a: u16, f: Fmt) -> u16 {
    let a = a as u64;
    (if f.is_nan(a) {
        f.nan()
    } else if a & f.sign_bit() != 0 {
        0
    } else {
        a
    }) as u16
}

fn minmax_h(a: u16, b: u16, f: Fmt, ftz: bool, nan: bool, min: bool) -> u16 {
    let (x, y) = (pre(a, f, ftz), pre(b, f, ftz));
    let (xn, yn) = (f.is_nan(x), f.is_nan(y));
    let r = match (xn, yn) {
        (true, true) => f.nan(),
        (true, false) | (false, true) if nan => f.nan(),
        (true, false) => y,
        (false, true) => x,
        (false, false) => {
            let (xf, yf) = (to_f64(x, f), to_f64(y, f));
            let lt = xf < yf || (xf == yf && x & f.sign_bit() != 0 && y & f.sign_bit() == 0);
            if lt == min { x } else { y }
        }
    };
    r as u16
}

#[inline]
fn to_f64(bits: u64, f: Fmt) -> f64 {
    f64::from_bits(soft::convert(bits, f, F64, Rnd::Rn))
}

#[inline]
fn from_f64(x: f64, f: Fmt, ftz: bool) -> u16 {
    let r = soft::convert(x.to_bits(), F64, f, Rnd::Rn);
    (if ftz { f.flush(r) } else { r }) as u16
}

fn ex2_h(a: u16, f: Fmt, ftz: bool) -> u16 {
    from_f64(libm::exp2(to_f64(pre(a, f, ftz), f)), f, ftz)
}

fn tanh_h(a: u16, f: Fmt) -> u16 {
    from_f64(libm::tanh(to_f64(a as u64, f)), f, false)
}

fn cmp_h(a: u16, b: u16, f: Fmt, ftz: bool) -> Option<Ordering> {
    to_f64(pre(a, f, ftz), f).partial_cmp(&to_f64(pre(b, f, ftz), f))
}

#[inline]
fn lo(x: u32) -> u16 {
    x as u16
}

#[inline]
fn hi(x: u32) -> u16 {
    (x >> 16) as u16
}

#[inline]
fn pack(l: u16, h: u16) -> u32 {
    (l as u32) | ((h as u32) << 16)
}

macro_rules! half_ops {
    ($fmt:expr, $name:literal,
     $add:ident, $sub:ident, $mul:ident, $fma:ident, $min:ident, $max:ident, $neg:ident,
     $abs:ident, $relu:ident, $ex2:ident, $tanh:ident, $cmp:ident, $testp:ident,
     $add2:ident, $sub2:ident, $mul2:ident, $fma2:ident, $min2:ident, $max2:ident, $neg2:ident,
     $abs2:ident, $relu2:ident, $ex22:ident, $tanh2:ident) => {
        #[doc = concat!("`add{.rnd}{.ftz}{.sat}.", $name, " d, a, b`: `a + b` rounded once.")]
        #[inline]
        pub fn $add(a: u16, b: u16, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
            add_h(a, b, $fmt, rnd, ftz, sat)
        }
        #[doc = concat!("`sub{.rnd}{.ftz}{.sat}.", $name, " d, a, b`: `a - b` rounded once.")]
        #[inline]
        pub fn $sub(a: u16, b: u16, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
            sub_h(a, b, $fmt, rnd, ftz, sat)
        }
        #[doc = concat!("`mul{.rnd}{.ftz}{.sat}.", $name, " d, a, b`: `a * b` rounded once.")]
        #[inline]
        pub fn $mul(a: u16, b: u16, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
            mul_h(a, b, $fmt, rnd, ftz, sat)
        }
        #[doc = concat!("`fma.rnd{.ftz}{.sat}.", $name, " d, a, b, c`: `a * b + c`, one ",
                                "rounding (for `.relu` apply the relu function to the result).")]
        #[inline]
        pub fn $fma(a: u16, b: u16, c: u16, rnd: Rnd, ftz: bool, sat: bool) -> u16 {
            fma_h(a, b, c, $fmt, rnd, ftz, sat)
        }
        #[doc = concat!("`min{.ftz}{.NaN}.", $name, " d, a, b`: one NaN operand gives the ",
                                "other (the canonical NaN with `.NaN` or two NaNs); −0.0 < +0.0.")]
        #[inline]
        pub fn $min(a: u16, b: u16, ftz: bool, nan: bool) -> u16 {
            minmax_h(a, b, $fmt, ftz, nan, true)
        }
        #[doc = concat!("`max{.ftz}{.NaN}.", $name, " d, a, b`: as `min`, the larger.")]
        #[inline]
        pub fn $max(a: u16, b: u16, ftz: bool, nan: bool) -> u16 {
            minmax_h(a, b, $fmt, ftz, nan, false)
        }
        #[doc = concat!("`neg{.ftz}.", $name, " d, a`: flips the sign bit (after `.ftz`); ",
            "a NaN gives the canonical `7fff`, as on an H100 (`tests/data/conformance/",
            "half.txt`, `fp16.5380`: `__hneg(7e00)` = `7fff`; `fp16.19204`: bf16 `__hneg(7fc0)`).")]
        #[inline]
        pub fn $neg(a: u16, ftz: bool) -> u16 {
            if $fmt.is_nan(a as u64) {
                return $fmt.nan() as u16;
            }
            (pre(a, $fmt, ftz) ^ $fmt.sign_bit()) as u16
        }
        #[doc = concat!("`abs{.ftz}.", $name, " d, a`: clears the sign bit (after `.ftz`); ",
            "a NaN gives the canonical `7fff`, as [`", stringify!($neg), "`] (`half.txt`, ",
            "`fp16.6148`: `__habs(7e00)` = `7fff`).")]
        #[inline]
        pub fn $abs(a: u16, ftz: bool) -> u16 {
            if $fmt.is_nan(a as u64) {
                return $fmt.nan() as u16;
            }
            (pre(a, $fmt, ftz) & !$fmt.sign_bit()) as u16
        }
        #[doc = concat!("The `.relu` of `fma.rn.relu.", $name, "` (and `cvt`'s): negative ",
                                "results (−0.0 too) become +0.0, NaN the canonical NaN.")]
        #[inline]
        pub fn $relu(a: u16) -> u16 {
            relu_h(a, $fmt)
        }
        #[doc = concat!("`ex2.approx{.ftz}.", $name, " d, a`: `2^a` (PTX: max relative ",
                                "error 2^-9.9 for f16, 2^-7 for bf16); here f64 `exp2` rounded to ",
                                "nearest, within 0.5 ulp.")]
        #[inline]
        pub fn $ex2(a: u16, ftz: bool) -> u16 {
            ex2_h(a, $fmt, ftz)
        }
        #[doc = concat!("`tanh.approx.", $name, " d, a`: PTX max relative error 2^-10.987 ",
                                "(f16), 2^-8 (bf16); here f64 `tanh` rounded to nearest.")]
        #[inline]
        pub fn $tanh(a: u16) -> u16 {
            tanh_h(a, $fmt)
        }
        #[doc = concat!("The order of two ", $name, " values for `setp{.ftz}` (`None`: ",
                                "unordered; −0.0 equals +0.0).")]
        #[inline]
        pub fn $cmp(a: u16, b: u16, ftz: bool) -> Option<Ordering> {
            cmp_h(a, b, $fmt, ftz)
        }
        #[doc = concat!("`testp` on an ", $name, " value.")]
        #[inline]
        pub fn $testp(a: u16, op: TestP) -> bool {
            super::f32::testp_bits(a as u64, $fmt, op)
        }
        #[doc = concat!("`add{.rnd}{.ftz}{.sat}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $add2(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
            pack(
                $add(lo(a), lo(b), rnd, ftz, sat),
                $add(hi(a), hi(b), rnd, ftz, sat),
            )
        }
        #[doc = concat!("`sub{.rnd}{.ftz}{.sat}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $sub2(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
            pack(
                $sub(lo(a), lo(b), rnd, ftz, sat),
                $sub(hi(a), hi(b), rnd, ftz, sat),
            )
        }
        #[doc = concat!("`mul{.rnd}{.ftz}{.sat}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $mul2(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
            pack(
                $mul(lo(a), lo(b), rnd, ftz, sat),
                $mul(hi(a), hi(b), rnd, ftz, sat),
            )
        }
        #[doc = concat!("`fma.rnd{.ftz}{.sat}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $fma2(a: u32, b: u32, c: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
            pack(
                $fma(lo(a), lo(b), lo(c), rnd, ftz, sat),
                $fma(hi(a), hi(b), hi(c), rnd, ftz, sat),
            )
        }
        #[doc = concat!("`min{.ftz}{.NaN}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $min2(a: u32, b: u32, ftz: bool, nan: bool) -> u32 {
            pack($min(lo(a), lo(b), ftz, nan), $min(hi(a), hi(b), ftz, nan))
        }
        #[doc = concat!("`max{.ftz}{.NaN}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $max2(a: u32, b: u32, ftz: bool, nan: bool) -> u32 {
            pack($max(lo(a), lo(b), ftz, nan), $max(hi(a), hi(b), ftz, nan))
        }
        #[doc = concat!("`neg{.ftz}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $neg2(a: u32, ftz: bool) -> u32 {
            pack($neg(lo(a), ftz), $neg(hi(a), ftz))
        }
        #[doc = concat!("`abs{.ftz}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $abs2(a: u32, ftz: bool) -> u32 {
            pack($abs(lo(a), ftz), $abs(hi(a), ftz))
        }
        #[doc = concat!("`.relu` on each half of an ", $name, "x2.")]
        #[inline]
        pub fn $relu2(a: u32) -> u32 {
            pack($relu(lo(a)), $relu(hi(a)))
        }
        #[doc = concat!("`ex2.approx{.ftz}.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $ex22(a: u32, ftz: bool) -> u32 {
            pack($ex2(lo(a), ftz), $ex2(hi(a), ftz))
        }
        #[doc = concat!("`tanh.approx.", $name, "x2`: each half independently.")]
        #[inline]
        pub fn $tanh2(a: u32) -> u32 {
            pack($tanh(lo(a)), $tanh(hi(a)))
        }
    };
}

half_ops!(
    F16, "f16", add_f16, sub_f16, mul_f16, fma_f16, min_f16, max_f16, neg_f16, abs_f16, relu_f16,
    ex2_f16, tanh_f16, cmp_f16, testp_f16, add_f16x2, sub_f16x2, mul_f16x2, fma_f16x2, min_f16x2,
    max_f16x2, neg_f16x2, abs_f16x2, relu_f16x2, ex2_f16x2, tanh_f16x2
);

half_ops!(
    BF16,
    "bf16",
    add_bf16,
    sub_bf16,
    mul_bf16,
    fma_bf16,
    min_bf16,
    max_bf16,
    neg_bf16,
    abs_bf16,
    relu_bf16,
    ex2_bf16,
    tanh_bf16,
    cmp_bf16,
    testp_bf16,
    add_bf16x2,
    sub_bf16x2,
    mul_bf16x2,
    fma_bf16x2,
    min_bf16x2,
    max_bf16x2,
    neg_bf16x2,
    abs_bf16x2,
    relu_bf16x2,
    ex2_bf16x2,
    tanh_bf16x2
);

fn xorsign_abs_h(a: u16, b: u16, f: Fmt, ftz: bool, nan: bool, max: bool) -> u16 {
    let sign = (a ^ b) as u64 & f.sign_bit();
    let abs = |x: u16| (pre(x, f, ftz) & !f.sign_bit()) as u16;
    let m = minmax_h(abs(a), abs(b), f, false, nan, !max) as u64;
    (if f.is_nan(m) { m } else { m | sign }) as u16
}

/// `min.xorsign.abs{.ftz}{.NaN}.f16` (`max = false`) / `max.xorsign.abs…` (sm_86+): the
/// minimum (maximum) of |a| and |b| as `min_f16` picks it, with the sign `sign(a) XOR sign(b)`.
#[inline]
pub fn xorsign_abs_f16(a: u16, b: u16, ftz: bool, nan: bool, max: bool) -> u16 {
    xorsign_abs_h(a, b, F16, ftz, nan, max)
}

/// `min/max.xorsign.abs{.NaN}.bf16` (sm_86+): as [`xorsign_abs_f16`].
#[inline]
pub fn xorsign_abs_bf16(a: u16, b: u16, ftz: bool, nan: bool, max: bool) -> u16 {
    xorsign_abs_h(a, b, BF16, ftz, nan, max)
}

/// `min/max.xorsign.abs….f16x2`: each half independently.
#[inline]
pub fn xorsign_abs_f16x2(a: u32, b: u32, ftz: bool, nan: bool, max: bool) -> u32 {
    let l = xorsign_abs_f16(lo(a), lo(b), ftz, nan, max);
    pack(l, xorsign_abs_f16(hi(a), hi(b), ftz, nan, max))
}

/// `min/max.xorsign.abs….bf16x2`: each half independently.
#[inline]
pub fn xorsign_abs_bf16x2(a: u32, b: u32, ftz: bool, nan: bool, max: bool) -> u32 {
    let l = xorsign_abs_bf16(lo(a), lo(b), ftz, nan, max);
    pack(l, xorsign_abs_bf16(hi(a), hi(b), ftz, nan, max))
}

/// Splits an x2 register into its (first = low, second = high) halves.
#[inline]
pub fn unpack_x2(x: u32) -> (u16, u16) {
    (lo(x), hi(x))
}

/// Packs two halves into an x2 register, `first` in the low 16 bits.
#[inline]
pub fn pack_x2(first: u16, second: u16) -> u32 {
    pack(first, second)
}
