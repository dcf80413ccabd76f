//! Integer arithmetic whose PTX definition is more than a wrapping Rust operator (PTX ISA
//! "Integer arithmetic instructions": mul.hi/.wide, mad.hi, add/sub.sat, sad, min/max, dp4a,
//! dp2a). Plain `add`, `sub`, `mul.lo` are the `wrapping_*` operators.

/// `mul.hi.u32 d, a, b`: the upper 32 bits of the 64-bit product.
#[inline]
pub fn mul_hi_u32(a: u32, b: u32) -> u32 {
    ((a as u64 * b as u64) >> 32) as u32
}

/// `mul.hi.s32 d, a, b`: the upper 32 bits of the signed 64-bit product.
#[inline]
pub fn mul_hi_s32(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> 32) as i32
}

/// `mul.hi.u64 d, a, b`: the upper 64 bits of the 128-bit product.
#[inline]
pub fn mul_hi_u64(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) >> 64) as u64
}

/// `mul.hi.s64 d, a, b`: the upper 64 bits of the signed 128-bit product.
#[inline]
pub fn mul_hi_s64(a: i64, b: i64) -> i64 {
    ((a as i128 * b as i128) >> 64) as i64
}

/// `mul.wide.u32 d, a, b`: the full 64-bit product (`.u16` → u32 likewise through this).
#[inline]
pub fn mul_wide_u32(a: u32, b: u32) -> u64 {
    a as u64 * b as u64
}

/// `mul.wide.s32 d, a, b`: the full signed 64-bit product.
#[inline]
pub fn mul_wide_s32(a: i32, b: i32) -> i64 {
    a as i64 * b as i64
}

/// `mad.hi.u32 d, a, b, c`: upper half of `a * b`, plus `c` (wrapping).
#[inline]
pub fn mad_hi_u32(a: u32, b: u32, c: u32) -> u32 {
    mul_hi_u32(a, b).wrapping_add(c)
}

/// `mad.hi{.sat}.s32 d, a, b, c`: upper half of `a * b`, plus `c`; `.sat` clamps the sum to
/// the s32 range instead of wrapping.
#[inline]
pub fn mad_hi_s32(a: i32, b: i32, c: i32, sat: bool) -> i32 {
    let h = mul_hi_s32(a, b);
    if sat {
        h.saturating_add(c)
    } else {
        h.wrapping_add(c)
    }
}

/// `mad.hi.u64 d, a, b, c`: upper half of `a * b`, plus `c` (wrapping).
#[inline]
pub fn mad_hi_u64(a: u64, b: u64, c: u64) -> u64 {
    mul_hi_u64(a, b).wrapping_add(c)
}

/// `mad.hi.s64 d, a, b, c`: upper half of `a * b`, plus `c` (wrapping).
#[inline]
pub fn mad_hi_s64(a: i64, b: i64, c: i64) -> i64 {
    mul_hi_s64(a, b).wrapping_add(c)
}

/// `add.sat.s32 d, a, b`: clamped to [−2^31, 2^31 − 1].
#[inline]
pub fn add_sat_s32(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

/// `sub.sat.s32 d, a, b`: clamped to [−2^31, 2^31 − 1].
#[inline]
pub fn sub_sat_s32(a: i32, b: i32) -> i32 {
    a.saturating_sub(b)
}

/// `sad.u32 d, a, b, c`: `|a - b| + c` (wrapping).
#[inline]
pub fn sad_u32(a: u32, b: u32, c: u32) -> u32 {
    a.abs_diff(b).wrapping_add(c)
}

/// `sad.s32 d, a, b, c`: `|a - b| + c` (wrapping; the difference is exact in u32).
#[inline]
pub fn sad_s32(a: i32, b: i32, c: i32) -> i32 {
    (a.abs_diff(b) as i32).wrapping_add(c)
}

/// `sad.u64 d, a, b, c`.
#[inline]
pub fn sad_u64(a: u64, b: u64, c: u64) -> u64 {
    a.abs_diff(b).wrapping_add(c)
}

/// `sad.s64 d, a, b, c`.
#[inline]
pub fn sad_s64(a: i64, b: i64, c: i64) -> i64 {
    (a.abs_diff(b) as i64).wrapping_add(c)
}

/// One byte of `x`, sign- or zero-extended.
#[inline]
fn byte(x: u32, i: u32, signed: bool) -> i32 {
    let b = (x >> (8 * (i & 3))) as u8;
    if signed { b as i8 as i32 } else { b as i32 }
}

/// One half-word of `x`, sign- or zero-extended.
#[inline]
fn half(x: u32, i: u32, signed: bool) -> i32 {
    let h = (x >> (16 * (i & 1))) as u16;
    if signed { h as i16 as i32 } else { h as i32 }
}

/// `dp4a.atype.btype d, a, b, c` (sm_61): `c + Σ a.byte[i] * b.byte[i]` over the four bytes,
/// each sign- or zero-extended by its type; 32-bit wrapping (d is `.s32` if either is signed,
/// the bits are the same).
pub fn dp4a(a: u32, b: u32, c: u32, a_signed: bool, b_signed: bool) -> u32 {
    let mut acc = c as i32;
    for i in 0..4 {
        acc = acc.wrapping_add(byte(a, i, a_signed).wrapping_mul(byte(b, i, b_signed)));
    }
    acc as u32
}

/// The packed 16-bit operations of PTX ISA 8.0 (sm_90): `add`, `sub`, `min`, `max` on
/// `.u16x2` / `.s16x2`, each half-word on its own (`add`/`sub` wrapping in 16 bits, no carry
/// between the halves; `min`/`max` comparing the halves as unsigned or signed). `op`: 0 add,
/// 1 sub, 2 min, 3 max. NVRTC emits them for `__vadd2`, `__vmaxs2`, `__vminu2` ….
pub fn simd16x2(a: u32, b: u32, op: u32, signed: bool) -> u32 {
    let mut d = 0u32;
    for i in 0..2 {
        let (x, y) = (half(a, i, signed), half(b, i, signed));
        let v = match op {
            0 => x.wrapping_add(y),
            1 => x.wrapping_sub(y),
            2 => x.min(y),
            _ => x.max(y),
        };
        d |= ((v as u32) & 0xffff) << (16 * i);
    }
    d
}

/// `vabsdiff2` / `vabsdiff4` (`.dtype.atype.btype{.sat} d, a, b, c` and `….add`; PTX ISA
/// "SIMD Video Instructions", default masks and selectors: every lane, lanes in order): per lane
/// (`lanes` 2: half-words, 4: bytes) `|a.lane - b.lane|` of the lanes sign- or zero-extended by
/// their types, clamped to the destination lane's range by `.sat`; without `.add` the lanes'
/// low bits are merged into `d` (`c` would fill the lanes a mask leaves out: none here), with
/// `.add` `d = c + Σ` the lanes' values (32-bit wrapping). NVRTC emits it for `__vabsdiffu4`,
/// `__vsadu4`, `__vsadu2` ….
#[allow(clippy::too_many_arguments)]
pub fn vabsdiff(
    a: u32,
    b: u32,
    c: u32,
    lanes: u32,
    a_signed: bool,
    b_signed: bool,
    d_signed: bool,
    sat: bool,
    add: bool,
) -> u32 {
    let bits = 32 / lanes;
    let lane = |x: u32, i: u32, signed: bool| -> i64 {
        if lanes == 4 {
            i64::from(byte(x, i, signed))
        } else {
            i64::from(half(x, i, signed))
        }
    };
    let (lo, hi) = if d_signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    let mut merged = 0u32;
    let mut sum = c;
    for i in 0..lanes {
        let mut v = (lane(a, i, a_signed) - lane(b, i, b_signed)).abs();
        if sat {
            v = v.clamp(lo, hi);
        }
        sum = sum.wrapping_add(v as u32);
        let mask = (1u32 << bits).wrapping_sub(1);
        merged |= ((v as u32) & mask) << (bits * i);
    }
    if add { sum } else { merged }
}

/// `dp2a.mode.atype.btype d, a, b, c` (sm_61): `c + a.half[0] * b.byte[k] + a.half[1] *
/// b.byte[k+1]` with `k = 0` for `.lo` (`hi = false`) and `k = 2` for `.hi`; 32-bit wrapping.
pub fn dp2a(a: u32, b: u32, c: u32, a_signed: bool, b_signed: bool, hi: bool) -> u32 {
    let k = if hi { 2 } else { 0 };
    let acc = (c as i32)
        .wrapping_add(half(a, 0, a_signed).wrapping_mul(byte(b, k, b_signed)))
        .wrapping_add(half(a, 1, a_signed).wrapping_mul(byte(b, k + 1, b_signed)));
    acc as u32
}

/// `mul24.{lo,hi}.{u32,s32} d, a, b`: the 48-bit product of the low 24 bits of `a` and `b`
/// (sign-extended from bit 23 for `.s32`); `.lo` gives its bits [31:0], `.hi` its bits [47:16].
#[inline]
pub fn mul24(a: u32, b: u32, signed: bool, hi: bool) -> u32 {
    let ext = |x: u32| -> i64 {
        if signed {
            (((x << 8) as i32) >> 8) as i64
        } else {
            (x & 0x00ff_ffff) as i64
        }
    };
    let t = ext(a) * ext(b);
    if hi { (t >> 16) as u32 } else { t as u32 }
}

/// `mad24.{lo,hi}{.sat}.{u32,s32} d, a, b, c`: [`mul24`] plus `c`, wrapping; `.sat` (only with
/// `.hi.s32`) clamps the sum to the s32 range.
#[inline]
pub fn mad24(a: u32, b: u32, c: u32, signed: bool, hi: bool, sat: bool) -> u32 {
    let m = mul24(a, b, signed, hi);
    if sat && signed {
        (m as i32).saturating_add(c as i32) as u32
    } else {
        m.wrapping_add(c)
    }
}
