//! Exact IEEE 754 binary arithmetic on unpacked values, rounded once in any PTX rounding mode.
//!
//! Rust's float operations round to nearest-even only, so the directed modes (`.rz`, `.rm`, `.rp`)
//! and `.rna` are computed here: every operation forms its exact result as an integer significand
//! times a power of two (plus a sticky bit for what lies below it), then [`round_pack`] rounds it
//! once into the destination format. The same code serves f64, f32, f16, bf16, tf32 and the fp8
//! formats, so a conversion is just an unpack in one [`Fmt`] and a `round_pack` in another.

use super::Rnd;

/// A binary interchange format: `p` significand bits (with the hidden bit), exponent `bias`,
/// `w` exponent bits. The largest unbiased exponent is `bias` (IEEE 754 §3.3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fmt {
    pub p: u32,
    pub bias: i32,
    pub w: u32,
    /// E4M3's extended range: no infinities, the top exponent holds normal numbers, and only
    /// an all-ones exponent and fraction is NaN (PTX ISA "Alternate floating-point formats").
    pub ext: bool,
}

pub(crate) const F64: Fmt = Fmt {
    p: 53,
    bias: 1023,
    w: 11,
    ext: false,
};
pub(crate) const F32: Fmt = Fmt {
    p: 24,
    bias: 127,
    w: 8,
    ext: false,
};
pub(crate) const F16: Fmt = Fmt {
    p: 11,
    bias: 15,
    w: 5,
    ext: false,
};
pub(crate) const BF16: Fmt = Fmt {
    p: 8,
    bias: 127,
    w: 8,
    ext: false,
};
/// TF32: f32's exponent with 10 stored fraction bits (PTX ISA "Alternate floating-point formats").
pub(crate) const TF32: Fmt = Fmt {
    p: 11,
    bias: 127,
    w: 8,
    ext: false,
};
/// E5M2: IEEE-like, with infinities and NaNs.
pub(crate) const E5M2: Fmt = Fmt {
    p: 3,
    bias: 15,
    w: 5,
    ext: false,
};
/// E4M3: extended range to ±448, no infinities, NaN `0x7f`.
pub(crate) const E4M3: Fmt = Fmt {
    p: 4,
    bias: 7,
    w: 4,
    ext: true,
};

impl Fmt {
    #[inline]
    pub(crate) const fn sign_bit(&self) -> u64 {
        1u64 << (self.w + self.p - 1)
    }
    #[inline]
    pub(crate) const fn inf(&self) -> u64 {
        ((1u64 << self.w) - 1) << (self.p - 1)
    }
    /// The largest finite magnitude's bits.
    #[inline]
    pub(crate) const fn max_finite(&self) -> u64 {
        if self.ext {
            self.sign_bit() - 2
        } else {
            self.inf() - 1
        }
    }
    /// The largest unbiased exponent of a finite value.
    #[inline]
    const fn emax(&self) -> i32 {
        if self.ext { self.bias + 1 } else { self.bias }
    }
    /// The canonical NaN PTX's hardware returns: sign clear, every other bit set.
    #[inline]
    pub(crate) const fn nan(&self) -> u64 {
        self.sign_bit() - 1
    }
    #[inline]
    const fn emin(&self) -> i32 {
        1 - self.bias
    }
    #[inline]
    pub(crate) const fn frac_mask(&self) -> u64 {
        (1u64 << (self.p - 1)) - 1
    }
    #[inline]
    pub(crate) const fn exp_field(&self, bits: u64) -> u64 {
        (bits >> (self.p - 1)) & ((1u64 << self.w) - 1)
    }
    #[inline]
    pub(crate) const fn is_nan(&self, bits: u64) -> bool {
        let mag = bits & (self.sign_bit() - 1);
        if self.ext {
            mag == self.nan()
        } else {
            mag > self.inf()
        }
    }
    /// Subnormal (nonzero, exponent field zero).
    #[inline]
    pub(crate) const fn is_subnormal(&self, bits: u64) -> bool {
        self.exp_field(bits) == 0 && bits & self.frac_mask() != 0
    }
    /// `.ftz`: a subnormal becomes the zero of its sign.
    #[inline]
    pub(crate) const fn flush(&self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
    /// `.sat`: clamp to [+0.0, 1.0]; NaN and every value at or below zero give +0.0.
    #[inline]
    pub(crate) const fn saturate(&self, bits: u64) -> u64 {
        let one = (self.bias as u64) << (self.p - 1);
        if self.is_nan(bits) || bits & self.sign_bit() != 0 {
            0
        } else if bits > one {
            one
        } else {
            bits
        }
    }
}

/// An unpacked value: finite nonzero values are `(-1)^neg * m * 2^e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    Nan,
    Inf(bool),
    Zero(bool),
    Fin { neg: bool, m: u128, e: i32 },
}

/// Splits `bits` of format `f` (in its low `w + p` bits) into a [`Val`].
#[inline]
pub(crate) fn unpack(bits: u64, f: Fmt) -> Val {
    let neg = bits & f.sign_bit() != 0;
    let bexp = f.exp_field(bits);
    let frac = bits & f.frac_mask();
    let pm1 = f.p as i32 - 1;
    if f.ext && frac == f.frac_mask() && bexp == (1u64 << f.w) - 1 {
        Val::Nan
    } else if !f.ext && bexp == (1u64 << f.w) - 1 {
        if frac != 0 { Val::Nan } else { Val::Inf(neg) }
    } else if bexp == 0 {
        if frac == 0 {
            Val::Zero(neg)
        } else {
            Val::Fin {
                neg,
                m: frac as u128,
                e: f.emin() - pm1,
            }
        }
    } else {
        Val::Fin {
            neg,
            m: (frac | (1u64 << pm1)) as u128,
            e: bexp as i32 - f.bias - pm1,
        }
    }
}

/// The result of an overflow in mode `rnd`: infinity, or the largest finite value where the
/// mode rounds toward zero (IEEE 754 §7.4).
#[inline]
pub(crate) fn overflow(neg: bool, f: Fmt, rnd: Rnd) -> u64 {
    let to_inf = match rnd {
        Rnd::Rn | Rnd::Rna => true,
        Rnd::Rz => false,
        Rnd::Rp => !neg,
        Rnd::Rm => neg,
    };
    let sign = if neg { f.sign_bit() } else { 0 };
    match (to_inf, f.ext) {
        (false, _) => sign | f.max_finite(),
        (true, false) => sign | f.inf(),
        // No infinity to overflow to: E4M3 conversions without `.satfinite` give NaN.
        (true, true) => f.nan(),
    }
}

/// Where the discarded part lies relative to half a unit in the last place.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rest {
    Exact,
    Below,
    Half,
    Above,
}

/// Rounds `(-1)^neg * (m + sticky·ε) * 2^e` (0 < ε < 1) into format `f` in mode `rnd`, with
/// gradual underflow and overflow per IEEE 754. `m == 0` with `sticky` is a tiny nonzero value.
pub(crate) fn round_pack(neg: bool, m: u128, e: i32, sticky: bool, f: Fmt, rnd: Rnd) -> u64 {
    let sign = if neg { f.sign_bit() } else { 0 };
    let (m, e) = match (m, sticky) {
        (0, false) => return sign,
        // Some positive amount below every quantum of every format.
        (0, true) => (1u128, i32::MIN / 4),
        _ => (m, e),
    };
    let p = f.p as i64;
    let bitlen = 128 - m.leading_zeros() as i64;
    // Unbiased exponent of the leading bit.
    let lead = e as i64 + bitlen - 1;
    let emin = f.emin() as i64;
    if lead > f.emax() as i64 {
        return overflow(neg, f, rnd);
    }
    let subnormal = lead < emin;
    // Exponent of the last kept bit.
    let q = if subnormal {
        emin - p + 1
    } else {
        lead - p + 1
    };
    let s = q - e as i64;
    let (kept, rest) = if s <= 0 {
        // `s >= -(p - 1)` here: the shift keeps at most `p` bits.
        (
            m.wrapping_shl((-s) as u32),
            if sticky { Rest::Below } else { Rest::Exact },
        )
    } else if s > 128 {
        (0, Rest::Below)
    } else {
        let kept = m.checked_shr(s as u32).unwrap_or(0);
        let rem = if s == 128 { m } else { m & ((1u128 << s) - 1) };
        let half = 1u128 << (s - 1);
        let rest = if rem > half || (rem == half && sticky) {
            Rest::Above
        } else if rem == half {
            Rest::Half
        } else if rem == 0 && !sticky {
            Rest::Exact
        } else {
            Rest::Below
        };
        (kept, rest)
    };
    let inexact = rest != Rest::Exact;
    let up = match rnd {
        Rnd::Rn => rest == Rest::Above || (rest == Rest::Half && kept & 1 == 1),
        Rnd::Rna => rest == Rest::Above || rest == Rest::Half,
        Rnd::Rz => false,
        Rnd::Rp => inexact && !neg,
        Rnd::Rm => inexact && neg,
    };
    let kept = kept.wrapping_add(up as u128) as u64;
    // A carry out of the significand (or out of the subnormal range) lands in the exponent field.
    let bits = if subnormal {
        kept
    } else {
        (((lead + f.bias as i64 - 1) as u64) << (f.p - 1)).wrapping_add(kept)
    };
    if bits > f.max_finite() {
        return overflow(neg, f, rnd);
    }
    sign | bits
}

/// Normalizes a nonzero `m` so its leading bit is bit `top`, adjusting `e` to keep `m * 2^e`.
#[inline]
fn normalize(m: u128, e: i32, top: u32) -> (u128, i32) {
    let bitlen = 128 - m.leading_zeros();
    if bitlen <= top + 1 {
        let sh = top + 1 - bitlen;
        (m << sh, e - sh as i32)
    } else {
        // Only called with significands of at most `top + 1` bits.
        (m, e)
    }
}

/// An exact or sticky sum: `(neg, m, e, sticky)`, or `None` when the sum is exactly zero.
type Sum = Option<(bool, u128, i32, bool)>;

/// `(-1)^na ma 2^ea + (-1)^nb mb 2^eb` for nonzero significands of at most 107 bits. The result
/// keeps at least 105 significant bits when it is inexact, so the sticky bit lies below the
/// rounding position of every format up to f64.
fn add_exact(na: bool, ma: u128, ea: i32, nb: bool, mb: u128, eb: i32) -> Sum {
    let (ma, ea) = normalize(ma, ea, 106);
    let (mb, eb) = normalize(mb, eb, 106);
    // (a) is the larger magnitude.
    let ((na, ma, ea), (nb, mb, eb)) = if (ea, ma) >= (eb, mb) {
        ((na, ma, ea), (nb, mb, eb))
    } else {
        ((nb, mb, eb), (na, ma, ea))
    };
    let d = (ea as i64 - eb as i64) as u64;
    if d <= 20 {
        let ma = ma << d;
        let m = if na == nb { ma + mb } else { ma - mb };
        if m == 0 {
            None
        } else {
            Some((na, m, eb, false))
        }
    } else {
        let shifted = if d >= 128 { 0 } else { mb >> d };
        let lost = if d >= 128 { true } else { shifted << d != mb };
        let m = if na == nb {
            ma + shifted
        } else {
            ma - shifted - lost as u128
        };
        Some((na, m, ea, lost))
    }
}

/// The zero of an exact cancellation or of a sum of opposite zeros: −0 only under `.rm`.
#[inline]
fn cancel_zero(f: Fmt, rnd: Rnd) -> u64 {
    if rnd == Rnd::Rm { f.sign_bit() } else { 0 }
}

/// `a + b` in format `f`, rounded once (IEEE 754 §5.4.1). NaN results are canonical.
pub(crate) fn add(a: u64, b: u64, f: Fmt, rnd: Rnd) -> u64 {
    match (unpack(a, f), unpack(b, f)) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan(),
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                a
            } else {
                f.nan()
            }
        }
        (Val::Inf(_), _) => a,
        (_, Val::Inf(_)) => b,
        (Val::Zero(x), Val::Zero(y)) => {
            if x == y {
                a
            } else {
                cancel_zero(f, rnd)
            }
        }
        (Val::Zero(_), _) => b,
        (_, Val::Zero(_)) => a,
        (
            Val::Fin {
                neg: na,
                m: ma,
                e: ea,
            },
            Val::Fin {
                neg: nb,
                m: mb,
                e: eb,
            },
        ) => match add_exact(na, ma, ea, nb, mb, eb) {
            None => cancel_zero(f, rnd),
            Some((n, m, e, st)) => round_pack(n, m, e, st, f, rnd),
        },
    }
}

/// `a * b` in format `f`, rounded once.
pub(crate) fn mul(a: u64, b: u64, f: Fmt, rnd: Rnd) -> u64 {
    let (va, vb) = (unpack(a, f), unpack(b, f));
    let neg = (a ^ b) & f.sign_bit() != 0;
    let sign = if neg { f.sign_bit() } else { 0 };
    match (va, vb) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan(),
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => f.nan(),
        (Val::Inf(_), _) | (_, Val::Inf(_)) => sign | f.inf(),
        (Val::Zero(_), _) | (_, Val::Zero(_)) => sign,
        (Val::Fin { m: ma, e: ea, .. }, Val::Fin { m: mb, e: eb, .. }) => {
            round_pack(neg, ma * mb, ea + eb, false, f, rnd)
        }
    }
}

/// `a * b + c` with a single rounding (IEEE 754 fusedMultiplyAdd).
pub(crate) fn fma(a: u64, b: u64, c: u64, f: Fmt, rnd: Rnd) -> u64 {
    let (va, vb, vc) = (unpack(a, f), unpack(b, f), unpack(c, f));
    let np = (a ^ b) & f.sign_bit() != 0;
    match (va, vb, vc) {
        (Val::Nan, _, _) | (_, Val::Nan, _) | (_, _, Val::Nan) => f.nan(),
        (Val::Inf(_), Val::Zero(_), _) | (Val::Zero(_), Val::Inf(_), _) => f.nan(),
        (Val::Inf(_), _, _) | (_, Val::Inf(_), _) => match vc {
            Val::Inf(nc) if nc != np => f.nan(),
            _ => (if np { f.sign_bit() } else { 0 }) | f.inf(),
        },
        (_, _, Val::Inf(_)) => c,
        (Val::Zero(_), _, Val::Zero(nc)) | (_, Val::Zero(_), Val::Zero(nc)) => {
            if np == nc {
                c
            } else {
                cancel_zero(f, rnd)
            }
        }
        (Val::Zero(_), _, _) | (_, Val::Zero(_), _) => c,
        (Val::Fin { m: ma, e: ea, .. }, Val::Fin { m: mb, e: eb, .. }, vc) => match vc {
            Val::Fin {
                neg: nc,
                m: mc,
                e: ec,
            } => match add_exact(np, ma * mb, ea + eb, nc, mc, ec) {
                None => cancel_zero(f, rnd),
                Some((n, m, e, st)) => round_pack(n, m, e, st, f, rnd),
            },
            _ => round_pack(np, ma * mb, ea + eb, false, f, rnd),
        },
    }
}

/// `a / b`, rounded once.
pub(crate) fn div(a: u64, b: u64, f: Fmt, rnd: Rnd) -> u64 {
    let neg = (a ^ b) & f.sign_bit() != 0;
    let sign = if neg { f.sign_bit() } else { 0 };
    match (unpack(a, f), unpack(b, f)) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan(),
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => f.nan(),
        (Val::Inf(_), _) | (_, Val::Zero(_)) => sign | f.inf(),
        (_, Val::Inf(_)) | (Val::Zero(_), _) => sign,
        (Val::Fin { m: ma, e: ea, .. }, Val::Fin { m: mb, e: eb, .. }) => {
            let (ma, ea) = normalize(ma, ea, 63);
            let (mb, eb) = normalize(mb, eb, 63);
            // A quotient of 64 or 65 bits: more than p + 2 for every format.
            let num = ma << 64;
            let q = num / mb;
            let r = num % mb;
            round_pack(neg, q, ea - eb - 64, r != 0, f, rnd)
        }
    }
}

/// Integer square root: the largest `s` with `s * s <= n`, for `n < 2^127`.
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    let mut s = libm::sqrt(n as f64) as u128;
    if s == 0 {
        s = 1;
    }
    // Two Newton steps from a 53-bit estimate, then exact correction.
    for _ in 0..2 {
        s = (s + n / s) / 2;
    }
    while s * s > n {
        s -= 1;
    }
    while (s + 1) * (s + 1) <= n {
        s += 1;
    }
    s
}

/// `sqrt(a)`, rounded once (IEEE 754 §5.4.1: sqrt(−0) = −0, negative → NaN).
pub(crate) fn sqrt(a: u64, f: Fmt, rnd: Rnd) -> u64 {
    match unpack(a, f) {
        Val::Nan => f.nan(),
        Val::Zero(_) => a,
        Val::Inf(false) => a,
        Val::Inf(true) | Val::Fin { neg: true, .. } => f.nan(),
        Val::Fin { m, e, .. } => {
            // A radicand of 125 or 126 bits with an even exponent: a 63-bit root.
            let (mut m, mut e) = normalize(m, e, 125);
            if e & 1 != 0 {
                m >>= 1;
                // The dropped bit is zero: `normalize` shifted left by at least 72.
                e += 1;
            }
            let s = isqrt(m);
            round_pack(false, s, e / 2, s * s != m, f, rnd)
        }
    }
}

/// Converts `bits` of format `from` into format `to`, rounding in mode `rnd`. NaN gives the
/// canonical NaN of `to`.
pub(crate) fn convert(bits: u64, from: Fmt, to: Fmt, rnd: Rnd) -> u64 {
    match unpack(bits, from) {
        Val::Nan => to.nan(),
        Val::Inf(n) => overflow(n, to, Rnd::Rn),
        Val::Zero(n) => {
            if n {
                to.sign_bit()
            } else {
                0
            }
        }
        Val::Fin { neg, m, e } => round_pack(neg, m, e, false, to, rnd),
    }
}

/// Rounds an exact integer magnitude `m` (with sign `neg`) into format `f`.
#[inline]
pub(crate) fn from_int(neg: bool, m: u128, f: Fmt, rnd: Rnd) -> u64 {
    round_pack(neg, m, 0, false, f, rnd)
}
