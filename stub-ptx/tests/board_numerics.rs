//! The numeric rules the H100 conformance recording taught the executor (issue 47): each test
//! gives the board's value from `tests/data/conformance/<family>.txt` (recorded on an H100,
//! driver 580.159.04) for the line it cites, where the PTX ISA leaves the bits open (which NaN,
//! when `.ftz` detects tininess, what a NaN converts to, how far `sin.approx` reduces).

use stub_ptx::num::{
    DivKind, Rnd, abs_f16, abs_f32, add_f64, bf16_to_f32, cos_f32, div_f32, div_f64, f32_to_f64,
    f64_to_bf16, f64_to_f16, f64_to_f32, fma_f64, max_f64, min_f64, mul_f32, mul_f64, nan_to_int,
    neg_bf16, neg_f16, neg_f32, neg_f64, rcp_f32, sin_f32, sqrt_f64, sub_f64,
};

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

const QNAN64: u64 = 0x7ff8_0000_0000_0000;

/// f64 arithmetic with NaN operands returns the first NaN operand (made quiet); an invalid
/// operation on numbers returns `fff8000000000000` (fp64.txt: `fp64.8` NaN + 0, `fp64.103`
/// −∞ + ∞, `fp64.12293` ∞ × 0, `fp64.36877` √−1: high words).
#[test]
fn f64_nan_results() {
    let (inf, nan) = (f64::INFINITY, d(QNAN64));
    assert_eq!(add_f64(nan, 0.0, Rnd::Rn).to_bits(), QNAN64); // fp64.8/9
    assert_eq!(add_f64(-inf, inf, Rnd::Rn).to_bits(), 0xfff8_0000_0000_0000); // fp64.102/103
    assert_eq!(add_f64(-inf, inf, Rnd::Rz).to_bits(), 0xfff8_0000_0000_0000);
    assert_eq!(sub_f64(inf, inf, Rnd::Rm).to_bits(), 0xfff8_0000_0000_0000);
    assert_eq!(mul_f64(inf, 0.0, Rnd::Rp).to_bits(), 0xfff8_0000_0000_0000);
    assert_eq!(div_f64(0.0, 0.0, Rnd::Rn).to_bits(), 0xfff8_0000_0000_0000);
    assert_eq!(sqrt_f64(-1.0, Rnd::Rn).to_bits(), 0xfff8_0000_0000_0000);
    assert_eq!(fma_f64(0.5, 0.0, nan, Rnd::Rn).to_bits(), QNAN64); // fp64 op 12, t = 7
    // A signalling NaN operand comes back quiet, its payload kept.
    let snan = d(0x7ff0_0000_0000_0001);
    assert_eq!(add_f64(1.0, snan, Rnd::Rn).to_bits(), 0x7ff8_0000_0000_0001);
    // fmin/fmax of two NaNs: the operand (op 28/29, t = 100).
    assert_eq!(min_f64(nan, nan, false).to_bits(), QNAN64);
    assert_eq!(max_f64(nan, nan, false).to_bits(), QNAN64);
    // neg.f64 leaves a NaN as it is (op 33, t = 96: `-b` of `7ff8…` is `7ff8…`).
    assert_eq!(neg_f64(nan).to_bits(), QNAN64);
    assert_eq!(neg_f64(2.0), -2.0);
}

/// abs/neg of an f32 or f16/bf16 NaN give the canonical NaN (fp32.txt `fp32.25348`
/// fabsf(`7fc00000`) = `7fffffff`, `fp32.26116` −NaN = `7fffffff`; half.txt `fp16.5380`
/// `__hneg(7e00)` = `7fff`, `fp16.6148` `__habs(7e00)` = `7fff`, `fp16.19204` bf16 `__hneg(7fc0)`
/// = `7fff`).
#[test]
fn abs_neg_of_nan_is_canonical() {
    assert_eq!(abs_f32(f(0x7fc0_0000), false).to_bits(), 0x7fff_ffff);
    assert_eq!(neg_f32(f(0x7fc0_0000), false).to_bits(), 0x7fff_ffff);
    assert_eq!(neg_f32(f(0x3f80_0000), false).to_bits(), 0xbf80_0000);
    assert_eq!(neg_f16(0x7e00, false), 0x7fff);
    assert_eq!(abs_f16(0xfe20, false), 0x7fff);
    assert_eq!(neg_bf16(0x7fc0, false), 0x7fff);
    assert_eq!(neg_f16(0x3c00, false), 0xbc00);
}

/// `.ftz` flushes a result whose exact value is below 2^-126 even where rounding would reach
/// the smallest normal (fp32_ftz.txt `fp32.6445`: `__fmul_rn(2^-126, 1 − 2^-24)` = 0, and
/// `__fmul_ru` (`fp32.8749`), `__fdiv_ru(2^-126, 1 + 2^-23)` (`fp32.14869`) likewise);
/// without `.ftz` the rounded result stands.
#[test]
fn ftz_detects_tininess_before_rounding() {
    let (min, below_one) = (f(0x0080_0000), f(0x3f7f_ffff));
    assert_eq!(mul_f32(min, below_one, Rnd::Rn, true, false).to_bits(), 0);
    assert_eq!(mul_f32(min, below_one, Rnd::Rp, true, false).to_bits(), 0);
    assert_eq!(
        mul_f32(-min, below_one, Rnd::Rm, true, false).to_bits(),
        0x8000_0000
    );
    assert_eq!(
        mul_f32(min, below_one, Rnd::Rn, false, false).to_bits(),
        0x0080_0000
    );
    let div = div_f32(min, f(0x3f80_0001), DivKind::Rnd(Rnd::Rp), true);
    assert_eq!(div.to_bits(), 0);
    // Exactly 2^-126 stays.
    assert_eq!(
        mul_f32(min, 1.0, Rnd::Rn, true, false).to_bits(),
        0x0080_0000
    );
    assert_eq!(
        rcp_f32(f(0x7e80_0000), Some(Rnd::Rn), true).to_bits(),
        0x0080_0000
    );
}

/// NaN conversions: from f64 and between f32 and f64 the sign and top payload bits are kept
/// (cvt.txt `cvt.18436`: `cvt.rn.f32.f64(7ff8…)` = `7fc00000`, `cvt.22276`: the high word of
/// `cvt.f64.f32(7fc00000)` = `7ff80000`; half.txt `fp16.29280` f16 `7e00`, `fp16.30048` bf16
/// `7fc0`); bf16 to f32 is a plain shift, a signalling NaN too (`fp16.29013`: `7f89` →
/// `7f890000`).
#[test]
fn nan_conversions_keep_payload() {
    let nan = d(QNAN64);
    assert_eq!(
        f64_to_f32(nan, Rnd::Rn, false, false).to_bits(),
        0x7fc0_0000
    );
    assert_eq!(
        f64_to_f32(nan, Rnd::Rz, false, false).to_bits(),
        0x7fc0_0000
    );
    assert_eq!(f32_to_f64(f(0x7fc0_0000), false, false).to_bits(), QNAN64);
    assert_eq!(f64_to_f16(nan, Rnd::Rn, false), 0x7e00);
    assert_eq!(f64_to_bf16(nan, Rnd::Rn, false), 0x7fc0);
    assert_eq!(bf16_to_f32(0x7f89).to_bits(), 0x7f89_0000);
    assert_eq!(bf16_to_f32(0xffa5).to_bits(), 0xffa5_0000);
}

/// A NaN converted to an integer: 0 from f32 to 32 bits and narrower, the destination's sign
/// bit from f64 and to 64 bits (cvt.txt `cvt.4` `__float2int_rn` = 0, `cvt.11524`
/// `__double2int_rn` = `80000000`, `cvt.14596` `__double2uint_rn` = `80000000`, `cvt.7008` the
/// high word of `__float2ll_rn` = `80000000`).
#[test]
fn nan_to_integer() {
    assert_eq!(nan_to_int(false, 32), 0);
    assert_eq!(nan_to_int(false, 16), 0);
    assert_eq!(nan_to_int(true, 32), 0x8000_0000);
    assert_eq!(nan_to_int(false, 64), 0x8000_0000_0000_0000);
    assert_eq!(nan_to_int(true, 64), 0x8000_0000_0000_0000);
}

/// `sin/cos.approx.f32` reduce `x × 1/(2π)` rounded toward zero in f32 (approx.txt
/// `approx_sincos.17`: sin(`7f7fffff`) = 0, `.273` cos = 1; `.19` sin(2^23) = `3f3504f3`;
/// `.23` sin(65504) = `3f7a1e85`, `.279` cos(65504) = `be5a3994`).
#[test]
fn sincos_reduce_as_the_board() {
    assert_eq!(sin_f32(f(0x7f7f_ffff), false).to_bits(), 0);
    assert_eq!(sin_f32(f(0xff7f_ffff), false).to_bits(), 0x8000_0000);
    assert_eq!(cos_f32(f(0x7f7f_ffff), false).to_bits(), 0x3f80_0000);
    assert_eq!(sin_f32(f(0x4f00_0000), false).to_bits(), 0);
    let near = |got: f32, board: u32| (got - f(board)).abs() <= 1e-6;
    assert!(near(sin_f32(f(0x4b00_0000), false), 0x3f35_04f3));
    assert!(near(cos_f32(f(0x4b00_0000), false), 0xbf35_04f2));
    assert!(near(sin_f32(f(0x477f_e000), false), 0x3f7a_1e85));
    assert!(near(cos_f32(f(0x477f_e000), false), 0xbe5a_3994));
    // In range it is the sine within PTX's bound.
    assert!((sin_f32(1.0, false) - 1.0f32.sin()).abs() < 1e-6);
    assert_eq!(sin_f32(-0.0, false).to_bits(), 0x8000_0000);
    assert!(sin_f32(f32::INFINITY, false).is_nan());
}

/// `div.approx.f32` without `.ftz` scales a subnormal divisor (approx.txt `approx_rcp.783`:
/// `__fdividef(2^-149, 2^-149)` = 1, `.784`: (−3 × 2^-149) / (−3 × 2^-149) = 1); with `.ftz`
/// the flushed divisor gives NaN (0/0).
#[test]
fn div_approx_subnormal_divisor() {
    let tiny = f(1);
    assert_eq!(
        div_f32(tiny, tiny, DivKind::Approx, false).to_bits(),
        0x3f80_0000
    );
    let m3 = f(0x8000_0003);
    assert_eq!(
        div_f32(m3, m3, DivKind::Approx, false).to_bits(),
        0x3f80_0000
    );
    assert_eq!(div_f32(1.0, tiny, DivKind::Approx, false), f32::INFINITY);
    assert!(div_f32(tiny, tiny, DivKind::Approx, true).is_nan());
}
