//! Bit manipulation (PTX ISA "Integer arithmetic instructions" popc, clz, bfind, fns, brev,
//! bfe, bfi, szext, dp; "Logic and shift instructions" lop3, shf; "Data movement" prmt).

use super::PrmtMode;

/// `popc.b32 d, a`: the number of set bits.
#[inline]
pub fn popc_u32(a: u32) -> u32 {
    a.count_ones()
}

/// `popc.b64 d, a`: the number of set bits (a `.u32` result).
#[inline]
pub fn popc_u64(a: u64) -> u32 {
    a.count_ones()
}

/// `clz.b32 d, a`: leading zeros, 32 for zero.
#[inline]
pub fn clz_u32(a: u32) -> u32 {
    a.leading_zeros()
}

/// `clz.b64 d, a`: leading zeros, 64 for zero (a `.u32` result).
#[inline]
pub fn clz_u64(a: u64) -> u32 {
    a.leading_zeros()
}

/// `brev.b32 d, a`: bit reversal.
#[inline]
pub fn brev_u32(a: u32) -> u32 {
    a.reverse_bits()
}

/// `brev.b64 d, a`: bit reversal.
#[inline]
pub fn brev_u64(a: u64) -> u64 {
    a.reverse_bits()
}

/// `bfind{.shiftamt}.{u,s}{32,64} d, a`: the bit position of the most significant non-sign bit
/// of `a` (the highest set bit; for a negative signed value the highest clear bit), given as the
/// low `width` (32 or 64) bits of `a`. `0xffffffff` if there is none; with `.shiftamt` the
/// left-shift amount `width - 1 - pos` instead of `pos`.
pub fn bfind(a: u64, signed: bool, width: u32, shiftamt: bool) -> u32 {
    let msb = if width == 32 { 31 } else { 63 };
    let v = if msb == 31 { a & 0xffff_ffff } else { a };
    let neg = signed && (v >> msb) & 1 == 1;
    let v = if neg {
        !v & if msb == 31 { 0xffff_ffff } else { u64::MAX }
    } else {
        v
    };
    if v == 0 {
        return u32::MAX;
    }
    let pos = 63 - v.leading_zeros();
    if shiftamt { msb - pos } else { pos }
}

/// `fns.b32 d, mask, base, offset` (sm_30): the position of the `offset`-th set bit of `mask`
/// counting from bit `base` (upward for positive `offset`, downward for negative; `offset == 0`
/// asks whether bit `base` itself is set); `0xffffffff` if there is none.
pub fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    let set = |p: i64| (0..32).contains(&p) && (mask >> p) & 1 == 1;
    let base = base as i64;
    if offset == 0 {
        return if set(base) { base as u32 } else { u32::MAX };
    }
    let inc = if offset > 0 { 1 } else { -1 };
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base;
    while (0..32).contains(&pos) {
        if set(pos) {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += inc;
    }
    u32::MAX
}

/// The PTX pseudocode of `bfe` over a `msb + 1`-bit value.
#[inline]
fn bfe(a: u64, pos: u32, len: u32, msb: u32, signed: bool) -> u64 {
    let pos = pos & 0xff;
    let len = len & 0xff;
    let sbit = if !signed || len == 0 {
        0
    } else {
        (a >> (pos + len - 1).min(msb)) & 1
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let bit = if i < len && pos + i <= msb {
            (a >> (pos + i)) & 1
        } else {
            sbit
        };
        d |= bit << i;
    }
    d
}

/// `bfe.u32 d, a, b, c`: `len = c & 0xff` bits of `a` from `pos = b & 0xff`, zero-extended;
/// bits past bit 31 read as 0.
#[inline]
pub fn bfe_u32(a: u32, pos: u32, len: u32) -> u32 {
    bfe(a as u64, pos, len, 31, false) as u32
}

/// `bfe.s32 d, a, b, c`: as [`bfe_u32`], sign-extended from the field's top bit (bit 31 when the
/// field runs past it); `len == 0` gives 0.
#[inline]
pub fn bfe_s32(a: u32, pos: u32, len: u32) -> u32 {
    bfe(a as u64, pos, len, 31, true) as u32
}

/// `bfe.u64 d, a, b, c`.
#[inline]
pub fn bfe_u64(a: u64, pos: u32, len: u32) -> u64 {
    bfe(a, pos, len, 63, false)
}

/// `bfe.s64 d, a, b, c`.
#[inline]
pub fn bfe_s64(a: u64, pos: u32, len: u32) -> u64 {
    bfe(a, pos, len, 63, true)
}

#[inline]
fn bfi(a: u64, b: u64, pos: u32, len: u32, msb: u32) -> u64 {
    let pos = pos & 0xff;
    let len = len & 0xff;
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i <= msb {
        let bit = (a >> i) & 1;
        f = (f & !(1u64 << (pos + i))) | (bit << (pos + i));
        i += 1;
    }
    f
}

/// `bfi.b32 f, a, b, c, d`: `b` with its bits `[pos, pos + len)` (`pos = c & 0xff`,
/// `len = d & 0xff`, cut at bit 31) replaced by the low bits of `a`.
#[inline]
pub fn bfi_b32(a: u32, b: u32, pos: u32, len: u32) -> u32 {
    bfi(a as u64, b as u64, pos, len, 31) as u32
}

/// `bfi.b64 f, a, b, c, d`: as [`bfi_b32`], over 64 bits.
#[inline]
pub fn bfi_b64(a: u64, b: u64, pos: u32, len: u32) -> u64 {
    bfi(a, b, pos, len, 63)
}

/// `szext.{clamp,wrap}.{u32,s32} d, a, b` (sm_70): the low `b` bits of `a` zero- or
/// sign-extended; `b` is clamped to 32 (`.clamp`) or taken mod 32 (`.wrap`). `b == 0` gives 0.
#[inline]
pub fn szext(a: u32, b: u32, signed: bool, clamp: bool) -> u32 {
    let n = if clamp { b.min(32) } else { b & 31 };
    if n == 0 {
        return 0;
    }
    let sh = 32 - n;
    if signed {
        (((a << sh) as i32) >> sh) as u32
    } else {
        (a << sh) >> sh
    }
}

/// `lop3.b32 d, a, b, c, immLut`: each result bit is bit `(a<<2)|(b<<1)|c` of `lut` (the
/// truth table built from a = 0xF0, b = 0xCC, c = 0xAA).
#[inline]
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut d = 0u32;
    for k in 0..8u32 {
        if (lut >> k) & 1 == 1 {
            let ta = if k & 4 != 0 { a } else { !a };
            let tb = if k & 2 != 0 { b } else { !b };
            let tc = if k & 1 != 0 { c } else { !c };
            d |= ta & tb & tc;
        }
    }
    d
}

/// `shf.l.{clamp,wrap}.b32 d, a, b, c`: the upper 32 bits of `{b, a} << n`, `n = min(c, 32)`
/// (`clamp`) or `c & 31` (wrap).
#[inline]
pub fn shf_l(a: u32, b: u32, c: u32, clamp: bool) -> u32 {
    let n = if clamp { c.min(32) } else { c & 31 };
    let v = ((b as u64) << 32) | a as u64;
    ((v << n) >> 32) as u32
}

/// `shf.r.{clamp,wrap}.b32 d, a, b, c`: the lower 32 bits of `{b, a} >> n`, `n = min(c, 32)`
/// (`clamp`) or `c & 31` (wrap).
#[inline]
pub fn shf_r(a: u32, b: u32, c: u32, clamp: bool) -> u32 {
    let n = if clamp { c.min(32) } else { c & 31 };
    let v = ((b as u64) << 32) | a as u64;
    (v >> n) as u32
}

/// `prmt.b32{.mode} d, a, b, c`: picks four bytes out of `{b, a}` (bytes 0–3 from `a`, 4–7 from
/// `b`). Without a mode each nibble of `c[15:0]` selects a byte for the matching result byte,
/// its bit 3 replicating that byte's sign bit; the modes use `c[1:0]` (PTX ISA "prmt", tables
/// of the special modes).
pub fn prmt(a: u32, b: u32, c: u32, mode: PrmtMode) -> u32 {
    let src = ((b as u64) << 32) | a as u64;
    let pick = |i: u32| ((src >> (8 * (i & 7))) & 0xff) as u32;
    // Result bytes 0..3 as source byte indices, per PTX's mode tables (listed b3 b2 b1 b0
    // there; here low to high).
    let sel: [u32; 4] = match (mode, c & 3) {
        (PrmtMode::Default, _) => {
            let mut d = 0u32;
            for k in 0..4 {
                let s = (c >> (4 * k)) & 0xf;
                let byte = pick(s & 7);
                let byte = if s & 8 != 0 {
                    if byte & 0x80 != 0 { 0xff } else { 0 }
                } else {
                    byte
                };
                d |= byte << (8 * k);
            }
            return d;
        }
        (PrmtMode::F4e, n) => [n, n + 1, n + 2, n + 3],
        (PrmtMode::B4e, 0) => [0, 7, 6, 5],
        (PrmtMode::B4e, 1) => [1, 0, 7, 6],
        (PrmtMode::B4e, 2) => [2, 1, 0, 7],
        (PrmtMode::B4e, _) => [3, 2, 1, 0],
        (PrmtMode::Rc8, n) => [n; 4],
        (PrmtMode::Ecl, 0) => [0, 1, 2, 3],
        (PrmtMode::Ecl, 1) => [1, 1, 2, 3],
        (PrmtMode::Ecl, 2) => [2, 2, 2, 3],
        (PrmtMode::Ecl, _) => [3, 3, 3, 3],
        (PrmtMode::Ecr, 0) => [0, 0, 0, 0],
        (PrmtMode::Ecr, 1) => [0, 1, 1, 1],
        (PrmtMode::Ecr, 2) => [0, 1, 2, 2],
        (PrmtMode::Ecr, _) => [0, 1, 2, 3],
        (PrmtMode::Rc16, n) => {
            if n & 1 == 0 {
                [0, 1, 0, 1]
            } else {
                [2, 3, 2, 3]
            }
        }
    };
    sel.iter()
        .enumerate()
        .fold(0, |d, (k, &s)| d | (pick(s) << (8 * k)))
}
