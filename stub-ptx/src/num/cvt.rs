//! Conversions (PTX ISA "cvt", "cvt.pack"): between float formats, between floats and
//! integers, between integer widths, and to the packed half, tf32 and fp8 formats. Float
//! results are IEEE 754 exact in the given rounding; NaN results are canonical, except where
//! an H100 keeps the payload ([`keep_nan`]: from f64, between f32 and f64; [`bf16_to_f32`]),
//! and a NaN converted to an integer is 0 or the destination's sign bit ([`nan_to_int`]), as
//! the board gives them (`tests/data/conformance/cvt.txt`, `half.txt`).

use super::soft::{self, BF16, E4M3, E5M2, F16, F32, F64, Fmt, TF32, Val};
use super::{IntRnd, Rnd};

/// A NaN `bits` of format `from` converted to format `to` as an H100 converts from f64 (and
/// f32 to f64): the sign and the fraction's top bits kept, made quiet (`cvt.txt`,
/// `cvt.18436`: `cvt.rn.f32.f64` of `7ff8000000000000` is `7fc00000`, not the canonical
/// `7fffffff`; `cvt.22276`: the high word of `cvt.f64.f32` of `7fc00000` is `7ff80000`;
/// `half.txt`, `fp16.29280`: `cvt.rn.f16.f64` gives `7e00`). Any other `bits` go through
/// [`soft::convert`], rounding in `rnd`.
#[inline]
fn keep_nan(bits: u64, from: Fmt, to: Fmt, rnd: Rnd) -> u64 {
    if !from.is_nan(bits) {
        return soft::convert(bits, from, to, rnd);
    }
    let frac = bits & from.frac_mask();
    let frac = if from.p >= to.p {
        frac >> (from.p - to.p)
    } else {
        frac << (to.p - from.p)
    };
    let sign = if bits & from.sign_bit() != 0 {
        to.sign_bit()
    } else {
        0
    };
    sign | to.inf() | (1u64 << (to.p - 2)) | frac
}

/// `cvt{.rnd}{.ftz}{.sat}.f32.f64 d, a`: rounds `x` to f32 in `rnd`; `.ftz` flushes a subnormal
/// f32 result to the zero of its sign, `.sat` clamps to [0, 1]; a NaN keeps its sign and top
/// payload bits ([`keep_nan`]).
#[inline]
pub fn f64_to_f32(x: f64, rnd: Rnd, ftz: bool, sat: bool) -> f32 {
    super::f32::finish(keep_nan(x.to_bits(), F64, F32, rnd), ftz, sat)
}

/// `cvt{.ftz}{.sat}.f64.f32 d, a`: exact; `.ftz` flushes a subnormal input, `.sat` clamps to
/// [0, 1] (NaN → +0.0); a NaN keeps its sign and payload, made quiet ([`keep_nan`]).
#[inline]
pub fn f32_to_f64(x: f32, ftz: bool, sat: bool) -> f64 {
    let b = super::f32::flush_in(x, ftz);
    let r = keep_nan(b, F32, F64, Rnd::Rn);
    f64::from_bits(if sat { F64.saturate(r) } else { r })
}

/// What `cvt.irnd.{u,s}N.fM` gives for a NaN on an H100: 0 from f32 (and f16, bf16) to 8-, 16-
/// and 32-bit integers, as PTX documents, but the destination's sign bit (`0x80000000`,
/// `0x8000000000000000`) from f64 to any integer and from f32 to 64-bit integers (`cvt.txt`:
/// `cvt.4` `__float2int_rn(NaN)` = 0, `cvt.11524` `__double2int_rn(NaN)` = `80000000`,
/// `cvt.14596` `__double2uint_rn(NaN)` = `80000000`, `cvt.7008` high word of
/// `__float2ll_rn(NaN)` = `80000000`). `bits` is the destination width (clamped to 1..=64).
#[inline]
pub fn nan_to_int(from_f64: bool, bits: u32) -> u64 {
    let b = bits.clamp(1, 64);
    if from_f64 || b > 32 {
        1u64 << (b - 1)
    } else {
        0
    }
}

/// The width mask of a `bits`-wide integer (`bits` is clamped to 1..=64).
#[inline]
fn mask(bits: u32) -> u64 {
    let b = bits.clamp(1, 64);
    u64::MAX >> (64 - b)
}

/// The range of a `bits`-wide integer as i128: (min, max).
#[inline]
fn range(signed: bool, bits: u32) -> (i128, i128) {
    let b = bits.clamp(1, 64);
    if signed {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

/// Rounds the exact value `(-1)^neg m 2^e` to an integer in `rnd`, saturating at ±2^100.
fn round_to_int(neg: bool, m: u128, e: i32, rnd: IntRnd) -> i128 {
    const LIMIT: i128 = 1i128 << 100;
    let mag: i128 = if e >= 0 {
        // Past 2^100 every destination saturates; below it the shift is exact.
        let bitlen = 128 - m.leading_zeros() as i32;
        if bitlen + e > 100 {
            LIMIT
        } else {
            (m << e) as i128
        }
    } else {
        let s = (-e) as u32;
        let kept = m.checked_shr(s).unwrap_or(0);
        let rem = if s >= 128 { m } else { m & ((1u128 << s) - 1) };
        let up = if rem == 0 {
            false
        } else {
            let half = if s >= 129 {
                None
            } else {
                Some(1u128 << (s - 1))
            };
            match rnd {
                IntRnd::Rzi => false,
                IntRnd::Rmi => neg,
                IntRnd::Rpi => !neg,
                IntRnd::Rni => match half {
                    None => false,
                    Some(h) => rem > h || (rem == h && kept & 1 == 1),
                },
            }
        };
        (kept.min(LIMIT as u128) + up as u128) as i128
    };
    if neg { -mag } else { mag }
}

/// `cvt.irnd{.ftz}{.sat}.{u,s}{8,16,32,64}.{f16,f32,f64} d, a` (with `x` the exact f64 value of
/// the source): rounds in `rnd` and saturates to the destination range (PTX: float-to-integer
/// conversions always saturate); NaN gives 0. `ftz` flushes an f32-subnormal input (|x| <
/// 2^-126), as `.ftz` does for `.f32` sources. The result is the destination's bits,
/// zero-extended to u64 (a negative signed result keeps only its low `bits` bits).
pub fn float_to_int(x: f64, rnd: IntRnd, signed: bool, bits: u32, ftz: bool) -> u64 {
    let x = if ftz && x != 0.0 && libm::fabs(x) < f32::MIN_POSITIVE as f64 {
        0.0
    } else {
        x
    };
    let (lo, hi) = range(signed, bits);
    let v = match soft::unpack(x.to_bits(), F64) {
        Val::Nan => 0,
        Val::Inf(n) => {
            if n {
                lo
            } else {
                hi
            }
        }
        Val::Zero(_) => 0,
        Val::Fin { neg, m, e } => round_to_int(neg, m, e, rnd).clamp(lo, hi),
    };
    (v as u64) & mask(bits)
}

/// The exact value of a `bits`-wide integer in the low bits of `x`: (negative, magnitude).
#[inline]
fn int_value(x: u64, signed: bool, bits: u32) -> (bool, u128) {
    let b = bits.clamp(1, 64);
    let v = x & mask(b);
    if signed && (v >> (b - 1)) & 1 == 1 {
        // Sign-extend, then negate in 128 bits (−2^63 has no positive i64).
        let ext = (v | !mask(b)) as i64 as i128;
        (true, (-ext) as u128)
    } else {
        (false, v as u128)
    }
}

/// `cvt.rnd.f32.{u,s}{8,16,32,64} d, a`: the integer in the low `bits` bits of `x`, rounded.
#[inline]
pub fn int_to_f32(x: u64, signed: bool, bits: u32, rnd: Rnd) -> f32 {
    let (n, m) = int_value(x, signed, bits);
    f32::from_bits(soft::from_int(n, m, F32, rnd) as u32)
}

/// `cvt.rnd.f64.{u,s}{8,16,32,64} d, a`: the integer in the low `bits` bits of `x`, rounded.
#[inline]
pub fn int_to_f64(x: u64, signed: bool, bits: u32, rnd: Rnd) -> f64 {
    let (n, m) = int_value(x, signed, bits);
    f64::from_bits(soft::from_int(n, m, F64, rnd))
}

/// `cvt.rnd.f16.{u,s}{8,16,32,64} d, a`: the integer rounded to f16 (overflow: ±∞ or ±65504
/// as `rnd` says).
#[inline]
pub fn int_to_f16(x: u64, signed: bool, bits: u32, rnd: Rnd) -> u16 {
    let (n, m) = int_value(x, signed, bits);
    soft::from_int(n, m, F16, rnd) as u16
}

/// `cvt.rnd.bf16.{u,s}{8,16,32,64} d, a` (sm_90): the integer rounded to bf16.
#[inline]
pub fn int_to_bf16(x: u64, signed: bool, bits: u32, rnd: Rnd) -> u16 {
    let (n, m) = int_value(x, signed, bits);
    soft::from_int(n, m, BF16, rnd) as u16
}

/// `cvt.irnd{.ftz}{.sat}.{u,s}N.f16 d, a`: as [`float_to_int`] for an f16 source.
#[inline]
pub fn f16_to_int(x: u16, rnd: IntRnd, signed: bool, bits: u32) -> u64 {
    float_to_int(f16_to_f64(x), rnd, signed, bits, false)
}

/// `cvt.irnd.{u,s}N.bf16 d, a`: as [`float_to_int`] for a bf16 source.
#[inline]
pub fn bf16_to_int(x: u16, rnd: IntRnd, signed: bool, bits: u32) -> u64 {
    float_to_int(bf16_to_f64(x), rnd, signed, bits, false)
}

/// Rounds `bits` of format `f` to an integral value in the same format (`cvt.irnd.fT.fT`).
fn round_int_bits(bits: u64, f: Fmt, rnd: IntRnd) -> u64 {
    match soft::unpack(bits, f) {
        Val::Nan => f.nan(),
        Val::Inf(_) | Val::Zero(_) => bits,
        Val::Fin { neg, m, e } => {
            if e >= 0 {
                return bits;
            }
            // |x| < 2^p here, so the integer is exact in `f`; its sign stays (−0.4 → −0.0).
            let v = round_to_int(neg, m, e, rnd);
            let r = soft::from_int(false, v.unsigned_abs(), f, Rnd::Rn);
            r | if neg { f.sign_bit() } else { 0 }
        }
    }
}

/// `cvt.irnd{.ftz}{.sat}.f32.f32 d, a`: `x` rounded to an integral value, sign kept.
#[inline]
pub fn f32_round_int(x: f32, rnd: IntRnd, ftz: bool, sat: bool) -> f32 {
    let b = super::f32::flush_in(x, ftz);
    super::f32::finish(round_int_bits(b, F32, rnd), ftz, sat)
}

/// `cvt.irnd{.sat}.f64.f64 d, a`: `x` rounded to an integral value, sign kept.
#[inline]
pub fn f64_round_int(x: f64, rnd: IntRnd, sat: bool) -> f64 {
    let r = round_int_bits(x.to_bits(), F64, rnd);
    f64::from_bits(if sat { F64.saturate(r) } else { r })
}

/// `cvt.irnd{.ftz}{.sat}.f16.f16 d, a`: rounded to an integral value.
#[inline]
pub fn f16_round_int(x: u16, rnd: IntRnd, ftz: bool, sat: bool) -> u16 {
    let b = if ftz { F16.flush(x as u64) } else { x as u64 };
    let r = round_int_bits(b, F16, rnd);
    let r = if ftz { F16.flush(r) } else { r };
    (if sat { F16.saturate(r) } else { r }) as u16
}

/// `cvt.irnd.bf16.bf16 d, a` (sm_90): rounded to an integral value.
#[inline]
pub fn bf16_round_int(x: u16, rnd: IntRnd) -> u16 {
    round_int_bits(x as u64, BF16, rnd) as u16
}

/// `cvt.rnd{.sat}.f16.f32 d, a` (`.rn .rz .rm .rp`): overflow gives ±∞ or ±65504 as `rnd`
/// says; `.sat` clamps to [0, 1]. For `.relu` / `.satfinite` apply [`super::relu_f16`] /
/// [`satfinite_f16`] to the result.
#[inline]
pub fn f32_to_f16(x: f32, rnd: Rnd, sat: bool) -> u16 {
    let r = soft::convert(x.to_bits() as u64, F32, F16, rnd);
    (if sat { F16.saturate(r) } else { r }) as u16
}

/// `cvt.rnd{.sat}.f16.f64 d, a`: one rounding straight from f64.
#[inline]
pub fn f64_to_f16(x: f64, rnd: Rnd, sat: bool) -> u16 {
    let r = keep_nan(x.to_bits(), F64, F16, rnd);
    (if sat { F16.saturate(r) } else { r }) as u16
}

/// `cvt.rnd.bf16.f32 d, a` (sm_80 `.rn`, sm_90 `.rz .rm .rp`).
#[inline]
pub fn f32_to_bf16(x: f32, rnd: Rnd, sat: bool) -> u16 {
    let r = soft::convert(x.to_bits() as u64, F32, BF16, rnd);
    (if sat { BF16.saturate(r) } else { r }) as u16
}

/// `cvt.rnd.bf16.f64 d, a` (sm_90): one rounding straight from f64.
#[inline]
pub fn f64_to_bf16(x: f64, rnd: Rnd, sat: bool) -> u16 {
    let r = keep_nan(x.to_bits(), F64, BF16, rnd);
    (if sat { BF16.saturate(r) } else { r }) as u16
}

/// `cvt{.ftz}.f32.f16 d, a`: exact (a NaN gives the canonical f32 NaN).
#[inline]
pub fn f16_to_f32(x: u16) -> f32 {
    f32::from_bits(soft::convert(x as u64, F16, F32, Rnd::Rn) as u32)
}

/// `cvt.f64.f16 d, a`: exact.
#[inline]
pub fn f16_to_f64(x: u16) -> f64 {
    f64::from_bits(soft::convert(x as u64, F16, F64, Rnd::Rn))
}

/// `cvt.f32.bf16 d, a`: exact, the bits shifted left 16 places, a NaN too (not even made quiet:
/// `half.txt`, `fp16.29013`: `7f89` gives `7f890000` on an H100).
#[inline]
pub fn bf16_to_f32(x: u16) -> f32 {
    if BF16.is_nan(x as u64) {
        return f32::from_bits(u32::from(x) << 16);
    }
    f32::from_bits(soft::convert(x as u64, BF16, F32, Rnd::Rn) as u32)
}

/// `cvt.f64.bf16 d, a`: exact.
#[inline]
pub fn bf16_to_f64(x: u16) -> f64 {
    f64::from_bits(soft::convert(x as u64, BF16, F64, Rnd::Rn))
}

/// `.satfinite` on an f16: ±∞ becomes ±65504 (NaN stays NaN).
#[inline]
pub fn satfinite_f16(x: u16) -> u16 {
    satfinite(x as u64, F16) as u16
}

/// `.satfinite` on a bf16: ±∞ becomes ±max finite (NaN stays NaN).
#[inline]
pub fn satfinite_bf16(x: u16) -> u16 {
    satfinite(x as u64, BF16) as u16
}

#[inline]
fn satfinite(x: u64, f: Fmt) -> u64 {
    if (x & !f.sign_bit()) == f.inf() {
        (x & f.sign_bit()) | f.max_finite()
    } else {
        x
    }
}

/// `cvt.rnd{.relu}{.satfinite}.f16x2.f32 d, a, b`: `a` converted into the upper half, `b` into
/// the lower (PTX ISA "cvt"). For `.relu`/`.satfinite` apply `relu_f16x2` / per-half
/// [`satfinite_f16`].
#[inline]
pub fn f32x2_to_f16x2(a: f32, b: f32, rnd: Rnd) -> u32 {
    ((f32_to_f16(a, rnd, false) as u32) << 16) | f32_to_f16(b, rnd, false) as u32
}

/// `cvt.rnd{.relu}{.satfinite}.bf16x2.f32 d, a, b`: `a` into the upper half, `b` the lower.
#[inline]
pub fn f32x2_to_bf16x2(a: f32, b: f32, rnd: Rnd) -> u32 {
    ((f32_to_bf16(a, rnd, false) as u32) << 16) | f32_to_bf16(b, rnd, false) as u32
}

/// `cvt.rnd{.satfinite}.tf32.f32 d, a` (`.rna` sm_80; `.rn .rz` sm_90): `x` rounded to 10
/// fraction bits, returned as f32 bits with the low 13 bits zero. `satfinite`: ±∞ and overflow
/// give ±max finite (0x7f7fe000), NaN the canonical NaN 0x7fffffff. Without it NaN is
/// canonical too and overflow gives ±∞ in `.rn`/`.rna`.
pub fn f32_to_tf32(x: f32, rnd: Rnd, satfinite: bool) -> u32 {
    let bits = x.to_bits() as u64;
    if F32.is_nan(bits) {
        // 0x7fc00000, the f32 quiet NaN, whatever the input NaN: what an H100 gives
        // (tests/data/conformance/lowp.txt, `cvt.rna.tf32.f32` of NaNs: lowp.7684 …).
        return 0x7fc0_0000;
    }
    let r = soft::convert(bits, F32, TF32, rnd);
    let r = if satfinite {
        super::cvt::satfinite(r, TF32)
    } else {
        r
    };
    (r << 13) as u32
}

/// Rounds `x` to an fp8 format with `.rn`, `.satfinite` (PTX requires it for f32 sources):
/// overflow and ±∞ give ±max finite, NaN gives `0x7f`; `.relu` turns negatives into +0.
fn to_fp8(x: f32, f: Fmt, relu: bool) -> u8 {
    let bits = x.to_bits() as u64;
    if F32.is_nan(bits) {
        return f.nan() as u8;
    }
    let r = soft::convert(bits, F32, f, Rnd::Rn);
    // `.satfinite`: what overflowed (to ∞, or to E4M3's NaN) becomes the largest finite value.
    let sign = bits >> 31 << (f.w + f.p - 1);
    let r = if f.is_nan(r) || (r & !f.sign_bit()) > f.max_finite() {
        sign | f.max_finite()
    } else {
        r
    };
    let r = if relu && r & f.sign_bit() != 0 { 0 } else { r };
    r as u8
}

/// `cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b` (sm_89): `a` into the upper byte, `b` the
/// lower; ±448 on overflow, NaN → 0x7f.
#[inline]
pub fn f32x2_to_e4m3x2(a: f32, b: f32, relu: bool) -> u16 {
    ((to_fp8(a, E4M3, relu) as u16) << 8) | to_fp8(b, E4M3, relu) as u16
}

/// `cvt.rn.satfinite{.relu}.e5m2x2.f32 d, a, b` (sm_89): `a` into the upper byte, `b` the
/// lower; ±57344 on overflow and for ±∞, NaN → 0x7f.
#[inline]
pub fn f32x2_to_e5m2x2(a: f32, b: f32, relu: bool) -> u16 {
    ((to_fp8(a, E5M2, relu) as u16) << 8) | to_fp8(b, E5M2, relu) as u16
}

/// `cvt.rn{.relu}.f16x2.e4m3x2 d, a` (sm_89): each byte converted exactly, the low byte into
/// the low half.
#[inline]
pub fn e4m3x2_to_f16x2(x: u16, relu: bool) -> u32 {
    fp8x2_to_f16x2(x, E4M3, relu)
}

/// `cvt.rn{.relu}.f16x2.e5m2x2 d, a` (sm_89): each byte converted exactly.
#[inline]
pub fn e5m2x2_to_f16x2(x: u16, relu: bool) -> u32 {
    fp8x2_to_f16x2(x, E5M2, relu)
}

fn fp8x2_to_f16x2(x: u16, f: Fmt, relu: bool) -> u32 {
    let one = |b: u16| {
        let h = soft::convert(b as u64, f, F16, Rnd::Rn) as u16;
        if relu { super::relu_f16(h) } else { h }
    };
    (one(x & 0xff) as u32) | ((one(x >> 8) as u32) << 16)
}

/// `cvt{.sat}.{u,s}M.{u,s}N d, a`: the `from_bits`-wide integer in `x` (sign- or zero-extended)
/// into `to_bits` bits. Without `sat` the value is truncated; with `sat` it is clamped to the
/// destination range. The result is zero-extended from `to_bits` to u64.
pub fn int_to_int(
    x: u64,
    from_signed: bool,
    from_bits: u32,
    to_signed: bool,
    to_bits: u32,
    sat: bool,
) -> u64 {
    let (n, m) = int_value(x, from_signed, from_bits);
    let v: i128 = if n { -(m as i128) } else { m as i128 };
    let v = if sat {
        let (lo, hi) = range(to_signed, to_bits);
        v.clamp(lo, hi)
    } else {
        v
    };
    (v as u64) & mask(to_bits)
}

/// `cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a` (sm_89): each half of `a` to E4M3, the low half
/// into the low byte (f16 → f32 is exact, so this is one rounding).
#[inline]
pub fn f16x2_to_e4m3x2(a: u32, relu: bool) -> u16 {
    let (l, h) = (f16_to_f32(a as u16), f16_to_f32((a >> 16) as u16));
    f32x2_to_e4m3x2(h, l, relu)
}

/// `cvt.rn.satfinite{.relu}.e5m2x2.f16x2 d, a` (sm_89): each half of `a` to E5M2, the low half
/// into the low byte.
#[inline]
pub fn f16x2_to_e5m2x2(a: u32, relu: bool) -> u16 {
    let (l, h) = (f16_to_f32(a as u16), f16_to_f32((a >> 16) as u16));
    f32x2_to_e5m2x2(h, l, relu)
}

/// `.ftz` on an f32 operand: a subnormal becomes the zero of its sign (for instructions whose
/// `.ftz` the caller applies itself, e.g. `cvt.ftz.f16.f32`, `setp.ftz.f32`).
#[inline]
pub fn flush_f32(x: f32) -> f32 {
    f32::from_bits(F32.flush(x.to_bits() as u64) as u32)
}

/// `.ftz` on an f16 operand.
#[inline]
pub fn flush_f16(x: u16) -> u16 {
    F16.flush(x as u64) as u16
}
