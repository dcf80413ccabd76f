//! Tests of `num`: round-to-nearest results against Rust's and `half`'s IEEE operations, the
//! directed roundings against exact bounds (f32 values are exact in f64; f64 residuals come from
//! error-free transformations with `libm::fma`), and PTX's edge cases.

use super::*;

/// xorshift64*: a fixed-seed generator, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// An f32 with any bits, biased toward interesting ones (subnormals, near-overflow, ±0).
    fn f32(&mut self) -> f32 {
        let r = self.next();
        let bits = r as u32;
        match r >> 60 {
            0 => f32::from_bits(bits & 0x807f_ffff),
            1 => f32::from_bits((bits & 0x80ff_ffff) | 0x7e00_0000),
            2 => f32::from_bits(bits & 0x8000_0000),
            _ => f32::from_bits(bits),
        }
    }
    /// An f32 with an exponent in [-20, 20]: sums of two are exact in f64.
    fn f32_mid(&mut self) -> f32 {
        let r = self.next();
        let e = (r >> 40) % 41;
        f32::from_bits(((r as u32) & 0x807f_ffff) | (((107 + e) as u32) << 23))
    }
    fn f64_mid(&mut self) -> f64 {
        let r = self.next();
        let e = (self.next() % 400) + 823;
        f64::from_bits((r & 0x800f_ffff_ffff_ffff) | (e << 52))
    }
}

fn next_up32(x: f32) -> f32 {
    let b = x.to_bits();
    if x.is_nan() || x == f32::INFINITY {
        x
    } else if b == 0x8000_0000 || b == 0 {
        f32::from_bits(1)
    } else if b >> 31 == 0 {
        f32::from_bits(b + 1)
    } else {
        f32::from_bits(b - 1)
    }
}

fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}

fn next_up64(x: f64) -> f64 {
    let b = x.to_bits();
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if b >> 63 == 0 {
        f64::from_bits(b + 1)
    } else {
        f64::from_bits(b - 1)
    }
}

fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

/// Same bits, or both NaN (Rust's NaN payloads differ from PTX's canonical one).
fn same32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

const MODES: [Rnd; 5] = [Rnd::Rn, Rnd::Rna, Rnd::Rz, Rnd::Rm, Rnd::Rp];

/// Checks that `r` is the exact value rounded in `rnd`, given `cmp(v)` = the order of v and
/// the exact value, for any f32 v.
fn check_dir32(r: f32, rnd: Rnd, cmp: impl Fn(f32) -> core::cmp::Ordering, what: &str) {
    use core::cmp::Ordering::*;
    let c = cmp(r);
    let (lo, hi) = (next_down32(r), next_up32(r));
    let floor = c != Greater && cmp(hi) == Greater;
    let ceil = c != Less && cmp(lo) == Less;
    let positive = cmp(0.0) == Less;
    let ok = match rnd {
        Rnd::Rm => floor,
        Rnd::Rp => ceil,
        Rnd::Rz => {
            if positive {
                floor
            } else {
                ceil
            }
        }
        Rnd::Rn | Rnd::Rna => c == Equal || (cmp(lo) == Less && cmp(hi) == Greater),
    };
    assert!(ok, "{what}: {r:e} {rnd:?}");
}

#[test]
fn f32_rn_matches_rust() {
    let mut g = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200_000 {
        let (a, b, c) = (g.f32(), g.f32(), g.f32());
        assert!(
            same32(add_f32(a, b, Rnd::Rn, false, false), a + b),
            "{a:e} + {b:e}"
        );
        assert!(
            same32(sub_f32(a, b, Rnd::Rn, false, false), a - b),
            "{a:e} - {b:e}"
        );
        assert!(
            same32(mul_f32(a, b, Rnd::Rn, false, false), a * b),
            "{a:e} * {b:e}"
        );
        assert!(
            same32(div_f32(a, b, DivKind::Rnd(Rnd::Rn), false), a / b),
            "{a:e} / {b:e}"
        );
        assert!(
            same32(sqrt_f32(a, Some(Rnd::Rn), false), libm::sqrtf(a)),
            "sqrt {a:e}"
        );
        let f = fma_f32(a, b, c, Rnd::Rn, false, false);
        assert!(same32(f, libm::fmaf(a, b, c)), "fma {a:e} {b:e} {c:e}");
        // The public functions take Rust's arithmetic for `.rn`: check the exact core too.
        let (x, y) = (a.to_bits() as u64, b.to_bits() as u64);
        let core = |r: u64| f32::from_bits(r as u32);
        assert!(
            same32(core(soft::add(x, y, soft::F32, Rnd::Rn)), a + b),
            "{a:e} + {b:e}"
        );
        assert!(
            same32(core(soft::mul(x, y, soft::F32, Rnd::Rn)), a * b),
            "{a:e} * {b:e}"
        );
        assert!(
            same32(core(soft::div(x, y, soft::F32, Rnd::Rn)), a / b),
            "{a:e} / {b:e}"
        );
        let (xd, yd) = (f64::from_bits(g.next()), f64::from_bits(g.next()));
        let (xb, yb) = (xd.to_bits(), yd.to_bits());
        let sum = f64::from_bits(soft::add(xb, yb, soft::F64, Rnd::Rn));
        assert!(same64(sum, xd + yd), "{xd:e} + {yd:e}");
        let prod = f64::from_bits(soft::mul(xb, yb, soft::F64, Rnd::Rn));
        assert!(same64(prod, xd * yd), "{xd:e} * {yd:e}");
        let quot = f64::from_bits(soft::div(xb, yb, soft::F64, Rnd::Rn));
        assert!(same64(quot, xd / yd), "{xd:e} / {yd:e}");
    }
}

#[test]
fn f32_directed_are_bounds() {
    use core::cmp::Ordering;
    let mut g = Rng(42);
    for i in 0..100_000 {
        let (a, b) = if i % 2 == 0 {
            (g.f32_mid(), g.f32_mid())
        } else {
            (g.f32(), g.f32())
        };
        if !a.is_finite() || !b.is_finite() {
            continue;
        }
        let (ad, bd) = (a as f64, b as f64);
        for rnd in MODES {
            // Products are exact in f64.
            let p = ad * bd;
            let r = mul_f32(a, b, rnd, false, false);
            check_dir32(
                r,
                rnd,
                |v| (v as f64).partial_cmp(&p).unwrap_or(Ordering::Equal),
                "mul",
            );
            // Sums of f32_mid values are exact in f64.
            if i % 2 == 0 {
                let s = ad + bd;
                let r = add_f32(a, b, rnd, false, false);
                check_dir32(
                    r,
                    rnd,
                    |v| (v as f64).partial_cmp(&s).unwrap_or(Ordering::Equal),
                    "add",
                );
            }
            // v ? a / b  <=>  v * b ? a  (b > 0), exact in f64 for finite v.
            if b != 0.0 && a != 0.0 {
                let r = div_f32(a, b, DivKind::Rnd(rnd), false);
                let cmp = |v: f32| {
                    if v.is_infinite() {
                        if v > 0.0 {
                            Ordering::Greater
                        } else {
                            Ordering::Less
                        }
                    } else {
                        let o = (v as f64 * bd).partial_cmp(&ad).unwrap_or(Ordering::Equal);
                        if b < 0.0 { o.reverse() } else { o }
                    }
                };
                check_dir32(r, rnd, cmp, "div");
            }
            if a > 0.0 {
                let r = sqrt_f32(a, Some(rnd), false);
                let cmp = |v: f32| {
                    if v.is_infinite() {
                        Ordering::Greater
                    } else {
                        let vv = v as f64 * v as f64;
                        if v < 0.0 {
                            Ordering::Less
                        } else {
                            vv.partial_cmp(&ad).unwrap_or(Ordering::Equal)
                        }
                    }
                };
                check_dir32(r, rnd, cmp, "sqrt");
            }
        }
    }
}

#[test]
fn f32_directed_fma_against_exact_sum() {
    let mut g = Rng(7);
    for _ in 0..100_000 {
        let (a, b, c) = (g.f32_mid(), g.f32_mid(), g.f32_mid());
        // a*b is exact in f64 (48 bits) and c has exponent within ±20: the sum fits 53 bits
        // only sometimes, so compute it exactly as a + (b: error term) with TwoSum.
        let p = a as f64 * b as f64;
        let s = p + c as f64;
        let bb = s - p;
        let t = (p - (s - bb)) + (c as f64 - bb);
        for rnd in MODES {
            let r = fma_f32(a, b, c, rnd, false, false);
            // Compare v with s + t: (v - s) is exact by Sterbenz when v and s are close.
            let cmp = |v: f32| {
                let d = v as f64 - s;
                d.partial_cmp(&t).unwrap_or(core::cmp::Ordering::Equal)
            };
            if r != 0.0 && (r as f64 / s) > 0.5 && (r as f64 / s) < 2.0 {
                check_dir32(r, rnd, cmp, "fma");
            }
        }
    }
}

#[test]
fn f32_edge_cases() {
    let max = f32::MAX;
    // Overflow: ∞ or the largest finite value, by mode.
    assert_eq!(mul_f32(max, 2.0, Rnd::Rn, false, false), f32::INFINITY);
    assert_eq!(mul_f32(max, 2.0, Rnd::Rz, false, false), max);
    assert_eq!(mul_f32(max, 2.0, Rnd::Rm, false, false), max);
    assert_eq!(mul_f32(max, 2.0, Rnd::Rp, false, false), f32::INFINITY);
    assert_eq!(mul_f32(-max, 2.0, Rnd::Rm, false, false), f32::NEG_INFINITY);
    assert_eq!(mul_f32(-max, 2.0, Rnd::Rp, false, false), -max);
    // Exact cancellation: +0, except −0 under .rm.
    assert_eq!(add_f32(1.5, -1.5, Rnd::Rn, false, false).to_bits(), 0);
    assert_eq!(
        add_f32(1.5, -1.5, Rnd::Rm, false, false).to_bits(),
        0x8000_0000
    );
    assert_eq!(
        add_f32(-0.0, -0.0, Rnd::Rn, false, false).to_bits(),
        0x8000_0000
    );
    assert_eq!(add_f32(-0.0, 0.0, Rnd::Rp, false, false).to_bits(), 0);
    // Canonical NaN.
    assert_eq!(
        add_f32(f32::INFINITY, f32::NEG_INFINITY, Rnd::Rn, false, false).to_bits(),
        0x7fff_ffff
    );
    assert_eq!(
        mul_f32(f32::from_bits(0xffc0_0001), 1.0, Rnd::Rn, false, false).to_bits(),
        0x7fff_ffff
    );
    // .ftz: subnormal inputs and results become signed zeros.
    let sub = f32::from_bits(0x0000_0400);
    assert_eq!(add_f32(sub, 0.0, Rnd::Rn, true, false).to_bits(), 0);
    assert_eq!(add_f32(sub, 0.0, Rnd::Rn, false, false).to_bits(), 0x400);
    assert_eq!(
        mul_f32(-1.0e-20, 1.0e-20, Rnd::Rn, true, false).to_bits(),
        0x8000_0000
    );
    assert_eq!(
        mul_f32(f32::MIN_POSITIVE, 0.5, Rnd::Rn, false, false).to_bits(),
        0x0040_0000
    );
    assert_eq!(
        mul_f32(f32::MIN_POSITIVE, 0.5, Rnd::Rn, true, false).to_bits(),
        0
    );
    // Smallest subnormal under .rp from a tiny positive product.
    assert_eq!(
        mul_f32(1.0e-30, 1.0e-30, Rnd::Rp, false, false).to_bits(),
        1
    );
    assert_eq!(
        mul_f32(1.0e-30, 1.0e-30, Rnd::Rn, false, false).to_bits(),
        0
    );
    assert_eq!(
        mul_f32(-1.0e-30, 1.0e-30, Rnd::Rm, false, false).to_bits(),
        0x8000_0001
    );
    // .sat
    assert_eq!(add_f32(0.75, 0.5, Rnd::Rn, false, true), 1.0);
    assert_eq!(add_f32(-0.75, 0.5, Rnd::Rn, false, true).to_bits(), 0);
    assert_eq!(add_f32(f32::NAN, 0.5, Rnd::Rn, false, true).to_bits(), 0);
    assert_eq!(add_f32(0.25, 0.5, Rnd::Rn, false, true), 0.75);
    // Halfway: 1 + 2^-24 is a tie between 1 and 1 + 2^-23.
    let e = f32::EPSILON / 2.0;
    assert_eq!(add_f32(1.0, e, Rnd::Rn, false, false), 1.0);
    assert_eq!(add_f32(1.0, e, Rnd::Rna, false, false), 1.0 + f32::EPSILON);
    assert_eq!(
        add_f32(1.0 + f32::EPSILON, e, Rnd::Rn, false, false),
        1.0 + 2.0 * f32::EPSILON
    );
    assert_eq!(add_f32(1.0, e, Rnd::Rp, false, false), 1.0 + f32::EPSILON);
    assert_eq!(add_f32(-1.0, -e, Rnd::Rz, false, false), -1.0);
    // A far smaller addend still moves directed results.
    assert_eq!(
        add_f32(1.0, 1.0e-30, Rnd::Rp, false, false),
        1.0 + f32::EPSILON
    );
    assert_eq!(sub_f32(1.0, 1.0e-30, Rnd::Rz, false, false), 1.0 - e);
    assert_eq!(sub_f32(1.0, 1.0e-30, Rnd::Rn, false, false), 1.0);
    // fma keeps the exact product: (1+ε)(1−ε) − 1 = −ε².
    let r = fma_f32(
        1.0 + f32::EPSILON,
        1.0 - f32::EPSILON,
        -1.0,
        Rnd::Rn,
        false,
        false,
    );
    assert_eq!(r, -(f32::EPSILON * f32::EPSILON));
    // Massive cancellation between operands one binade apart is exact.
    assert_eq!(sub_f32(1.0, next_down32(1.0), Rnd::Rn, false, false), e);
    assert_eq!(
        add_f32(-2.0, next_down32(2.0), Rnd::Rz, false, false),
        -f32::EPSILON
    );
    // Division and sqrt specials.
    assert_eq!(
        div_f32(1.0, 0.0, DivKind::Rnd(Rnd::Rn), false),
        f32::INFINITY
    );
    assert_eq!(div_f32(-1.0, 0.0, DivKind::Full, false), f32::NEG_INFINITY);
    assert_eq!(
        div_f32(0.0, 0.0, DivKind::Rnd(Rnd::Rz), false).to_bits(),
        0x7fff_ffff
    );
    assert_eq!(sqrt_f32(-0.0, Some(Rnd::Rn), false).to_bits(), 0x8000_0000);
    assert_eq!(sqrt_f32(-1.0, None, false).to_bits(), 0x7fff_ffff);
    assert_eq!(rcp_f32(-0.0, None, false), f32::NEG_INFINITY);
    // 1/3 rounds up to nearest (0x3eaaaaab), so .rp agrees with it and .rm is one below.
    assert_eq!(rcp_f32(3.0, Some(Rnd::Rp), false), 1.0 / 3.0);
    assert_eq!(rcp_f32(3.0, Some(Rnd::Rm), false), next_down32(1.0 / 3.0));
    assert_eq!(rcp_f32(3.0, Some(Rnd::Rz), false).to_bits(), 0x3eaa_aaaa);
    // div.approx: a * rcp(b); zero for 2^126 < |b| < 2^128, NaN for ∞ / such b.
    assert_eq!(
        div_f32(1.0, f32::from_bits(0x7f00_0000), DivKind::Approx, false),
        0.0
    );
    assert!(
        div_f32(
            f32::INFINITY,
            f32::from_bits(0x7f00_0000),
            DivKind::Approx,
            false
        )
        .is_nan()
    );
    let q = div_f32(10.0, 3.0, DivKind::Approx, false);
    assert!(libm::fabsf(q - 10.0 / 3.0) <= 2.0 * f32::EPSILON * 4.0);
}

#[test]
fn f32_approx_within_ptx_bounds() {
    let mut g = Rng(99);
    for _ in 0..20_000 {
        let x = g.f32_mid();
        let ex = libm::exp2(x as f64);
        let r = ex2_f32(x, false) as f64;
        if ex.is_finite() && ex > 1.0e-37 && ex < 1.0e37 {
            assert!(((r - ex) / ex).abs() < libm::exp2(-22.0), "ex2 {x:e}");
        }
        if x > 0.0 {
            let l = libm::log2(x as f64);
            assert!(
                (lg2_f32(x, false) as f64 - l).abs()
                    <= libm::fabs(l) * libm::exp2(-22.0) + libm::exp2(-22.6),
                "lg2 {x}"
            );
            let rs = 1.0 / libm::sqrt(x as f64);
            assert!(
                ((rsqrt_f32(x, false) as f64 - rs) / rs).abs() < libm::exp2(-22.0),
                "rsqrt {x}"
            );
        }
        let y = x % core::f32::consts::PI;
        assert!(
            (sin_f32(y, false) as f64 - libm::sin(y as f64)).abs() < libm::exp2(-20.5),
            "sin {y}"
        );
        assert!(
            (cos_f32(y, false) as f64 - libm::cos(y as f64)).abs() < libm::exp2(-20.5),
            "cos {y}"
        );
        let t = libm::tanh(x as f64);
        assert!(
            ((tanh_f32(x) as f64 - t) / t).abs() < libm::exp2(-11.0) || t == 0.0,
            "tanh {x}"
        );
    }
    assert_eq!(ex2_f32(f32::NEG_INFINITY, false), 0.0);
    assert_eq!(ex2_f32(3.0, false), 8.0);
    assert_eq!(lg2_f32(0.0, false), f32::NEG_INFINITY);
    assert_eq!(lg2_f32(f32::from_bits(1), true), f32::NEG_INFINITY);
    assert_eq!(lg2_f32(f32::from_bits(1), false), -149.0);
    assert!(lg2_f32(-1.0, false).is_nan());
    assert_eq!(rsqrt_f32(-0.0, false), f32::NEG_INFINITY);
    assert_eq!(rsqrt_f32(4.0, false), 0.5);
    assert!(sin_f32(f32::INFINITY, false).is_nan());
    assert_eq!(sin_f32(-0.0, false).to_bits(), 0x8000_0000);
    assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
}

#[test]
fn f32_minmax_abs_testp() {
    let n = f32::NAN;
    assert_eq!(min_f32(n, 2.0, false, false), 2.0);
    assert_eq!(max_f32(3.0, n, false, false), 3.0);
    assert_eq!(min_f32(n, 2.0, false, true).to_bits(), 0x7fff_ffff);
    assert_eq!(max_f32(n, n, false, false).to_bits(), 0x7fff_ffff);
    assert_eq!(min_f32(0.0, -0.0, false, false).to_bits(), 0x8000_0000);
    assert_eq!(max_f32(-0.0, 0.0, false, false).to_bits(), 0);
    assert_eq!(min_f32(-1.0, 1.0, false, false), -1.0);
    assert_eq!(max_f32(f32::from_bits(5), 0.0, true, false).to_bits(), 0);
    assert_eq!(xorsign_abs_f32(-3.0, 2.0, false, false, false), -2.0);
    assert_eq!(xorsign_abs_f32(-3.0, -2.0, false, false, true), 3.0);
    assert_eq!(xorsign_abs_f32(-3.0, n, false, false, false), -3.0);
    assert_eq!(
        xorsign_abs_f32(-3.0, n, false, true, false).to_bits(),
        0x7fff_ffff
    );
    assert_eq!(xorsign_abs_f16(0xc200, 0x4000, false, false, false), 0xc000); // -3, 2 → -2
    assert_eq!(
        xorsign_abs_bf16x2(0xc040_3f80, 0x4000_bf80, false, false, true),
        0xc040_bf80
    );
    assert_eq!(abs_f32(-2.5, false), 2.5);
    assert_eq!(abs_f32(f32::from_bits(0x8000_0003), true).to_bits(), 0);
    assert_eq!(neg_f32(f32::from_bits(3), true).to_bits(), 0x8000_0000);
    assert_eq!(neg_f32(f32::from_bits(3), false).to_bits(), 0x8000_0003);
    assert_eq!(copysign_f32(-1.0, 2.0), -2.0);
    assert_eq!(copysign_f32(1.0, -2.0), 2.0);
    assert!(testp_f32(f32::from_bits(1), TestP::Subnormal));
    assert!(!testp_f32(0.0, TestP::Subnormal));
    assert!(!testp_f32(0.0, TestP::Normal));
    assert!(testp_f32(1.0, TestP::Normal));
    assert!(testp_f32(f32::INFINITY, TestP::Infinite));
    assert!(!testp_f32(f32::INFINITY, TestP::Finite));
    assert!(testp_f32(n, TestP::NotANumber));
    assert!(!testp_f32(n, TestP::Number));
    assert_eq!(cmp_f32(0.0, -0.0, false), Some(core::cmp::Ordering::Equal));
    assert_eq!(
        cmp_f32(f32::from_bits(1), 0.0, true),
        Some(core::cmp::Ordering::Equal)
    );
    assert_eq!(cmp_f32(n, 0.0, false), None);
}

/// TwoSum: s + t == a + b exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The expected directed result from the nearest `s` and the sign of the residual `t`.
fn directed64(s: f64, t: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn | Rnd::Rna => s,
        Rnd::Rm => {
            if t < 0.0 {
                next_down64(s)
            } else {
                s
            }
        }
        Rnd::Rp => {
            if t > 0.0 {
                next_up64(s)
            } else {
                s
            }
        }
        Rnd::Rz => {
            if s > 0.0 && t < 0.0 {
                next_down64(s)
            } else if s < 0.0 && t > 0.0 {
                next_up64(s)
            } else {
                s
            }
        }
    }
}

#[test]
fn f64_against_error_free_transformations() {
    let mut g = Rng(0xdead_beef);
    for _ in 0..100_000 {
        let (a, b, c) = (g.f64_mid(), g.f64_mid(), g.f64_mid());
        assert!(
            same64(fma_f64(a, b, c, Rnd::Rn), libm::fma(a, b, c)),
            "fma {a:e} {b:e} {c:e}"
        );
        assert!(same64(div_f64(a, b, Rnd::Rn), a / b));
        for rnd in [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp] {
            let (s, t) = two_sum(a, b);
            assert!(
                same64(add_f64(a, b, rnd), directed64(s, t, rnd)),
                "add {a:e} {b:e} {rnd:?}"
            );
            let (s, t) = two_sum(a, -b);
            assert!(
                same64(sub_f64(a, b, rnd), directed64(s, t, rnd)),
                "sub {a:e} {b:e} {rnd:?}"
            );
            let p = a * b;
            let e = libm::fma(a, b, -p);
            assert!(
                same64(mul_f64(a, b, rnd), directed64(p, e, rnd)),
                "mul {a:e} {b:e} {rnd:?}"
            );
            // a = q b + r exactly (r from fma); the residual's sign relative to b says which
            // side the exact quotient lies on.
            let q = a / b;
            let r = libm::fma(-q, b, a);
            let side = if b > 0.0 { r } else { -r };
            assert!(
                same64(div_f64(a, b, rnd), directed64(q, side, rnd)),
                "div {a:e} {b:e} {rnd:?}"
            );
            let x = a.abs();
            let sq = libm::sqrt(x);
            let r = libm::fma(-sq, sq, x);
            assert!(
                same64(sqrt_f64(x, rnd), directed64(sq, r, rnd)),
                "sqrt {x:e} {rnd:?}"
            );
        }
    }
}

#[test]
fn f64_edge_cases() {
    let max = f64::MAX;
    assert_eq!(add_f64(max, max, Rnd::Rz), max);
    assert_eq!(add_f64(max, max, Rnd::Rn), f64::INFINITY);
    assert_eq!(add_f64(-max, -max, Rnd::Rp), -max);
    assert_eq!(add_f64(2.0, -2.0, Rnd::Rm).to_bits(), 1 << 63);
    // The board's f64 default NaN (conformance fp64.txt, `fp64.2*`: ∞ × 0).
    assert_eq!(
        mul_f64(f64::INFINITY, 0.0, Rnd::Rn).to_bits(),
        0xfff8_0000_0000_0000
    );
    // Massive cancellation between operands one binade apart is exact.
    let below = next_down64(1.0);
    assert_eq!(add_f64(1.0, -below, Rnd::Rn), libm::exp2(-53.0));
    assert_eq!(sub_f64(below, 1.0, Rnd::Rz), -libm::exp2(-53.0));
    assert_eq!(sub_f64(2.0, next_down64(2.0), Rnd::Rp), libm::exp2(-52.0));
    assert_eq!(fma_f64(below, 2.0, -next_down64(2.0), Rnd::Rm), 0.0);
    assert_eq!(
        fma_f64(1.0 + f64::EPSILON, 1.0 - f64::EPSILON, -1.0, Rnd::Rn),
        -(f64::EPSILON * f64::EPSILON)
    );
    // Subnormal products round correctly in every mode.
    let tiny = f64::from_bits(1);
    assert_eq!(mul_f64(tiny, 0.5, Rnd::Rn).to_bits(), 0);
    assert_eq!(mul_f64(tiny, 0.75, Rnd::Rn).to_bits(), 1);
    assert_eq!(mul_f64(tiny, 0.5, Rnd::Rp).to_bits(), 1);
    assert_eq!(mul_f64(tiny, 1.5, Rnd::Rn).to_bits(), 2);
    assert_eq!(mul_f64(tiny, 1.5, Rnd::Rz).to_bits(), 1);
    assert_eq!(rcp_f64(3.0, Some(Rnd::Rn)), 1.0 / 3.0);
    assert_eq!(rcp_f64(f64::from_bits(1), None), f64::INFINITY);
    assert_eq!(rcp_f64(4.0, None), 0.25);
    assert_eq!(rsqrt_f64(16.0, false), 0.25);
    assert_eq!(rsqrt_f64(0.0, false), f64::INFINITY);
    assert!(rsqrt_f64(-1.0, false).is_nan());
    assert_eq!(min_f64(f64::NAN, 1.0, false), 1.0);
    // `.NaN` with one NaN operand: that operand, quiet (f64's NaN rule).
    assert_eq!(
        max_f64(f64::NAN, 1.0, true).to_bits(),
        0x7ff8_0000_0000_0000
    );
    assert_eq!(min_f64(0.0, -0.0, false).to_bits(), 1 << 63);
    assert_eq!(abs_f64(-3.0), 3.0);
    assert_eq!(neg_f64(3.0), -3.0);
    assert_eq!(copysign_f64(-0.0, 5.0), -5.0);
    assert!(testp_f64(f64::from_bits(1), TestP::Subnormal));
    assert!(testp_f64(1.0, TestP::Finite));
    assert_eq!(cmp_f64(1.0, 2.0), Some(core::cmp::Ordering::Less));
}

#[test]
fn f16_bf16_rn_match_half() {
    use ::half::{bf16, f16};
    let mut g = Rng(5);
    for _ in 0..100_000 {
        let r = g.next();
        let (a, b, c) = (r as u16, (r >> 16) as u16, (r >> 32) as u16);
        let (fa, fb, fc) = (
            f16::from_bits(a).to_f64(),
            f16::from_bits(b).to_f64(),
            f16::from_bits(c).to_f64(),
        );
        // f16 sums, products and fmas are exact in f64 (11-bit significands, exponents ±24).
        let same = |x: u16, y: f16| x == y.to_bits() || (f16::from_bits(x).is_nan() && y.is_nan());
        // `half`'s f64 → f16 drops the low 32 bits before rounding (no sticky bit): the
        // expected values go through its f32 path, where the exact result is an f32.
        let want16 = |x: f64| (x as f32 as f64 == x || x.is_nan()).then(|| f16::from_f32(x as f32));
        let want_b =
            |x: f64| (x as f32 as f64 == x || x.is_nan()).then(|| bf16::from_f32(x as f32));
        if let Some(w) = want16(fa + fb) {
            assert!(same(add_f16(a, b, Rnd::Rn, false, false), w), "{a:x}+{b:x}");
        }
        if let Some(w) = want16(fa - fb) {
            assert!(same(sub_f16(a, b, Rnd::Rn, false, false), w), "{a:x}-{b:x}");
        }
        if let Some(w) = want16(fa * fb) {
            assert!(same(mul_f16(a, b, Rnd::Rn, false, false), w), "{a:x}*{b:x}");
        }
        let (ps, pt) = two_sum(fa * fb, fc);
        if let (0.0, Some(w)) = (pt, want16(ps)) {
            assert!(
                same(fma_f16(a, b, c, Rnd::Rn, false, false), w),
                "fma {a:x} {b:x} {c:x}"
            );
        }
        let (ba, bb) = (bf16::from_bits(a).to_f64(), bf16::from_bits(b).to_f64());
        let sameb =
            |x: u16, y: bf16| x == y.to_bits() || (bf16::from_bits(x).is_nan() && y.is_nan());
        if let Some(w) = want_b(ba * bb) {
            assert!(
                sameb(mul_bf16(a, b, Rnd::Rn, false, false), w),
                "{a:x}*{b:x}"
            );
        }
        if let Some(w) = want_b(ba + bb) {
            assert!(
                sameb(add_bf16(a, b, Rnd::Rn, false, false), w),
                "{a:x}+{b:x}"
            );
        }
        // Conversions.
        let x = f32::from_bits(r as u32);
        assert!(
            same(f32_to_f16(x, Rnd::Rn, false), f16::from_f32(x)),
            "cvt {x:e}"
        );
        assert!(
            sameb(f32_to_bf16(x, Rnd::Rn, false), bf16::from_f32(x)),
            "cvt bf16 {x:e}"
        );
        // f64 → f16 in one rounding: `half`'s own f64 path has no sticky bit, so check the
        // result brackets the value and matches via f32 where the value is an f32.
        let y = fa * fb + fc * libm::exp2(-30.0);
        let h = f16_to_f64(f64_to_f16(y, Rnd::Rn, false));
        if y.is_finite() && h.is_finite() {
            let lo = f16_to_f64(f64_to_f16(y, Rnd::Rm, false));
            let hi = f16_to_f64(f64_to_f16(y, Rnd::Rp, false));
            assert!(lo <= y && y <= hi && (h == lo || h == hi), "cvt {y:e}");
            assert!(
                libm::fabs(h - y) <= libm::fabs(if h == lo { hi } else { lo } - y),
                "cvt {y:e}"
            );
        }
        if y as f32 as f64 == y {
            assert!(
                same(f64_to_f16(y, Rnd::Rn, false), f16::from_f32(y as f32)),
                "cvt {y:e}"
            );
        }
        assert!(same32(f16_to_f32(a), f16::from_bits(a).to_f32()));
        assert!(same32(bf16_to_f32(a), bf16::from_bits(a).to_f32()));
        // x2 forms: the halves independently, low = first.
        let pa = pack_x2(a, b);
        let pb = pack_x2(c, a);
        let s = add_f16x2(pa, pb, Rnd::Rn, false, false);
        assert_eq!(
            unpack_x2(s),
            (
                add_f16(a, c, Rnd::Rn, false, false),
                add_f16(b, a, Rnd::Rn, false, false)
            )
        );
    }
}

#[test]
fn half_directed_are_bounds() {
    let mut g = Rng(31);
    for _ in 0..50_000 {
        let r = g.next();
        let (a, b) = (r as u16, (r >> 16) as u16);
        let (fa, fb) = (f16_to_f64(a), f16_to_f64(b));
        // f16 sums and products are exact in f64.
        for (exact, op) in [(fa + fb, 0), (fa * fb, 1)] {
            if !exact.is_finite() {
                continue;
            }
            let run = |m| {
                let x = if op == 0 {
                    add_f16(a, b, m, false, false)
                } else {
                    mul_f16(a, b, m, false, false)
                };
                f16_to_f64(x)
            };
            let (lo, hi, z, n) = (run(Rnd::Rm), run(Rnd::Rp), run(Rnd::Rz), run(Rnd::Rn));
            assert!(lo <= exact && exact <= hi, "{a:x} {b:x} {op}");
            // lo and hi are adjacent (or equal) f16 values: nothing lies strictly between.
            let mid = f64_to_f16((lo + hi) / 2.0, Rnd::Rn, false);
            let m = f16_to_f64(mid);
            assert!(
                lo == hi || m == lo || m == hi || m.is_infinite(),
                "{a:x} {b:x} {op}"
            );
            assert_eq!(z, if exact < 0.0 { hi } else { lo });
            assert!(n == lo || n == hi);
            // Nearest (overflow to ∞ past 65520 is checked in `half_edge_cases`).
            if lo.is_finite() && hi.is_finite() {
                let other = if n == lo { hi } else { lo };
                assert!(
                    libm::fabs(n - exact) <= libm::fabs(other - exact),
                    "{a:x} {b:x} {op}"
                );
            }
        }
    }
}

#[test]
fn half_edge_cases() {
    // f16: 65504 max; 1.0 = 0x3c00.
    assert_eq!(add_f16(0x7bff, 0x7bff, Rnd::Rn, false, false), 0x7c00);
    assert_eq!(add_f16(0x7bff, 0x7bff, Rnd::Rz, false, false), 0x7bff);
    // 65504 + 16 = 65520 is the tie between 65504 and 65536 (∞): even goes to ∞.
    assert_eq!(add_f16(0x7bff, 0x4c00, Rnd::Rn, false, false), 0x7c00);
    assert_eq!(add_f16(0x7bff, 0x4b80, Rnd::Rn, false, false), 0x7bff); // + 15
    assert_eq!(add_f16(0x3c00, 0x3c00, Rnd::Rn, false, true), 0x3c00);
    assert_eq!(add_f16(0x7c00, 0xfc00, Rnd::Rn, false, false), 0x7fff);
    assert_eq!(mul_f16(0x0001, 0x3c00, Rnd::Rn, true, false), 0x0000);
    assert_eq!(mul_f16(0x8001, 0x3c00, Rnd::Rn, false, false), 0x8001);
    assert_eq!(min_f16(0x7e00, 0x3c00, false, false), 0x3c00);
    assert_eq!(min_f16(0x7e00, 0x3c00, false, true), 0x7fff);
    assert_eq!(max_f16(0x8000, 0x0000, false, false), 0x0000);
    assert_eq!(neg_f16(0x3c00, false), 0xbc00);
    assert_eq!(abs_bf16(0xbf80, false), 0x3f80);
    assert_eq!(relu_f16(0xbc00), 0);
    assert_eq!(relu_f16(0x7e01), 0x7fff);
    assert_eq!(relu_bf16x2(0x3f80_bf80), 0x3f80_0000);
    assert_eq!(ex2_f16(0x4000, false), 0x4400); // 2^2 = 4
    assert_eq!(ex2_bf16x2(0x0000_3f80, false), 0x3f80_4000); // {2^1, 2^0}
    assert_eq!(tanh_f16(0x0000), 0x0000);
    assert_eq!(tanh_f16(0x7c00), 0x3c00);
    assert_eq!(
        cmp_f16(0x3c00, 0x4000, false),
        Some(core::cmp::Ordering::Less)
    );
    assert_eq!(cmp_bf16(0x7fc0, 0x4000, false), None);
    assert!(testp_f16(0x0001, TestP::Subnormal));
    // bf16 directed: 1 + 2^-8 is a tie between 1 and 1 + 2^-7.
    assert_eq!(add_bf16(0x3f80, 0x3b80, Rnd::Rn, false, false), 0x3f80);
    assert_eq!(add_bf16(0x3f80, 0x3b80, Rnd::Rp, false, false), 0x3f81);
    let t = tanh_f16(0x3c00); // tanh(1) = 0.76159
    assert!((::half::f16::from_bits(t).to_f64() - libm::tanh(1.0)).abs() < 1e-3);
    let e = ex2_f16x2(pack_x2(0x3c00, 0xbc00), false);
    assert_eq!(unpack_x2(e), (0x4000, 0x3800));
}

#[test]
fn cvt_float_int() {
    // Saturation and NaN.
    assert_eq!(
        float_to_int(1e10, IntRnd::Rzi, true, 32, false),
        0x7fff_ffff
    );
    assert_eq!(
        float_to_int(-1e10, IntRnd::Rzi, true, 32, false),
        0x8000_0000
    );
    assert_eq!(float_to_int(-5.0, IntRnd::Rni, false, 32, false), 0);
    assert_eq!(float_to_int(f64::NAN, IntRnd::Rni, true, 64, false), 0);
    assert_eq!(
        float_to_int(f64::INFINITY, IntRnd::Rni, false, 64, false),
        u64::MAX
    );
    assert_eq!(
        float_to_int(f64::NEG_INFINITY, IntRnd::Rni, true, 64, false),
        1 << 63
    );
    assert_eq!(float_to_int(300.0, IntRnd::Rni, false, 8, false), 255);
    assert_eq!(float_to_int(-300.0, IntRnd::Rni, true, 16, false), 0xfed4);
    assert_eq!(float_to_int(-129.0, IntRnd::Rni, true, 8, false), 0x80);
    assert_eq!(
        float_to_int(9.3e18, IntRnd::Rni, true, 64, false),
        i64::MAX as u64
    );
    assert_eq!(
        float_to_int(1.8e19, IntRnd::Rni, false, 64, false),
        18_000_000_000_000_000_000
    );
    assert_eq!(float_to_int(1e30, IntRnd::Rni, false, 64, false), u64::MAX);
    assert_eq!(
        float_to_int(libm::exp2(132.0), IntRnd::Rni, true, 64, false),
        i64::MAX as u64
    );
    assert_eq!(float_to_int(-1e30, IntRnd::Rni, true, 64, false), 1 << 63);
    assert_eq!(
        float_to_int(1e300, IntRnd::Rzi, true, 32, false),
        0x7fff_ffff
    );
    assert_eq!(
        float_to_int(4_294_967_296.0, IntRnd::Rzi, false, 32, false),
        0xffff_ffff
    );
    assert_eq!(
        float_to_int(4_294_967_295.0, IntRnd::Rzi, false, 32, false),
        0xffff_ffff
    );
    assert_eq!(
        float_to_int(4_294_967_294.5, IntRnd::Rni, false, 32, false),
        0xffff_fffe
    );
    // Rounding: ties to even, and the directed modes.
    for (x, rni, rzi, rmi, rpi) in [
        (2.5, 2i64, 2, 2, 3),
        (3.5, 4, 3, 3, 4),
        (-2.5, -2, -2, -3, -2),
        (-0.3, 0, 0, -1, 0),
        (0.7, 1, 0, 0, 1),
        (1e-300, 0, 0, 0, 1),
    ] {
        let f = |m| float_to_int(x, m, true, 64, false) as i64;
        assert_eq!(
            (
                f(IntRnd::Rni),
                f(IntRnd::Rzi),
                f(IntRnd::Rmi),
                f(IntRnd::Rpi)
            ),
            (rni, rzi, rmi, rpi),
            "{x}"
        );
    }
    // .ftz on an f32-subnormal source.
    let sub = f32::from_bits(1) as f64;
    assert_eq!(float_to_int(sub, IntRnd::Rpi, true, 32, false), 1);
    assert_eq!(float_to_int(sub, IntRnd::Rpi, true, 32, true), 0);
    assert_eq!(f16_to_int(0x4500, IntRnd::Rni, true, 32), 5); // 5.0
    assert_eq!(
        bf16_to_int(0xc0a0, IntRnd::Rni, true, 32),
        (-5i32) as u32 as u64
    );
    // Integers to floats: Rn against Rust's `as`, directed bounds.
    let mut g = Rng(11);
    for _ in 0..50_000 {
        let v = g.next();
        assert_eq!(int_to_f32(v, false, 64, Rnd::Rn), v as f32);
        assert_eq!(int_to_f32(v, true, 64, Rnd::Rn), v as i64 as f32);
        assert_eq!(int_to_f64(v, true, 64, Rnd::Rn), v as i64 as f64);
        assert_eq!(int_to_f32(v, true, 32, Rnd::Rn), v as i32 as f32);
        assert_eq!(int_to_f32(v, false, 16, Rnd::Rn), v as u16 as f32);
        let lo = int_to_f64(v, false, 64, Rnd::Rm);
        let hi = int_to_f64(v, false, 64, Rnd::Rp);
        assert!((lo as u128) <= v as u128 && v as u128 <= hi as u128);
        assert!(lo == hi || next_up64(lo) == hi);
        assert_eq!(int_to_f32(v, true, 8, Rnd::Rn), v as i8 as f32);
        assert_eq!(
            ::half::f16::from_bits(int_to_f16(v, false, 8, Rnd::Rn)).to_f32(),
            (v as u8) as f32
        );
    }
    assert_eq!(int_to_f16(70000, false, 32, Rnd::Rn), 0x7c00);
    assert_eq!(int_to_f16(70000, false, 32, Rnd::Rz), 0x7bff);
    assert_eq!(int_to_bf16(1, false, 32, Rnd::Rn), 0x3f80);
    assert_eq!(int_to_f32(u64::MAX, true, 64, Rnd::Rn), -1.0);
    assert_eq!(int_to_f32(0x8000_0000, true, 32, Rnd::Rn), -2_147_483_648.0);
    assert_eq!(int_to_f32(0x0100_0001, false, 32, Rnd::Rp), 16_777_218.0);
    assert_eq!(int_to_f32(0x0100_0001, false, 32, Rnd::Rn), 16_777_216.0);
}

#[test]
fn cvt_float_float() {
    let mut g = Rng(13);
    for _ in 0..50_000 {
        let x = f64::from_bits(g.next());
        assert!(same32(f64_to_f32(x, Rnd::Rn, false, false), x as f32));
        if x.is_finite() {
            let lo = f64_to_f32(x, Rnd::Rm, false, false);
            let hi = f64_to_f32(x, Rnd::Rp, false, false);
            assert!(lo as f64 <= x && x <= hi as f64, "{x:e}");
            assert!(lo == hi || next_up32(lo) == hi);
            let z = f64_to_f32(x, Rnd::Rz, false, false);
            assert_eq!(z, if x < 0.0 { hi } else { lo });
        }
        let y = f32::from_bits(g.next() as u32);
        assert!(same64(f32_to_f64(y, false, false), y as f64));
        let fl = |m| f32_round_int(y, m, false, false);
        if y.is_finite() {
            assert!(same32(fl(IntRnd::Rzi), libm::truncf(y)), "{y:e}");
            assert!(same32(fl(IntRnd::Rmi), libm::floorf(y)), "{y:e}");
            assert!(same32(fl(IntRnd::Rpi), libm::ceilf(y)), "{y:e}");
            assert!(same32(fl(IntRnd::Rni), libm::rintf(y)), "{y:e}");
            assert!(
                same64(f64_round_int(x, IntRnd::Rni, false), libm::rint(x)),
                "{x:e}"
            );
        }
    }
    assert_eq!(f64_to_f32(1e300, Rnd::Rz, false, false), f32::MAX);
    assert_eq!(f64_to_f32(1e-50, Rnd::Rn, false, true), 0.0);
    assert_eq!(f64_to_f32(1e-40, Rnd::Rn, true, false).to_bits(), 0);
    assert_eq!(f64_to_f32(2.0, Rnd::Rn, false, true), 1.0);
    assert_eq!(f32_to_f64(f32::from_bits(1), true, false), 0.0);
    // The payload kept, as on the board (conformance cvt.txt, `cvt.22276`).
    assert_eq!(
        f32_to_f64(f32::NAN, false, false).to_bits(),
        0x7ff8_0000_0000_0000
    );
    assert_eq!(f32_to_f64(-3.0, false, true).to_bits(), 0);
    assert_eq!(
        f32_round_int(-0.4, IntRnd::Rni, false, false).to_bits(),
        0x8000_0000
    );
    assert_eq!(f32_round_int(2.5, IntRnd::Rni, false, false), 2.0);
    assert_eq!(f16_round_int(0x3e00, IntRnd::Rni, false, false), 0x4000); // 1.5 → 2
    assert_eq!(bf16_round_int(0x3fc0, IntRnd::Rzi), 0x3f80); // 1.5 → 1
    // Halves.
    assert_eq!(f32_to_f16(65520.0, Rnd::Rn, false), 0x7c00);
    assert_eq!(f32_to_f16(65519.0, Rnd::Rn, false), 0x7bff);
    assert_eq!(f32_to_f16(1e6, Rnd::Rz, false), 0x7bff);
    assert_eq!(f32_to_f16(f32::NAN, Rnd::Rn, false), 0x7fff);
    assert_eq!(f32_to_f16(2.0, Rnd::Rn, true), 0x3c00);
    assert_eq!(satfinite_f16(0xfc00), 0xfbff);
    assert_eq!(satfinite_bf16(0x7f80), 0x7f7f);
    assert_eq!(f32x2_to_f16x2(1.0, 2.0, Rnd::Rn), 0x3c00_4000);
    assert_eq!(f32x2_to_bf16x2(1.0, -2.0, Rnd::Rn), 0x3f80_c000);
    assert_eq!(f16_to_f64(0x7bff), 65504.0);
    assert_eq!(bf16_to_f64(0x3f80), 1.0);
    // tf32: 10 fraction bits; 1 + 2^-11 is a tie, away from zero under .rna.
    let tie = 1.0 + libm::exp2f(-11.0);
    assert_eq!(f32_to_tf32(tie, Rnd::Rna, false), 0x3f80_2000);
    assert_eq!(f32_to_tf32(tie, Rnd::Rn, false), 0x3f80_0000);
    assert_eq!(f32_to_tf32(-tie, Rnd::Rna, false), 0xbf80_2000);
    assert_eq!(f32_to_tf32(f32::MAX, Rnd::Rna, false), 0x7f80_0000);
    assert_eq!(f32_to_tf32(f32::MAX, Rnd::Rna, true), 0x7f7f_e000);
    // An H100: 0x7fc00000 for every NaN (tests/data/conformance/lowp.txt).
    assert_eq!(f32_to_tf32(f32::NAN, Rnd::Rna, false), 0x7fc0_0000);
    // fp8: a in the upper byte.
    assert_eq!(f32x2_to_e4m3x2(1.0, 448.0, false), 0x387e);
    assert_eq!(f32x2_to_e4m3x2(1000.0, -1e9, false), 0x7efe);
    assert_eq!(f32x2_to_e4m3x2(f32::INFINITY, f32::NAN, false), 0x7e7f);
    assert_eq!(f32x2_to_e4m3x2(-1.0, 464.0, true), 0x007e); // 464: a tie, to 448 (even)
    assert_eq!(
        f32x2_to_e4m3x2(libm::exp2f(-9.0), libm::exp2f(-10.0), false),
        0x0100
    ); // subnormals
    assert_eq!(f32x2_to_e5m2x2(1.0, 57344.0, false), 0x3c7b);
    assert_eq!(f32x2_to_e5m2x2(f32::NEG_INFINITY, 1e9, false), 0xfb7b);
    assert_eq!(f32x2_to_e5m2x2(f32::NAN, 0.0, false), 0x7f00);
    assert_eq!(e4m3x2_to_f16x2(0x387e, false), 0x3c00_5f00); // {448, 1}
    assert_eq!(e4m3x2_to_f16x2(0x7fb8, true), 0x7fff_0000); // {-1 → relu 0, NaN}
    assert_eq!(e5m2x2_to_f16x2(0x3c7c, false), 0x3c00_7c00); // {∞, 1}
    assert_eq!(f16x2_to_e4m3x2(0x3c00_5f00, false), 0x387e); // {448, 1}
    assert_eq!(f16x2_to_e5m2x2(0x7c00_3c00, false), 0x7b3c); // {1, ∞ → 57344}
    assert_eq!(
        flush_f32(f32::from_bits(0x8000_0001)).to_bits(),
        0x8000_0000
    );
    assert_eq!(flush_f32(1.0), 1.0);
    assert_eq!(flush_f16(0x03ff), 0);
    assert_eq!(flush_f16(0x0400), 0x0400);
}

#[test]
fn cvt_int_int() {
    assert_eq!(int_to_int(0xff, true, 8, true, 32, false), 0xffff_ffff);
    assert_eq!(int_to_int(0xff, false, 8, true, 32, false), 0xff);
    assert_eq!(int_to_int(0x1234_5678, false, 32, false, 16, false), 0x5678);
    assert_eq!(int_to_int(0x1234_5678, false, 32, false, 16, true), 0xffff);
    assert_eq!(int_to_int(0x8000_0000, true, 32, false, 32, true), 0);
    assert_eq!(int_to_int(0x8000_0000, true, 32, true, 16, true), 0x8000);
    assert_eq!(
        int_to_int(u64::MAX, false, 64, true, 64, true),
        i64::MAX as u64
    );
    assert_eq!(int_to_int(u64::MAX, true, 64, false, 64, true), 0);
    assert_eq!(int_to_int(0x7f, true, 8, true, 64, false), 0x7f);
}

#[test]
fn integer_arithmetic() {
    let mut g = Rng(17);
    for _ in 0..10_000 {
        let (a, b, c) = (g.next(), g.next(), g.next());
        let (a32, b32) = (a as u32, b as u32);
        assert_eq!(
            mul_hi_u32(a32, b32),
            ((a32 as u128 * b32 as u128) >> 32) as u32
        );
        assert_eq!(
            mul_hi_s32(a32 as i32, b32 as i32),
            ((a32 as i32 as i128 * b32 as i32 as i128) >> 32) as i32
        );
        assert_eq!(mul_hi_u64(a, b), ((a as u128 * b as u128) >> 64) as u64);
        assert_eq!(
            mul_hi_s64(a as i64, b as i64),
            ((a as i64 as i128 * b as i64 as i128) >> 64) as i64
        );
        assert_eq!(
            mul_wide_s32(a32 as i32, b32 as i32) as i128,
            a32 as i32 as i128 * b32 as i32 as i128
        );
        assert_eq!(mul_wide_u32(a32, b32) as u128, a32 as u128 * b32 as u128);
        assert_eq!(mad_hi_u64(a, b, c), mul_hi_u64(a, b).wrapping_add(c));
        // dp4a against the definition written with i64 sums.
        let mut s = c as u32 as i32 as i64;
        for i in 0..4 {
            s += ((a32 >> (8 * i)) as u8 as i8 as i64) * ((b32 >> (8 * i)) as u8 as i64);
        }
        assert_eq!(dp4a(a32, b32, c as u32, true, false), s as u32);
    }
    assert_eq!(mad_hi_s32(i32::MAX, i32::MAX, i32::MAX, true), i32::MAX);
    assert_eq!(
        mad_hi_s32(i32::MAX, i32::MAX, i32::MAX, false),
        0x3fff_ffff_i32.wrapping_add(i32::MAX)
    );
    assert_eq!(mad_hi_u32(0x8000_0000, 4, 1), 3);
    assert_eq!(mad_hi_s64(-1, 1, 5), 4);
    assert_eq!(mul24(0x0100_0003, 0x0000_0005, false, false), 15); // bits above 23 ignored
    assert_eq!(mul24(0x00ff_ffff, 0x00ff_ffff, false, true), 0xffff_fe00); // (2^24-1)^2 >> 16
    assert_eq!(mul24(0x00ff_ffff, 0x0000_0002, true, false), (-2i32) as u32); // -1 * 2
    assert_eq!(mul24(0x0080_0000, 0x0080_0000, true, true), 0x4000_0000); // (-2^23)^2 >> 16
    assert_eq!(mad24(0x00ff_ffff, 1, 3, true, false, false), 2);
    assert_eq!(
        mad24(0x007f_ffff, 0x007f_ffff, 0x7fff_ffff, true, true, true),
        0x7fff_ffff
    );
    assert_eq!(add_sat_s32(i32::MAX, 1), i32::MAX);
    assert_eq!(sub_sat_s32(i32::MIN, 1), i32::MIN);
    assert_eq!(sad_u32(3, 10, 1), 8);
    assert_eq!(sad_s32(-5, 5, 0), 10);
    assert_eq!(sad_s32(i32::MIN, i32::MAX, 0), -1); // |diff| = 2^32 - 1, wrapping
    assert_eq!(sad_u64(10, 3, 0), 7);
    assert_eq!(sad_s64(-1, 1, 1), 3);
    assert_eq!(dp4a(0x0101_0101, 0x0403_0201, 10, false, false), 20);
    assert_eq!(
        dp4a(0xffff_ffff, 0x0101_0101, 0, true, true),
        (-4i32) as u32
    );
    assert_eq!(dp4a(0xffff_ffff, 0x0101_0101, 0, false, true), 1020);
    // dp2a: a's halves times b's bytes 0,1 (.lo) or 2,3 (.hi).
    assert_eq!(
        dp2a(0x0002_0003, 0x0504_0302, 1, false, false, false),
        1 + 3 * 2 + 2 * 3
    );
    assert_eq!(
        dp2a(0x0002_0003, 0x0504_0302, 1, false, false, true),
        1 + 3 * 4 + 2 * 5
    );
    assert_eq!(dp2a(0xffff_0001, 0x0000_ff01, 0, true, true, false), 1 + 1);
}

#[test]
fn bit_manipulation() {
    assert_eq!(popc_u32(0xf0f0_0001), 9);
    assert_eq!(popc_u64(u64::MAX), 64);
    assert_eq!(
        (clz_u32(0), clz_u32(1), clz_u64(0), clz_u64(1 << 40)),
        (32, 31, 64, 23)
    );
    assert_eq!(brev_u32(1), 0x8000_0000);
    assert_eq!(brev_u64(0b110), 0x6000_0000_0000_0000);
    // bfind
    assert_eq!(bfind(0, false, 32, false), u32::MAX);
    assert_eq!(bfind(0x10, false, 32, false), 4);
    assert_eq!(bfind(0x10, false, 32, true), 27);
    assert_eq!(bfind(0xffff_ffff, true, 32, false), u32::MAX);
    assert_eq!(bfind(0xffff_ff00, true, 32, false), 7);
    assert_eq!(bfind(0xffff_ffff_0000_0010, false, 32, false), 4);
    assert_eq!(bfind(1 << 63, false, 64, true), 0);
    // fns
    assert_eq!(fns(0b1011_0000, 0, 1), 4);
    assert_eq!(fns(0b1011_0000, 0, 3), 7);
    assert_eq!(fns(0b1011_0000, 0, 4), u32::MAX);
    assert_eq!(fns(0b1011_0000, 7, -2), 5);
    assert_eq!(fns(0b1011_0000, 5, 0), 5);
    assert_eq!(fns(0b1011_0000, 6, 0), u32::MAX);
    // bfe against a mask-and-shift reference for in-range fields, and PTX's edge cases.
    let mut g = Rng(23);
    for _ in 0..10_000 {
        let a = g.next() as u32;
        let pos = (g.next() % 40) as u32;
        let len = (g.next() % 40) as u32;
        let field = if pos >= 32 { 0 } else { a >> pos };
        let l = len.min(32u32.saturating_sub(pos));
        let mask = if l >= 32 { u32::MAX } else { (1u32 << l) - 1 };
        let u = field & mask;
        if len > 0 && pos < 32 {
            assert_eq!(bfe_u32(a, pos, len), u, "{a:x} {pos} {len}");
        }
        let b = g.next() as u32;
        let ins = bfi_b32(a, b, pos, len);
        let m = if pos >= 32 { 0 } else { mask << pos };
        assert_eq!(
            ins,
            (b & !m) | ((a << pos.min(31)) & m),
            "bfi {a:x} {b:x} {pos} {len}"
        );
    }
    assert_eq!(bfe_u32(0xffff_ffff, 4, 0), 0);
    assert_eq!(bfe_s32(0xffff_ffff, 4, 0), 0);
    assert_eq!(bfe_s32(0x0000_00f0, 4, 4), 0xffff_ffff);
    assert_eq!(bfe_s32(0x0000_0070, 4, 4), 7);
    assert_eq!(bfe_s32(0x8000_0000, 40, 8), 0xffff_ffff); // pos past msb: sign = bit 31
    assert_eq!(bfe_s32(0x8000_0000, 28, 8), 0xffff_fff8);
    assert_eq!(bfe_u32(0x8000_0000, 28, 8), 0x8);
    assert_eq!(bfe_u32(0xabcd, 0x104, 0x104), 0xc); // only the low 8 bits of pos and len
    assert_eq!(bfe_u64(0xf000_0000_0000_0000, 60, 8), 0xf);
    assert_eq!(bfe_s64(0xf000_0000_0000_0000, 60, 8), u64::MAX);
    assert_eq!(bfi_b64(0xff, 0, 60, 8), 0xf000_0000_0000_0000);
    assert_eq!(bfi_b32(0xff, 0x1234_5678, 8, 0), 0x1234_5678);
    // szext
    assert_eq!(szext(0xff, 8, true, true), 0xffff_ffff);
    assert_eq!(szext(0xff, 8, false, true), 0xff);
    assert_eq!(szext(0xff, 0, true, true), 0);
    assert_eq!(szext(0x1ff, 40, true, true), 0x1ff);
    assert_eq!(szext(0x1ff, 40, true, false), 0xffff_ffff); // 40 mod 32 = 8
    // lop3: the truth-table constants give back their operand.
    let (a, b, c) = (0x1234_5678, 0x9abc_def0, 0x0f0f_0f0f);
    assert_eq!(lop3(a, b, c, 0xf0), a);
    assert_eq!(lop3(a, b, c, 0xcc), b);
    assert_eq!(lop3(a, b, c, 0xaa), c);
    assert_eq!(lop3(a, b, c, 0x96), a ^ b ^ c);
    assert_eq!(lop3(a, b, c, 0xf0 & 0xcc | 0xaa), (a & b) | c);
    assert_eq!(lop3(a, b, c, 0), 0);
    // shf
    assert_eq!(shf_l(0x8000_0000, 0x0000_0001, 1, true), 0x0000_0003);
    assert_eq!(shf_l(0x1234_5678, 0x9abc_def0, 40, true), 0x1234_5678);
    assert_eq!(shf_l(0x1234_5678, 0x9abc_def0, 36, false), 0xabcd_ef01);
    assert_eq!(shf_r(0x0000_0001, 0x0000_0003, 1, true), 0x8000_0000);
    assert_eq!(shf_r(0x1234_5678, 0x9abc_def0, 32, true), 0x9abc_def0);
    assert_eq!(shf_r(0x1234_5678, 0x9abc_def0, 32, false), 0x1234_5678);
    assert_eq!(shf_r(0x1234_5678, 0x9abc_def0, 4, false), 0x0123_4567);
    // prmt: bytes of {b, a} = 77 66 55 44 | 33 22 11 00 (a = 0x33221100).
    let (a, b) = (0x3322_1100, 0x7766_5544);
    assert_eq!(prmt(a, b, 0x3210, PrmtMode::Default), a);
    assert_eq!(prmt(a, b, 0x7654, PrmtMode::Default), b);
    assert_eq!(prmt(a, b, 0x0123, PrmtMode::Default), 0x0011_2233);
    assert_eq!(prmt(0x0000_807f, 0, 0x8910, PrmtMode::Default), 0x00ff_807f); // sign replicate
    assert_eq!(prmt(a, b, 1, PrmtMode::F4e), 0x4433_2211);
    assert_eq!(prmt(a, b, 0, PrmtMode::B4e), 0x5566_7700);
    assert_eq!(prmt(a, b, 3, PrmtMode::B4e), 0x0011_2233);
    assert_eq!(prmt(a, b, 2, PrmtMode::Rc8), 0x2222_2222);
    assert_eq!(prmt(a, b, 1, PrmtMode::Ecl), 0x3322_1111);
    assert_eq!(prmt(a, b, 1, PrmtMode::Ecr), 0x1111_1100);
    assert_eq!(prmt(a, b, 3, PrmtMode::Rc16), 0x3322_3322);
    assert_eq!(prmt(a, b, 0x7ffc, PrmtMode::Rc16), 0x1100_1100); // only c[1:0]
}

/// `fma.rn.f32`'s f64 fast path against the exact integer core (`soft::fma`) on inputs built
/// to hit its hard cases: products and addends of close magnitudes (cancellation, results near
/// f32's subnormal range), addends a few ulps from the product (sums near f32 halfway points),
/// and any bits.
#[test]
fn f32_fma_fast_path_against_exact_core() {
    let mut r = Rng(0x5eed_f00d_1234_5678);
    let core = |a: f32, b: f32, c: f32| {
        f32::from_bits(soft::fma(
            a.to_bits() as u64,
            b.to_bits() as u64,
            c.to_bits() as u64,
            soft::F32,
            Rnd::Rn,
        ) as u32)
    };
    let mut fast = 0u32;
    for i in 0..400_000u32 {
        let (a, b) = (r.f32_mid(), r.f32_mid());
        let c = match i % 4 {
            // -(a*b) rounded to f32, nudged by a few ulps: cancellation and halfway sums.
            0 => f32::from_bits(
                (-(a * b))
                    .to_bits()
                    .wrapping_add((r.next() % 7) as u32)
                    .wrapping_sub(3),
            ),
            // a*b's rounding error's scale: the sum sits near an f32 halfway point.
            1 => (a * b) * f32::from_bits(0x3300_0000 | (r.next() as u32 & 0x807f_ffff)),
            2 => r.f32(),
            _ => r.f32_mid(),
        };
        let want = core(a, b, c);
        let got = fma_f32(a, b, c, Rnd::Rn, false, false);
        assert!(
            same32(got, want),
            "fma {a:e} {b:e} {c:e}: {got:e} != {want:e}"
        );
        let s = f64::from(a) * f64::from(b) + f64::from(c);
        fast += u32::from(s.to_bits() & 0x1fff_ffff != 0x1000_0000);
    }
    // Most inputs take the fast path: the test checks it, not only the fallback.
    assert!(fast > 300_000, "{fast}");
}
