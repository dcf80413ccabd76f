//! The ALU kernels: one monomorphic loop over a warp's 32 lanes per typed opcode, chosen once at
//! decode ([`lookup`], [`cmp`], [`cvt`]); the numeric semantics come from [`crate::num`].
//!
//! Registers hold their value zero-extended to 64 bits: a kernel reads the low bits its type
//! names and writes its result zero-extended. `aux` carries the modifiers: bits 0–2 the rounding
//! ([`Rnd`]: `.rn` 0, `.rna` 1, `.rz` 2, `.rm` 3, `.rp` 4), bit 3 `.ftz`, bit 4 `.sat`, bit 5
//! `.NaN`, bit 6 "approximate" (no rounding modifier on `sqrt`/`rcp`), bits 8–23 the kernel's
//! own fields, bits 24–31 the destination register's width (`cvt`).
#![allow(
    clippy::needless_range_loop,
    clippy::cast_possible_truncation,
    unused_variables
)]

use core::cmp::Ordering;

use crate::num::{self, DivKind, IntRnd, PrmtMode, Rnd, TestP};
use crate::ops::{AluFn, CmpFn, Lanes};
use crate::parse::type_size;

const FTZ: u32 = 1 << 3;
const SAT: u32 = 1 << 4;
const NAN: u32 = 1 << 5;
const APPROX: u32 = 1 << 6;

#[inline]
fn rnd(x: u32) -> Rnd {
    match x & 7 {
        1 => Rnd::Rna,
        2 => Rnd::Rz,
        3 => Rnd::Rm,
        4 => Rnd::Rp,
        _ => Rnd::Rn,
    }
}
#[inline]
fn irnd(x: u32) -> IntRnd {
    match x & 7 {
        2 => IntRnd::Rzi,
        3 => IntRnd::Rmi,
        4 => IntRnd::Rpi,
        _ => IntRnd::Rni,
    }
}
#[inline]
fn ftz(x: u32) -> bool {
    x & FTZ != 0
}
#[inline]
fn sat(x: u32) -> bool {
    x & SAT != 0
}
#[inline]
fn nan(x: u32) -> bool {
    x & NAN != 0
}
#[inline]
fn f(a: u64) -> f32 {
    f32::from_bits(a as u32)
}
#[inline]
fn fb(v: f32) -> u64 {
    u64::from(v.to_bits())
}
#[inline]
fn d(a: u64) -> f64 {
    f64::from_bits(a)
}

macro_rules! k {
    ($name:ident, |$a:ident, $b:ident, $c:ident, $x:ident| $e:expr) => {
        fn $name(d: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, m: u32, x: u32) {
            for i in 0..32 {
                let ($a, $b, $c, $x) = (a[i], b[i], c[i], x);
                let v: u64 = $e;
                if (m >> i) & 1 != 0 {
                    d[i] = v;
                }
            }
        }
    };
}

// Moves.
k!(mov16, |a, b, c, x| a & 0xffff);
k!(mov32, |a, b, c, x| a & 0xffff_ffff);
k!(mov64, |a, b, c, x| a);

/// The `mov` kernel of a `bits`-wide type.
pub fn mov_fn(bits: u32) -> AluFn {
    match bits {
        8 | 16 => mov16,
        32 => mov32,
        _ => mov64,
    }
}

// Integer arithmetic, by width.
k!(add16, |a, b, c, x| u64::from(
    (a as u16).wrapping_add(b as u16)
));
k!(add32, |a, b, c, x| u64::from(
    (a as u32).wrapping_add(b as u32)
));
k!(add64, |a, b, c, x| a.wrapping_add(b));
k!(add_sat_s32, |a, b, c, x| u64::from(
    num::add_sat_s32(a as i32, b as i32) as u32
));
k!(sub16, |a, b, c, x| u64::from(
    (a as u16).wrapping_sub(b as u16)
));
k!(sub32, |a, b, c, x| u64::from(
    (a as u32).wrapping_sub(b as u32)
));
k!(sub64, |a, b, c, x| a.wrapping_sub(b));
k!(sub_sat_s32, |a, b, c, x| u64::from(
    num::sub_sat_s32(a as i32, b as i32) as u32
));
k!(mul_lo16, |a, b, c, x| u64::from(
    (a as u16).wrapping_mul(b as u16)
));
k!(mul_lo32, |a, b, c, x| u64::from(
    (a as u32).wrapping_mul(b as u32)
));
k!(mul_lo64, |a, b, c, x| a.wrapping_mul(b));
k!(mul_hi_u16, |a, b, c, x| (u64::from(a as u16)
    * u64::from(b as u16))
    >> 16);
k!(mul_hi_s16, |a, b, c, x| u64::from(
    (((a as i16 as i32) * (b as i16 as i32)) >> 16) as u16
));
k!(mul_hi_u32, |a, b, c, x| u64::from(num::mul_hi_u32(
    a as u32, b as u32
)));
k!(mul_hi_s32, |a, b, c, x| u64::from(
    num::mul_hi_s32(a as i32, b as i32) as u32
));
k!(mul_hi_u64, |a, b, c, x| num::mul_hi_u64(a, b));
k!(mul_hi_s64, |a, b, c, x| num::mul_hi_s64(a as i64, b as i64)
    as u64);
k!(mul_wide_u16, |a, b, c, x| u64::from(a as u16)
    * u64::from(b as u16));
k!(mul_wide_s16, |a, b, c, x| u64::from(
    ((a as i16 as i32) * (b as i16 as i32)) as u32
));
k!(mul_wide_u32, |a, b, c, x| num::mul_wide_u32(
    a as u32, b as u32
));
k!(
    mul_wide_s32,
    |a, b, c, x| num::mul_wide_s32(a as i32, b as i32) as u64
);
k!(mul24_lo_u32, |a, b, c, x| u64::from(
    ((a as u32) & 0xff_ffff).wrapping_mul((b as u32) & 0xff_ffff)
));
k!(mul24_lo_s32, |a, b, c, x| u64::from(
    (((a as i32) << 8 >> 8).wrapping_mul((b as i32) << 8 >> 8)) as u32
));
k!(mul24_k, |a, b, c, x| u64::from(num::mul24(
    a as u32,
    b as u32,
    x & 1 != 0,
    x & 2 != 0
)));
k!(mad24_k, |a, b, c, x| u64::from(num::mad24(
    a as u32,
    b as u32,
    c as u32,
    x & 1 != 0,
    x & 2 != 0,
    x & 4 != 0
)));
k!(slct_s32, |a, b, c, x| if (c as u32 as i32) >= 0 {
    a
} else {
    b
});
k!(slct_f32, |a, b, c, x| {
    let z = num::flush_f32(f(c));
    let z = if x & 1 != 0 { z } else { f(c) };
    if z >= 0.0 { a } else { b }
});
k!(fns_k, |a, b, c, x| u64::from(num::fns(
    a as u32,
    b as u32,
    c as u32 as i32
)));
k!(mad_lo16, |a, b, c, x| u64::from(
    (a as u16).wrapping_mul(b as u16).wrapping_add(c as u16)
));
k!(mad_lo32, |a, b, c, x| u64::from(
    (a as u32).wrapping_mul(b as u32).wrapping_add(c as u32)
));
k!(mad_lo64, |a, b, c, x| a.wrapping_mul(b).wrapping_add(c));
k!(mad_hi_u32, |a, b, c, x| u64::from(num::mad_hi_u32(
    a as u32, b as u32, c as u32
)));
k!(mad_hi_s32, |a, b, c, x| u64::from(
    num::mad_hi_s32(a as i32, b as i32, c as i32, sat(x)) as u32
));
k!(mad_hi_u64, |a, b, c, x| num::mad_hi_u64(a, b, c));
k!(
    mad_hi_s64,
    |a, b, c, x| num::mad_hi_s64(a as i64, b as i64, c as i64) as u64
);
k!(mad_wide_u32, |a, b, c, x| num::mul_wide_u32(
    a as u32, b as u32
)
.wrapping_add(c));
k!(mad_wide_s32, |a, b, c, x| {
    (num::mul_wide_s32(a as i32, b as i32) as u64).wrapping_add(c)
});
k!(mad_wide_u16, |a, b, c, x| u64::from(
    ((a as u16 as u32) * (b as u16 as u32)).wrapping_add(c as u32)
));
k!(mad_wide_s16, |a, b, c, x| u64::from(
    (((a as i16 as i32) * (b as i16 as i32)) as u32).wrapping_add(c as u32)
));
// Division by zero: the hardware's all-ones quotient and the dividend as remainder (PTX
// leaves them unspecified).
k!(div_u16, |a, b, c, x| u64::from(
    (a as u16).checked_div(b as u16).unwrap_or(u16::MAX)
));
k!(div_s16, |a, b, c, x| u64::from(
    (a as i16).checked_div(b as i16).unwrap_or(-1) as u16
));
k!(div_u32, |a, b, c, x| u64::from(
    (a as u32).checked_div(b as u32).unwrap_or(u32::MAX)
));
k!(div_s32, |a, b, c, x| u64::from(
    (a as i32)
        .checked_div(b as i32)
        .unwrap_or(if b as i32 == 0 { -1 } else { a as i32 }) as u32
));
k!(div_u64, |a, b, c, x| a.checked_div(b).unwrap_or(u64::MAX));
k!(
    div_s64,
    |a, b, c, x| (a as i64)
        .checked_div(b as i64)
        .unwrap_or(if b == 0 { -1 } else { a as i64 }) as u64
);
k!(rem_u16, |a, b, c, x| u64::from(
    (a as u16).checked_rem(b as u16).unwrap_or(a as u16)
));
k!(rem_s16, |a, b, c, x| u64::from(
    (a as i16)
        .checked_rem(b as i16)
        .unwrap_or(if b as i16 == 0 { a as i16 } else { 0 }) as u16
));
k!(rem_u32, |a, b, c, x| u64::from(
    (a as u32).checked_rem(b as u32).unwrap_or(a as u32)
));
k!(rem_s32, |a, b, c, x| u64::from(
    (a as i32)
        .checked_rem(b as i32)
        .unwrap_or(if b as i32 == 0 { a as i32 } else { 0 }) as u32
));
k!(rem_u64, |a, b, c, x| a.checked_rem(b).unwrap_or(a));
k!(
    rem_s64,
    |a, b, c, x| (a as i64)
        .checked_rem(b as i64)
        .unwrap_or(if b == 0 { a as i64 } else { 0 }) as u64
);
k!(abs_s16, |a, b, c, x| u64::from(
    (a as i16).wrapping_abs() as u16
));
k!(abs_s32, |a, b, c, x| u64::from(
    (a as i32).wrapping_abs() as u32
));
k!(abs_s64, |a, b, c, x| (a as i64).wrapping_abs() as u64);
k!(neg16, |a, b, c, x| u64::from((a as u16).wrapping_neg()));
k!(neg32, |a, b, c, x| u64::from((a as u32).wrapping_neg()));
k!(neg64, |a, b, c, x| a.wrapping_neg());
k!(min_u16, |a, b, c, x| u64::from((a as u16).min(b as u16)));
k!(min_s16, |a, b, c, x| u64::from(
    (a as i16).min(b as i16) as u16
));
k!(min_u32, |a, b, c, x| u64::from((a as u32).min(b as u32)));
k!(min_s32, |a, b, c, x| u64::from(
    (a as i32).min(b as i32) as u32
));
k!(min_u64, |a, b, c, x| a.min(b));
k!(min_s64, |a, b, c, x| (a as i64).min(b as i64) as u64);
k!(max_u16, |a, b, c, x| u64::from((a as u16).max(b as u16)));
k!(max_s16, |a, b, c, x| u64::from(
    (a as i16).max(b as i16) as u16
));
k!(max_u32, |a, b, c, x| u64::from((a as u32).max(b as u32)));
k!(max_s32, |a, b, c, x| u64::from(
    (a as i32).max(b as i32) as u32
));
k!(max_u64, |a, b, c, x| a.max(b));
k!(max_s64, |a, b, c, x| (a as i64).max(b as i64) as u64);
k!(sad_u32, |a, b, c, x| u64::from(num::sad_u32(
    a as u32, b as u32, c as u32
)));
k!(sad_s32, |a, b, c, x| u64::from(
    num::sad_s32(a as i32, b as i32, c as i32) as u32
));
k!(sad_u64, |a, b, c, x| num::sad_u64(a, b, c));
k!(
    sad_s64,
    |a, b, c, x| num::sad_s64(a as i64, b as i64, c as i64) as u64
);

// Logic and shifts (the shift amount is an unsigned 32-bit value; PTX clamps it).
k!(and64, |a, b, c, x| a & b);
k!(or64, |a, b, c, x| a | b);
k!(xor64, |a, b, c, x| a ^ b);
k!(not16, |a, b, c, x| !a & 0xffff);
k!(not32, |a, b, c, x| !a & 0xffff_ffff);
k!(not64, |a, b, c, x| !a);
k!(cnot, |a, b, c, x| u64::from(a & mask(x) == 0));
k!(shl16, |a, b, c, x| u64::from(
    (a as u16).checked_shl(b as u32).unwrap_or(0)
));
k!(shl32, |a, b, c, x| u64::from(
    (a as u32).checked_shl(b as u32).unwrap_or(0)
));
k!(shl64, |a, b, c, x| a.checked_shl(b as u32).unwrap_or(0));
k!(shr_u16, |a, b, c, x| u64::from(
    (a as u16).checked_shr(b as u32).unwrap_or(0)
));
k!(shr_u32, |a, b, c, x| u64::from(
    (a as u32).checked_shr(b as u32).unwrap_or(0)
));
k!(shr_u64, |a, b, c, x| a.checked_shr(b as u32).unwrap_or(0));
k!(shr_s16, |a, b, c, x| u64::from(
    ((a as i16) >> (b as u32).min(15)) as u16
));
k!(shr_s32, |a, b, c, x| u64::from(
    ((a as i32) >> (b as u32).min(31)) as u32
));
k!(shr_s64, |a, b, c, x| ((a as i64) >> (b as u32).min(63))
    as u64);

#[inline]
fn mask(x: u32) -> u64 {
    match (x >> 8) & 0xff {
        16 => 0xffff,
        32 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

// Bit manipulation (`num::bits`).
k!(popc32, |a, b, c, x| u64::from(num::popc_u32(a as u32)));
k!(popc64, |a, b, c, x| u64::from(num::popc_u64(a)));
k!(clz32, |a, b, c, x| u64::from(num::clz_u32(a as u32)));
k!(clz64, |a, b, c, x| u64::from(num::clz_u64(a)));
k!(brev32, |a, b, c, x| u64::from(num::brev_u32(a as u32)));
k!(brev64, |a, b, c, x| num::brev_u64(a));
k!(bfind, |a, b, c, x| u64::from(num::bfind(
    a & mask(x),
    x & 1 != 0,
    (x >> 8) & 0xff,
    x & 2 != 0
)));
k!(bfe_u32, |a, b, c, x| u64::from(num::bfe_u32(
    a as u32, b as u32, c as u32
)));
k!(bfe_s32, |a, b, c, x| u64::from(num::bfe_s32(
    a as u32, b as u32, c as u32
)));
k!(bfe_u64, |a, b, c, x| num::bfe_u64(a, b as u32, c as u32));
k!(bfe_s64, |a, b, c, x| num::bfe_s64(a, b as u32, c as u32));
k!(prmt, |a, b, c, x| u64::from(num::prmt(
    a as u32,
    b as u32,
    c as u32,
    prmt_mode(x)
)));
k!(shf_l, |a, b, c, x| u64::from(num::shf_l(
    a as u32,
    b as u32,
    c as u32,
    x & 1 != 0
)));
k!(shf_r, |a, b, c, x| u64::from(num::shf_r(
    a as u32,
    b as u32,
    c as u32,
    x & 1 != 0
)));
k!(dp4a, |a, b, c, x| u64::from(num::dp4a(
    a as u32,
    b as u32,
    c as u32,
    x & 1 != 0,
    x & 2 != 0
)));
k!(simd16x2, |a, b, c, x| u64::from(num::simd16x2(
    a as u32,
    b as u32,
    x >> 1,
    x & 1 != 0
)));
k!(vabsdiff, |a, b, c, x| u64::from(num::vabsdiff(
    a as u32,
    b as u32,
    c as u32,
    if x & 32 != 0 { 4 } else { 2 },
    x & 1 != 0,
    x & 2 != 0,
    x & 4 != 0,
    x & 8 != 0,
    x & 16 != 0
)));
k!(dp2a, |a, b, c, x| u64::from(num::dp2a(
    a as u32,
    b as u32,
    c as u32,
    x & 1 != 0,
    x & 2 != 0,
    x & 4 != 0
)));
k!(lop3, |a, b, c, x| u64::from(num::lop3(
    a as u32,
    b as u32,
    c as u32,
    (x >> 8) as u8
)));
k!(szext, |a, b, c, x| u64::from(num::szext(
    a as u32,
    b as u32,
    x & 1 != 0,
    x & 2 != 0
)));

fn prmt_mode(x: u32) -> PrmtMode {
    match x & 7 {
        1 => PrmtMode::F4e,
        2 => PrmtMode::B4e,
        3 => PrmtMode::Rc8,
        4 => PrmtMode::Ecl,
        5 => PrmtMode::Ecr,
        6 => PrmtMode::Rc16,
        _ => PrmtMode::Default,
    }
}

/// `bfi.b32 d, a, b, pos, len`.
pub fn bfi32(d: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, e: &Lanes, m: u32) {
    for i in 0..32 {
        let v = u64::from(num::bfi_b32(
            a[i] as u32,
            b[i] as u32,
            c[i] as u32,
            e[i] as u32,
        ));
        if (m >> i) & 1 != 0 {
            d[i] = v;
        }
    }
}
/// `bfi.b64 d, a, b, pos, len`.
pub fn bfi64(d: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, e: &Lanes, m: u32) {
    for i in 0..32 {
        let v = num::bfi_b64(a[i], b[i], c[i] as u32, e[i] as u32);
        if (m >> i) & 1 != 0 {
            d[i] = v;
        }
    }
}

// f32.
k!(add_f32, |a, b, c, x| fb(num::add_f32(
    f(a),
    f(b),
    rnd(x),
    ftz(x),
    sat(x)
)));
k!(sub_f32, |a, b, c, x| fb(num::sub_f32(
    f(a),
    f(b),
    rnd(x),
    ftz(x),
    sat(x)
)));
k!(mul_f32, |a, b, c, x| fb(num::mul_f32(
    f(a),
    f(b),
    rnd(x),
    ftz(x),
    sat(x)
)));
k!(fma_f32, |a, b, c, x| fb(num::fma_f32(
    f(a),
    f(b),
    f(c),
    rnd(x),
    ftz(x),
    sat(x)
)));
k!(div_approx_f32, |a, b, c, x| fb(num::div_f32(
    f(a),
    f(b),
    DivKind::Approx,
    ftz(x)
)));
k!(div_full_f32, |a, b, c, x| fb(num::div_f32(
    f(a),
    f(b),
    DivKind::Full,
    ftz(x)
)));
k!(div_rnd_f32, |a, b, c, x| fb(num::div_f32(
    f(a),
    f(b),
    DivKind::Rnd(rnd(x)),
    ftz(x)
)));
k!(sqrt_f32, |a, b, c, x| fb(num::sqrt_f32(
    f(a),
    if x & APPROX != 0 { None } else { Some(rnd(x)) },
    ftz(x)
)));
k!(rcp_f32, |a, b, c, x| fb(num::rcp_f32(
    f(a),
    if x & APPROX != 0 { None } else { Some(rnd(x)) },
    ftz(x)
)));
k!(rsqrt_f32, |a, b, c, x| fb(num::rsqrt_f32(f(a), ftz(x))));
k!(ex2_f32, |a, b, c, x| fb(num::ex2_f32(f(a), ftz(x))));
k!(lg2_f32, |a, b, c, x| fb(num::lg2_f32(f(a), ftz(x))));
k!(sin_f32, |a, b, c, x| fb(num::sin_f32(f(a), ftz(x))));
k!(cos_f32, |a, b, c, x| fb(num::cos_f32(f(a), ftz(x))));
k!(tanh_f32, |a, b, c, x| fb(num::tanh_f32(f(a))));
k!(min_f32, |a, b, c, x| fb(num::min_f32(
    f(a),
    f(b),
    ftz(x),
    nan(x)
)));
k!(max_f32, |a, b, c, x| fb(num::max_f32(
    f(a),
    f(b),
    ftz(x),
    nan(x)
)));
k!(abs_f32, |a, b, c, x| fb(num::abs_f32(f(a), ftz(x))));
k!(neg_f32, |a, b, c, x| fb(num::neg_f32(f(a), ftz(x))));
k!(copysign_f32, |a, b, c, x| fb(num::copysign_f32(f(a), f(b))));
// f64.
k!(add_f64, |a, b, c, x| num::add_f64(d(a), d(b), rnd(x))
    .to_bits());
k!(sub_f64, |a, b, c, x| num::sub_f64(d(a), d(b), rnd(x))
    .to_bits());
k!(mul_f64, |a, b, c, x| num::mul_f64(d(a), d(b), rnd(x))
    .to_bits());
k!(fma_f64, |a, b, c, x| num::fma_f64(d(a), d(b), d(c), rnd(x))
    .to_bits());
k!(div_f64, |a, b, c, x| num::div_f64(d(a), d(b), rnd(x))
    .to_bits());
k!(sqrt_f64, |a, b, c, x| num::sqrt_f64(d(a), rnd(x)).to_bits());
k!(rcp_f64, |a, b, c, x| num::rcp_f64(
    d(a),
    if x & APPROX != 0 { None } else { Some(rnd(x)) }
)
.to_bits());
k!(rsqrt_f64, |a, b, c, x| num::rsqrt_f64(d(a), ftz(x))
    .to_bits());
k!(min_f64, |a, b, c, x| num::min_f64(d(a), d(b), nan(x))
    .to_bits());
k!(max_f64, |a, b, c, x| num::max_f64(d(a), d(b), nan(x))
    .to_bits());
k!(abs_f64, |a, b, c, x| num::abs_f64(d(a)).to_bits());
k!(neg_f64, |a, b, c, x| num::neg_f64(d(a)).to_bits());
k!(copysign_f64, |a, b, c, x| num::copysign_f64(d(a), d(b))
    .to_bits());
// f16 / bf16 and their x2 forms.
macro_rules! halves {
    ($($k:ident = $f:ident / $n:tt;)*) => {$(
        halves!(@ $k, $f, $n);
    )*};
    (@ $k:ident, $f:ident, 2) => {
        k!($k, |a, b, c, x| u64::from(num::$f(a as _, b as _, rnd(x), ftz(x), sat(x))));
    };
    (@ $k:ident, $f:ident, 3) => {
        k!($k, |a, b, c, x| u64::from(num::$f(a as _, b as _, c as _, rnd(x), ftz(x), sat(x))));
    };
    (@ $k:ident, $f:ident, m) => {
        k!($k, |a, b, c, x| u64::from(num::$f(a as _, b as _, ftz(x), nan(x))));
    };
    (@ $k:ident, $f:ident, u) => {
        k!($k, |a, b, c, x| u64::from(num::$f(a as _, ftz(x))));
    };
}
halves! {
    add_f16 = add_f16 / 2; sub_f16 = sub_f16 / 2; mul_f16 = mul_f16 / 2; fma_f16 = fma_f16 / 3;
    min_f16 = min_f16 / m; max_f16 = max_f16 / m; neg_f16 = neg_f16 / u; abs_f16 = abs_f16 / u;
    add_f16x2 = add_f16x2 / 2; sub_f16x2 = sub_f16x2 / 2; mul_f16x2 = mul_f16x2 / 2;
    fma_f16x2 = fma_f16x2 / 3; min_f16x2 = min_f16x2 / m; max_f16x2 = max_f16x2 / m;
    neg_f16x2 = neg_f16x2 / u; abs_f16x2 = abs_f16x2 / u;
    add_bf16 = add_bf16 / 2; sub_bf16 = sub_bf16 / 2; mul_bf16 = mul_bf16 / 2; fma_bf16 = fma_bf16 / 3;
    min_bf16 = min_bf16 / m; max_bf16 = max_bf16 / m; neg_bf16 = neg_bf16 / u; abs_bf16 = abs_bf16 / u;
    add_bf16x2 = add_bf16x2 / 2; sub_bf16x2 = sub_bf16x2 / 2; mul_bf16x2 = mul_bf16x2 / 2;
    fma_bf16x2 = fma_bf16x2 / 3; min_bf16x2 = min_bf16x2 / m; max_bf16x2 = max_bf16x2 / m;
    neg_bf16x2 = neg_bf16x2 / u; abs_bf16x2 = abs_bf16x2 / u;
}
// `.relu` forms: the operation, then `.relu` on its result (each half of an x2).
macro_rules! relus {
    ($($k:ident = $f:ident, $relu:ident / $n:tt;)*) => {$(
        relus!(@ $k, $f, $relu, $n);
    )*};
    (@ $k:ident, $f:ident, $relu:ident, 3) => {
        k!($k, |a, b, c, x| u64::from(num::$relu(num::$f(
            a as _, b as _, c as _, rnd(x), ftz(x), sat(x)
        ))));
    };
    (@ $k:ident, $f:ident, $relu:ident, m) => {
        k!($k, |a, b, c, x| u64::from(num::$relu(num::$f(a as _, b as _, ftz(x), nan(x)))));
    };
}
relus! {
    fma_f16_relu = fma_f16, relu_f16 / 3; fma_f16x2_relu = fma_f16x2, relu_f16x2 / 3;
    fma_bf16_relu = fma_bf16, relu_bf16 / 3; fma_bf16x2_relu = fma_bf16x2, relu_bf16x2 / 3;
    min_f16_relu = min_f16, relu_f16 / m; min_f16x2_relu = min_f16x2, relu_f16x2 / m;
    min_bf16_relu = min_bf16, relu_bf16 / m; min_bf16x2_relu = min_bf16x2, relu_bf16x2 / m;
    max_f16_relu = max_f16, relu_f16 / m; max_f16x2_relu = max_f16x2, relu_f16x2 / m;
    max_bf16_relu = max_bf16, relu_bf16 / m; max_bf16x2_relu = max_bf16x2, relu_bf16x2 / m;
}
k!(ex2_f16, |a, b, c, x| u64::from(num::ex2_f16(
    a as u16,
    ftz(x)
)));
k!(ex2_f16x2, |a, b, c, x| u64::from(num::ex2_f16x2(
    a as u32,
    ftz(x)
)));
k!(tanh_f16, |a, b, c, x| u64::from(num::tanh_f16(a as u16)));
k!(tanh_f16x2, |a, b, c, x| u64::from(num::tanh_f16x2(
    a as u32
)));

/// The float width (32, 64; 16 for the half types, whose literals are f16 bits) of type `ty`,
/// 0 for integer types: how a literal operand is encoded.
pub fn float_width(ty: &str) -> u32 {
    match ty {
        ".f32" => 32,
        ".f64" => 64,
        ".f16" => 16,
        _ => 0,
    }
}

fn rnd_bits(mods: &[&str]) -> Option<u32> {
    let mut r = None;
    for m in mods {
        r = match *m {
            ".rn" | ".rni" => Some(0),
            ".rna" => Some(1),
            ".rz" | ".rzi" => Some(2),
            ".rm" | ".rmi" => Some(3),
            ".rp" | ".rpi" => Some(4),
            _ => continue,
        };
    }
    r
}

/// The ALU kernel of opcode `base` with modifiers `mods`: (kernel, aux, the float width of its
/// literal operands); `None` where the executor lacks it.
pub fn lookup(base: &str, mods: &[&str]) -> Option<(AluFn, u32, u32)> {
    let ty = *mods.iter().rev().find(|m| type_size(m).is_some())?;
    let has = |m: &str| mods.contains(&m);
    let r = rnd_bits(mods);
    let mut aux = r.unwrap_or(0);
    if has(".ftz") {
        aux |= FTZ;
    }
    if has(".sat") || has(".satfinite") {
        aux |= SAT;
    }
    if has(".NaN") {
        aux |= NAN;
    }
    // `.relu` (PTX ISA sm_80+: negative results become +0, NaN the canonical NaN) is modelled
    // on the f16/bf16 forms of fma, min and max, the ones cuda_fp16.h / cuda_bf16.h emit
    // (`__hfma_relu`, `__hmax2_relu` ...); anywhere else it is refused.
    let relu = has(".relu");
    if relu
        && !(matches!(base, "fma" | "min" | "max")
            && matches!(ty, ".f16" | ".f16x2" | ".bf16" | ".bf16x2"))
    {
        return None;
    }
    if has(".cc")
        || mods
            .iter()
            .any(|m| (m.starts_with(".relu") && *m != ".relu") || *m == ".xorsign" || *m == ".abs")
    {
        return None;
    }
    let fw = float_width(ty);
    let size = type_size(ty)?;
    let signed = ty.starts_with(".s");
    let w = |k16: AluFn, k32: AluFn, k64: AluFn| match size {
        2 => Some(k16),
        4 => Some(k32),
        8 => Some(k64),
        _ => None,
    };
    let sw = |u: [AluFn; 3], s: [AluFn; 3]| {
        let [a, b, c] = if signed { s } else { u };
        match size {
            2 => Some(a),
            4 => Some(b),
            8 => Some(c),
            _ => None,
        }
    };
    let float = |f32k: Option<AluFn>, f64k: Option<AluFn>, h: [Option<AluFn>; 4]| match ty {
        ".f32" => f32k,
        ".f64" => f64k,
        ".f16" => h[0],
        ".f16x2" => h[1],
        ".bf16" => h[2],
        ".bf16x2" => h[3],
        _ => None,
    };
    let is_float = ty.starts_with(".f") || ty.starts_with(".bf");
    // `slct.dtype.s32 d, a, b, c` / `slct{.ftz}.dtype.f32 d, a, b, c` (PTX ISA "slct"): `d = c >=
    // 0 ? a : b`, -0.0 counting as 0 and a NaN `c` selecting `b`; `.ftz` flushes a subnormal `c`
    // to the zero of its sign (so -subnormal selects `a`). `ty` is `c`'s type; `a` and `b` (the
    // destination's type, whose float width the caller reads operands with) are only copied.
    if base == "slct" {
        let dty = *mods.iter().find(|m| type_size(m).is_some())?;
        let k: AluFn = match ty {
            ".s32" => slct_s32,
            ".f32" => slct_f32,
            _ => return None,
        };
        return Some((k, u32::from(has(".ftz")), float_width(dty)));
    }
    let k: AluFn = match base {
        // PTX 8.0's packed 16-bit integer forms (sm_90); their .sat forms are not modelled.
        "add" | "sub" | "min" | "max" if matches!(ty, ".u16x2" | ".s16x2") => {
            if has(".sat") {
                return None;
            }
            let op = match base {
                "add" => 0,
                "sub" => 1,
                "min" => 2,
                _ => 3,
            };
            aux = u32::from(signed) | (op << 1);
            simd16x2
        }
        "add" if is_float => float(
            Some(add_f32),
            Some(add_f64),
            [
                Some(add_f16),
                Some(add_f16x2),
                Some(add_bf16),
                Some(add_bf16x2),
            ],
        )?,
        "sub" if is_float => float(
            Some(sub_f32),
            Some(sub_f64),
            [
                Some(sub_f16),
                Some(sub_f16x2),
                Some(sub_bf16),
                Some(sub_bf16x2),
            ],
        )?,
        "mul" if is_float => float(
            Some(mul_f32),
            Some(mul_f64),
            [
                Some(mul_f16),
                Some(mul_f16x2),
                Some(mul_bf16),
                Some(mul_bf16x2),
            ],
        )?,
        "fma" if relu => float(
            None,
            None,
            [
                Some(fma_f16_relu),
                Some(fma_f16x2_relu),
                Some(fma_bf16_relu),
                Some(fma_bf16x2_relu),
            ],
        )?,
        "min" if relu => float(
            None,
            None,
            [
                Some(min_f16_relu),
                Some(min_f16x2_relu),
                Some(min_bf16_relu),
                Some(min_bf16x2_relu),
            ],
        )?,
        "max" if relu => float(
            None,
            None,
            [
                Some(max_f16_relu),
                Some(max_f16x2_relu),
                Some(max_bf16_relu),
                Some(max_bf16x2_relu),
            ],
        )?,
        "fma" | "mad" if is_float => float(
            Some(fma_f32),
            Some(fma_f64),
            [
                Some(fma_f16),
                Some(fma_f16x2),
                Some(fma_bf16),
                Some(fma_bf16x2),
            ],
        )?,
        "min" if is_float => float(
            Some(min_f32),
            Some(min_f64),
            [
                Some(min_f16),
                Some(min_f16x2),
                Some(min_bf16),
                Some(min_bf16x2),
            ],
        )?,
        "max" if is_float => float(
            Some(max_f32),
            Some(max_f64),
            [
                Some(max_f16),
                Some(max_f16x2),
                Some(max_bf16),
                Some(max_bf16x2),
            ],
        )?,
        "neg" if is_float => float(
            Some(neg_f32),
            Some(neg_f64),
            [
                Some(neg_f16),
                Some(neg_f16x2),
                Some(neg_bf16),
                Some(neg_bf16x2),
            ],
        )?,
        "abs" if is_float => float(
            Some(abs_f32),
            Some(abs_f64),
            [
                Some(abs_f16),
                Some(abs_f16x2),
                Some(abs_bf16),
                Some(abs_bf16x2),
            ],
        )?,
        "div" if is_float => match ty {
            ".f32" if has(".approx") => div_approx_f32,
            ".f32" if has(".full") => div_full_f32,
            ".f32" if r.is_some() => div_rnd_f32,
            ".f64" => div_f64,
            _ => return None,
        },
        "sqrt" | "rcp" => {
            if has(".approx") {
                aux |= APPROX;
            } else if r.is_none() {
                return None;
            }
            match (base, ty) {
                ("sqrt", ".f32") => sqrt_f32,
                ("sqrt", ".f64") if !has(".approx") => sqrt_f64,
                ("rcp", ".f32") => rcp_f32,
                ("rcp", ".f64") => rcp_f64,
                _ => return None,
            }
        }
        "rsqrt" => float(Some(rsqrt_f32), Some(rsqrt_f64), [None; 4])?,
        "ex2" => float(
            Some(ex2_f32),
            None,
            [Some(ex2_f16), Some(ex2_f16x2), None, None],
        )?,
        "lg2" => float(Some(lg2_f32), None, [None; 4])?,
        "sin" => float(Some(sin_f32), None, [None; 4])?,
        "cos" => float(Some(cos_f32), None, [None; 4])?,
        "tanh" => float(
            Some(tanh_f32),
            None,
            [Some(tanh_f16), Some(tanh_f16x2), None, None],
        )?,
        "copysign" => float(Some(copysign_f32), Some(copysign_f64), [None; 4])?,
        "add" if has(".sat") => {
            if ty != ".s32" {
                return None;
            }
            add_sat_s32
        }
        "sub" if has(".sat") => {
            if ty != ".s32" {
                return None;
            }
            sub_sat_s32
        }
        "add" => w(add16, add32, add64)?,
        "sub" => w(sub16, sub32, sub64)?,
        "mul" if has(".hi") => sw(
            [mul_hi_u16, mul_hi_u32, mul_hi_u64],
            [mul_hi_s16, mul_hi_s32, mul_hi_s64],
        )?,
        "mul" if has(".wide") => match size {
            2 => {
                if signed {
                    mul_wide_s16
                } else {
                    mul_wide_u16
                }
            }
            4 => {
                if signed {
                    mul_wide_s32
                } else {
                    mul_wide_u32
                }
            }
            _ => return None,
        },
        "mul" => w(mul_lo16, mul_lo32, mul_lo64)?,
        "mul24" if has(".lo") && size == 4 => {
            if signed {
                mul24_lo_s32
            } else {
                mul24_lo_u32
            }
        }
        // `.hi` (bits 47..16 of the 48-bit product) and `mad24` (PTX ISA "mul24", "mad24").
        "mul24" | "mad24" if size == 4 && (has(".lo") || has(".hi")) => {
            if has(".sat") && !(base == "mad24" && has(".hi") && signed) {
                return None;
            }
            aux = u32::from(signed) | (u32::from(has(".hi")) << 1) | (u32::from(has(".sat")) << 2);
            if base == "mul24" { mul24_k } else { mad24_k }
        }
        "mad" if has(".hi") => match size {
            4 => {
                if signed {
                    mad_hi_s32
                } else {
                    mad_hi_u32
                }
            }
            8 => {
                if signed {
                    mad_hi_s64
                } else {
                    mad_hi_u64
                }
            }
            _ => return None,
        },
        "mad" if has(".wide") => match size {
            2 => {
                if signed {
                    mad_wide_s16
                } else {
                    mad_wide_u16
                }
            }
            4 => {
                if signed {
                    mad_wide_s32
                } else {
                    mad_wide_u32
                }
            }
            _ => return None,
        },
        "mad" => w(mad_lo16, mad_lo32, mad_lo64)?,
        "div" => sw([div_u16, div_u32, div_u64], [div_s16, div_s32, div_s64])?,
        "rem" => sw([rem_u16, rem_u32, rem_u64], [rem_s16, rem_s32, rem_s64])?,
        "abs" if signed => w(abs_s16, abs_s32, abs_s64)?,
        "neg" => w(neg16, neg32, neg64)?,
        "min" => sw([min_u16, min_u32, min_u64], [min_s16, min_s32, min_s64])?,
        "max" => sw([max_u16, max_u32, max_u64], [max_s16, max_s32, max_s64])?,
        "sad" => match size {
            4 => {
                if signed {
                    sad_s32
                } else {
                    sad_u32
                }
            }
            8 => {
                if signed {
                    sad_s64
                } else {
                    sad_u64
                }
            }
            _ => return None,
        },
        "and" => and64,
        "or" => or64,
        "xor" => xor64,
        "not" => w(not16, not32, not64)?,
        "cnot" => {
            aux |= (size * 8) << 8;
            cnot
        }
        "shl" => w(shl16, shl32, shl64)?,
        "shr" => sw([shr_u16, shr_u32, shr_u64], [shr_s16, shr_s32, shr_s64])?,
        "popc" => {
            if size == 8 {
                popc64
            } else {
                popc32
            }
        }
        "clz" => {
            if size == 8 {
                clz64
            } else {
                clz32
            }
        }
        "brev" => {
            if size == 8 {
                brev64
            } else {
                brev32
            }
        }
        "bfind" => {
            aux = u32::from(signed) | (u32::from(has(".shiftamt")) << 1) | ((size * 8) << 8);
            bfind
        }
        "bfe" => sw([bfe_u32, bfe_u32, bfe_u64], [bfe_s32, bfe_s32, bfe_s64])?,
        "prmt" => {
            aux = if has(".f4e") {
                1
            } else if has(".b4e") {
                2
            } else if has(".rc8") {
                3
            } else if has(".ecl") {
                4
            } else if has(".ecr") {
                5
            } else if has(".rc16") {
                6
            } else {
                0
            };
            prmt
        }
        "shf" => {
            aux = u32::from(has(".clamp"));
            if has(".l") { shf_l } else { shf_r }
        }
        "dp4a" | "dp2a" => {
            let tys: alloc::vec::Vec<&&str> =
                mods.iter().filter(|m| type_size(m).is_some()).collect();
            let (Some(ta), Some(tb)) = (tys.first(), tys.get(1)) else {
                return None;
            };
            aux = u32::from(ta.starts_with(".s"))
                | (u32::from(tb.starts_with(".s")) << 1)
                | (u32::from(has(".hi")) << 2);
            if base == "dp4a" { dp4a } else { dp2a }
        }
        // The SIMD video instructions' vabsdiff, the one NVRTC emits (for __vabsdiffu4,
        // __vsadu2 ...); explicit masks and lane selectors (`d.b10`, `a.b3210`) are refused
        // where the operands are parsed.
        "vabsdiff2" | "vabsdiff4" => {
            let tys: alloc::vec::Vec<&&str> =
                mods.iter().filter(|m| type_size(m).is_some()).collect();
            let [td, ta, tb] = tys.as_slice() else {
                return None;
            };
            if [td, ta, tb]
                .iter()
                .any(|t| !matches!(***t, ".u32" | ".s32"))
            {
                return None;
            }
            aux = u32::from(**ta == ".s32")
                | (u32::from(**tb == ".s32") << 1)
                | (u32::from(**td == ".s32") << 2)
                | (u32::from(has(".sat")) << 3)
                | (u32::from(has(".add")) << 4)
                | (u32::from(base == "vabsdiff4") << 5);
            vabsdiff
        }
        // `fns.b32 d, mask, base, offset` ([`num::fns`], which was there but not wired).
        "fns" => fns_k,
        "szext" => {
            aux = u32::from(has(".clamp")) << 1 | u32::from(signed);
            szext
        }
        _ => return None,
    };
    Some((k, aux, fw))
}

macro_rules! cmps {
    ($m:ident, |$a:ident, $b:ident| $cv:expr, $ord:expr) => {
        mod $m {
            #![allow(clippy::float_cmp)]
            use super::*;
            #[inline]
            fn o($a: u64, $b: u64) -> Option<Ordering> {
                $ord
            }
            macro_rules! c {
                ($name:ident, |$x:ident| $e:expr) => {
                    pub fn $name(a: &Lanes, b: &Lanes) -> u32 {
                        let mut m = 0u32;
                        for i in 0..32 {
                            let $x = o(a[i], b[i]);
                            if $e {
                                m |= 1 << i;
                            }
                        }
                        m
                    }
                };
            }
            c!(eq, |x| x == Some(Ordering::Equal));
            c!(ne, |x| x != Some(Ordering::Equal) && x.is_some());
            c!(lt, |x| x == Some(Ordering::Less));
            c!(le, |x| matches!(x, Some(Ordering::Less | Ordering::Equal)));
            c!(gt, |x| x == Some(Ordering::Greater));
            c!(ge, |x| matches!(
                x,
                Some(Ordering::Greater | Ordering::Equal)
            ));
            c!(equ, |x| x.is_none() || x == Some(Ordering::Equal));
            c!(neu, |x| x != Some(Ordering::Equal));
            c!(ltu, |x| x.is_none() || x == Some(Ordering::Less));
            c!(leu, |x| !matches!(x, Some(Ordering::Greater)));
            c!(gtu, |x| x.is_none() || x == Some(Ordering::Greater));
            c!(geu, |x| !matches!(x, Some(Ordering::Less)));
            c!(num, |x| x.is_some());
            c!(nan, |x| x.is_none());
            #[allow(dead_code)]
            const _: fn(u64) -> u64 = |$a| $cv;
        }
    };
}
cmps!(cu16, |a, b| a, Some((a as u16).cmp(&(b as u16))));
cmps!(cs16, |a, b| a, Some((a as i16).cmp(&(b as i16))));
cmps!(cu32, |a, b| a, Some((a as u32).cmp(&(b as u32))));
cmps!(cs32, |a, b| a, Some((a as i32).cmp(&(b as i32))));
cmps!(cu64, |a, b| a, Some(a.cmp(&b)));
cmps!(cs64, |a, b| a, Some((a as i64).cmp(&(b as i64))));
cmps!(cf32, |a, b| a, f(a).partial_cmp(&f(b)));
cmps!(cf64, |a, b| a, d(a).partial_cmp(&d(b)));
cmps!(cf32z, |a, b| a, num::cmp_f32(f(a), f(b), true));
cmps!(cf16, |a, b| a, num::cmp_f16(a as u16, b as u16, false));
cmps!(cf16z, |a, b| a, num::cmp_f16(a as u16, b as u16, true));
cmps!(cbf16, |a, b| a, num::cmp_bf16(a as u16, b as u16, false));

/// The comparison `cmp` (`.eq`, `.lt`, `.ltu`, `.lo` …) on type `ty`; `ftz`: the instruction's
/// `.ftz`, which flushes subnormal f32 and f16 inputs to the zero of their sign before comparing
/// (PTX ISA "setp", "set": `-subnormal < 0` is false under `.ftz`).
pub fn cmp(cmp: &str, ty: &str, ftz: bool) -> Option<CmpFn> {
    macro_rules! pick {
        ($m:ident, $float:expr) => {
            match cmp {
                ".eq" => $m::eq as CmpFn,
                ".ne" => {
                    if $float {
                        $m::ne
                    } else {
                        $m::neu
                    }
                }
                ".lt" | ".lo" => $m::lt,
                ".le" | ".ls" => $m::le,
                ".gt" | ".hi" => $m::gt,
                ".ge" | ".hs" => $m::ge,
                ".equ" if $float => $m::equ,
                ".neu" if $float => $m::neu,
                ".ltu" if $float => $m::ltu,
                ".leu" if $float => $m::leu,
                ".gtu" if $float => $m::gtu,
                ".geu" if $float => $m::geu,
                ".num" if $float => $m::num,
                ".nan" if $float => $m::nan,
                _ => return None,
            }
        };
    }
    let unsigned_only = matches!(cmp, ".lo" | ".ls" | ".hi" | ".hs");
    Some(match ty {
        ".u16" | ".b16" => pick!(cu16, false),
        ".s16" => {
            if unsigned_only {
                pick!(cu16, false)
            } else {
                pick!(cs16, false)
            }
        }
        ".u32" | ".b32" => pick!(cu32, false),
        ".s32" => {
            if unsigned_only {
                pick!(cu32, false)
            } else {
                pick!(cs32, false)
            }
        }
        ".u64" | ".b64" => pick!(cu64, false),
        ".s64" => {
            if unsigned_only {
                pick!(cu64, false)
            } else {
                pick!(cs64, false)
            }
        }
        ".f32" if ftz => pick!(cf32z, true),
        ".f32" => pick!(cf32, true),
        ".f64" => pick!(cf64, true),
        ".f16" if ftz => pick!(cf16z, true),
        ".f16" => pick!(cf16, true),
        ".bf16" => pick!(cbf16, true),
        _ => return None,
    })
}

// Conversions. aux bits 8–15: the source width in bits, 16–23: the destination type's width,
// bit 6: source signed, bit 7: destination signed; 24–31: the destination register's width.
#[inline]
fn sext_to_reg(v: u64, to_bits: u32, signed: bool, reg_bits: u32) -> u64 {
    let v = if signed && to_bits < 64 && to_bits > 0 {
        let sh = 64 - to_bits;
        (((v << sh) as i64) >> sh) as u64
    } else {
        v
    };
    if reg_bits >= 64 || reg_bits == 0 {
        v
    } else {
        v & ((1u64 << reg_bits) - 1)
    }
}
#[inline]
fn cx(x: u32) -> (u32, u32, bool, bool, u32) {
    (
        (x >> 8) & 0xff,
        (x >> 16) & 0xff,
        x & (1 << 6) != 0,
        x & (1 << 7) != 0,
        x >> 24,
    )
}
k!(cvt_ii, |a, b, c, x| {
    let (fb_, tb, fs, ts, rb) = cx(x);
    sext_to_reg(num::int_to_int(a, fs, fb_, ts, tb, sat(x)), tb, ts, rb)
});
k!(cvt_f32_i, |a, b, c, x| {
    let (fb_, _, fs, _, _) = cx(x);
    fb(num::int_to_f32(a, fs, fb_, rnd(x)))
});
k!(cvt_f64_i, |a, b, c, x| {
    let (fb_, _, fs, _, _) = cx(x);
    num::int_to_f64(a, fs, fb_, rnd(x)).to_bits()
});
k!(cvt_f16_i, |a, b, c, x| {
    let (fb_, _, fs, _, _) = cx(x);
    u64::from(num::int_to_f16(a, fs, fb_, rnd(x)))
});
k!(cvt_bf16_i, |a, b, c, x| {
    let (fb_, _, fs, _, _) = cx(x);
    u64::from(num::int_to_bf16(a, fs, fb_, rnd(x)))
});
k!(cvt_i_f32, |a, b, c, x| {
    let (_, tb, _, ts, rb) = cx(x);
    let v = f(a);
    let v = if ftz(x) && v.is_subnormal() { 0.0 } else { v };
    let r = if v.is_nan() {
        num::nan_to_int(false, tb)
    } else {
        num::float_to_int(f64::from(v), irnd(x), ts, tb, ftz(x))
    };
    sext_to_reg(r, tb, ts, rb)
});
k!(cvt_i_f64, |a, b, c, x| {
    let (_, tb, _, ts, rb) = cx(x);
    let r = if d(a).is_nan() {
        num::nan_to_int(true, tb)
    } else {
        num::float_to_int(d(a), irnd(x), ts, tb, false)
    };
    sext_to_reg(r, tb, ts, rb)
});
k!(cvt_i_f16, |a, b, c, x| {
    let (_, tb, _, ts, rb) = cx(x);
    sext_to_reg(num::f16_to_int(a as u16, irnd(x), ts, tb), tb, ts, rb)
});
k!(cvt_i_bf16, |a, b, c, x| {
    let (_, tb, _, ts, rb) = cx(x);
    sext_to_reg(num::bf16_to_int(a as u16, irnd(x), ts, tb), tb, ts, rb)
});
k!(cvt_f32_f64, |a, b, c, x| fb(num::f64_to_f32(
    d(a),
    rnd(x),
    ftz(x),
    sat(x)
)));
k!(cvt_f64_f32, |a, b, c, x| num::f32_to_f64(
    f(a),
    ftz(x),
    sat(x)
)
.to_bits());
k!(cvt_f32_f32, |a, b, c, x| fb(num::f32_round_int(
    f(a),
    irnd(x),
    ftz(x),
    sat(x)
)));
k!(cvt_f32_f32_plain, |a, b, c, x| fb(num::add_f32(
    f(a),
    -0.0,
    Rnd::Rn,
    ftz(x),
    sat(x)
)));
k!(cvt_f64_f64, |a, b, c, x| num::f64_round_int(
    d(a),
    irnd(x),
    sat(x)
)
.to_bits());
k!(cvt_f16_f32, |a, b, c, x| u64::from(num::f32_to_f16(
    f(a),
    rnd(x),
    sat(x)
)));
k!(cvt_f16_f64, |a, b, c, x| u64::from(num::f64_to_f16(
    d(a),
    rnd(x),
    sat(x)
)));
k!(cvt_bf16_f32, |a, b, c, x| u64::from(num::f32_to_bf16(
    f(a),
    rnd(x),
    sat(x)
)));
k!(cvt_bf16_f64, |a, b, c, x| u64::from(num::f64_to_bf16(
    d(a),
    rnd(x),
    sat(x)
)));
k!(cvt_f32_f16, |a, b, c, x| fb(num::f16_to_f32(a as u16)));
k!(cvt_f64_f16, |a, b, c, x| num::f16_to_f64(a as u16)
    .to_bits());
k!(cvt_f32_bf16, |a, b, c, x| fb(num::bf16_to_f32(a as u16)));
k!(cvt_f64_bf16, |a, b, c, x| num::bf16_to_f64(a as u16)
    .to_bits());
k!(cvt_f16x2_f32, |a, b, c, x| u64::from(num::f32x2_to_f16x2(
    f(a),
    f(b),
    rnd(x)
)));
k!(cvt_bf16x2_f32, |a, b, c, x| u64::from(
    num::f32x2_to_bf16x2(f(a), f(b), rnd(x))
));
/// `.relu` of a conversion to or from fp8 (the bit of `.NaN`, which cvt has not).
const CVT_RELU: u32 = NAN;
k!(cvt_e4m3x2_f32, |a, b, c, x| u64::from(
    num::f32x2_to_e4m3x2(f(a), f(b), x & CVT_RELU != 0)
));
k!(cvt_e5m2x2_f32, |a, b, c, x| u64::from(
    num::f32x2_to_e5m2x2(f(a), f(b), x & CVT_RELU != 0)
));
k!(cvt_e4m3x2_f16x2, |a, b, c, x| u64::from(
    num::f16x2_to_e4m3x2(a as u32, x & CVT_RELU != 0)
));
k!(cvt_e5m2x2_f16x2, |a, b, c, x| u64::from(
    num::f16x2_to_e5m2x2(a as u32, x & CVT_RELU != 0)
));
k!(cvt_f16x2_e4m3x2, |a, b, c, x| u64::from(
    num::e4m3x2_to_f16x2(a as u16, x & CVT_RELU != 0)
));
k!(cvt_f16x2_e5m2x2, |a, b, c, x| u64::from(
    num::e5m2x2_to_f16x2(a as u16, x & CVT_RELU != 0)
));
k!(cvt_f16_f16, |a, b, c, x| u64::from(num::f16_round_int(
    a as u16,
    irnd(x),
    ftz(x),
    sat(x)
)));

/// The `cvt` kernel from `sty` to `dty` with modifiers `mods`, and its aux.
pub fn cvt(dty: &str, sty: &str, mods: &[&str]) -> Option<(AluFn, u32)> {
    let has = |m: &str| mods.contains(&m);
    let r = rnd_bits(mods);
    let int_rnd = mods
        .iter()
        .any(|m| matches!(*m, ".rni" | ".rzi" | ".rmi" | ".rpi"));
    let mut aux = r.unwrap_or(0);
    if has(".ftz") {
        aux |= FTZ;
    }
    if has(".sat") || has(".satfinite") {
        aux |= SAT;
    }
    // `.relu` is modelled on the fp8 conversions only (`num::f32x2_to_e4m3x2` ...).
    let fp8 = |t: &str| matches!(t, ".e4m3x2" | ".e5m2x2");
    if mods.iter().any(|m| m.starts_with(".relu")) {
        if !(has(".relu") && (fp8(dty) || fp8(sty))) {
            return None;
        }
        aux |= CVT_RELU;
    }
    // `.b16` is an integer type here, `.bf16` (also starting `.b`) a float.
    let int =
        |t: &str| matches!(t.as_bytes().get(1), Some(b'u' | b's' | b'b')) && !t.starts_with(".bf");
    let ds = type_size(dty)? * 8;
    let ss = type_size(sty)? * 8;
    aux |= (ss << 8) | (ds << 16);
    if sty.starts_with(".s") {
        aux |= 1 << 6;
    }
    if dty.starts_with(".s") {
        aux |= 1 << 7;
    }
    let k: AluFn = match (dty, sty) {
        (d, s) if int(d) && int(s) => cvt_ii,
        (".f32", s) if int(s) => cvt_f32_i,
        (".f64", s) if int(s) => cvt_f64_i,
        (".f16", s) if int(s) => cvt_f16_i,
        (".bf16", s) if int(s) => cvt_bf16_i,
        (d, ".f32") if int(d) => cvt_i_f32,
        (d, ".f64") if int(d) => cvt_i_f64,
        (d, ".f16") if int(d) => cvt_i_f16,
        (d, ".bf16") if int(d) => cvt_i_bf16,
        (".f32", ".f64") => cvt_f32_f64,
        (".f64", ".f32") => cvt_f64_f32,
        (".f32", ".f32") if int_rnd => cvt_f32_f32,
        (".f32", ".f32") => cvt_f32_f32_plain,
        (".f64", ".f64") if int_rnd => cvt_f64_f64,
        (".f16", ".f16") if int_rnd => cvt_f16_f16,
        (".f16", ".f32") => cvt_f16_f32,
        (".f16", ".f64") => cvt_f16_f64,
        (".bf16", ".f32") => cvt_bf16_f32,
        (".bf16", ".f64") => cvt_bf16_f64,
        (".f32", ".f16") => cvt_f32_f16,
        (".f64", ".f16") => cvt_f64_f16,
        (".f32", ".bf16") => cvt_f32_bf16,
        (".f64", ".bf16") => cvt_f64_bf16,
        (".f16x2", ".f32") => cvt_f16x2_f32,
        (".bf16x2", ".f32") => cvt_bf16x2_f32,
        // fp8 pairs (sm_89; PTX ISA "cvt", "Alternate floating-point formats").
        (".e4m3x2", ".f32") => cvt_e4m3x2_f32,
        (".e5m2x2", ".f32") => cvt_e5m2x2_f32,
        (".e4m3x2", ".f16x2") => cvt_e4m3x2_f16x2,
        (".e5m2x2", ".f16x2") => cvt_e5m2x2_f16x2,
        (".f16x2", ".e4m3x2") => cvt_f16x2_e4m3x2,
        (".f16x2", ".e5m2x2") => cvt_f16x2_e5m2x2,
        _ => return None,
    };
    Some((k, aux))
}

/// `lop3.b32 d, a, b, c, lut`: the kernel with the LUT in aux.
pub fn lop3_fn(lut: u8) -> (AluFn, u32) {
    (lop3, u32::from(lut) << 8)
}

macro_rules! tests {
    ($($name:ident = |$a:ident| $e:expr;)*) => {$(
        fn $name(a: &Lanes, _b: &Lanes) -> u32 {
            let mut m = 0u32;
            for i in 0..32 {
                let $a = a[i];
                if $e {
                    m |= 1 << i;
                }
            }
            m
        }
    )*};
}
tests! {
    tp_finite_f32 = |a| num::testp_f32(f(a), TestP::Finite);
    tp_infinite_f32 = |a| num::testp_f32(f(a), TestP::Infinite);
    tp_number_f32 = |a| num::testp_f32(f(a), TestP::Number);
    tp_nan_f32 = |a| num::testp_f32(f(a), TestP::NotANumber);
    tp_normal_f32 = |a| num::testp_f32(f(a), TestP::Normal);
    tp_subnormal_f32 = |a| num::testp_f32(f(a), TestP::Subnormal);
    tp_finite_f64 = |a| num::testp_f64(d(a), TestP::Finite);
    tp_infinite_f64 = |a| num::testp_f64(d(a), TestP::Infinite);
    tp_number_f64 = |a| num::testp_f64(d(a), TestP::Number);
    tp_nan_f64 = |a| num::testp_f64(d(a), TestP::NotANumber);
    tp_normal_f64 = |a| num::testp_f64(d(a), TestP::Normal);
    tp_subnormal_f64 = |a| num::testp_f64(d(a), TestP::Subnormal);
    is_global = |a| crate::memory::classify(a).0 == crate::memory::Space::Global;
    is_shared = |a| crate::memory::classify(a).0 == crate::memory::Space::Shared;
    // shared::cta: the block's own window, not a peer's shared::cluster address (`mapa` to the
    // block's own rank answers its untagged address).
    is_shared_cta = |a| matches!(
        crate::memory::classify(a),
        (crate::memory::Space::Shared, off) if off <= crate::cluster::OFFSET_MASK
    );
    is_local = |a| crate::memory::classify(a).0 == crate::memory::Space::Local;
    is_param = |a| crate::memory::classify(a).0 == crate::memory::Space::Param;
}

/// `testp.op.ty` as a one-operand comparison.
pub fn testp(op: &str, ty: &str) -> Option<CmpFn> {
    let f32k = ty == ".f32";
    if !f32k && ty != ".f64" {
        return None;
    }
    Some(match (op, f32k) {
        (".finite", true) => tp_finite_f32,
        (".infinite", true) => tp_infinite_f32,
        (".number", true) => tp_number_f32,
        (".notanumber", true) => tp_nan_f32,
        (".normal", true) => tp_normal_f32,
        (".subnormal", true) => tp_subnormal_f32,
        (".finite", false) => tp_finite_f64,
        (".infinite", false) => tp_infinite_f64,
        (".number", false) => tp_number_f64,
        (".notanumber", false) => tp_nan_f64,
        (".normal", false) => tp_normal_f64,
        (".subnormal", false) => tp_subnormal_f64,
        _ => return None,
    })
}

/// `isspacep.space` as a one-operand comparison on a generic address.
pub fn isspacep(space: &str) -> Option<CmpFn> {
    Some(match space {
        ".global" | ".const" => is_global,
        ".shared" | ".shared::cta" => is_shared_cta,
        ".shared::cluster" => is_shared,
        ".local" => is_local,
        ".param" | ".param::entry" => is_param,
        _ => return None,
    })
}
