//! CUDA's math library as NVRTC 13 compiled it (`tests/ptx/math.cu` → `math.ptx`): long
//! sequences of fused multiply-adds, bit manipulation, carries (the argument reduction of
//! `sinf`) and branches, checked against Rust's own functions within CUDA's documented ulp
//! bounds (CUDA C++ Programming Guide, "Mathematical Functions").
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

fn program() -> Program {
    Program::load(include_str!("ptx/math.ptx")).expect("math.ptx parses")
}

fn ulps32(a: f32, b: f32) -> u32 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 { i32::MIN - i } else { i }
    };
    key(a).abs_diff(key(b))
}

fn ulps64(a: f64, b: f64) -> u64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 { i64::MIN - i } else { i }
    };
    key(a).abs_diff(key(b))
}

fn inputs() -> Vec<f64> {
    let mut v: Vec<f64> = (0..200).map(|i| (i as f64 - 100.0) * 0.173).collect();
    v.extend([0.0, -0.0, 1e-30, 1e6, -123456.7, 3.0e4, 0.5, 1.0]);
    v
}

#[test]
fn single_precision_functions() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let x: Vec<f32> = inputs().iter().map(|v| *v as f32).collect();
    let n = x.len();
    let (dx, dout) = (dev.upload(&x), dev.alloc(n * 12 * 4));
    let nn = (n as i32).to_le_bytes();
    launch(
        &p,
        "math_f32",
        &dev,
        [2, 1, 1],
        [128, 1, 1],
        0,
        &[&dx.to_le_bytes(), &dout.to_le_bytes(), &nn],
    )
    .unwrap();
    let out: Vec<f32> = dev.download(dout, n * 12);
    for i in 0..n {
        let v = x[i];
        let o = &out[i * 12..i * 12 + 12];
        // (result, reference computed in f64, ulp bound; absolute bound near zero)
        let checks: [(f32, f64, u32, f64); 12] = [
            (o[0], f64::from(v).sin(), 2, 1e-6),
            (o[1], f64::from(v).cos(), 2, 1e-6),
            (o[2], f64::from(v * 0.25).exp(), 2, 0.0),
            (o[3], f64::from(v.abs() + 1e-3).ln(), 1, 1e-7),
            (o[4], f64::from(v.abs()).powf(f64::from(1.7f32)), 4, 1e-30),
            (o[5], f64::from(v * 0.3).tanh(), 2, 1e-7),
            (o[6], erf(f64::from(v * 0.2)), 2, 1e-7),
            (o[7], f64::from(v).atan2(1.5), 2, 1e-7),
            (o[8], f64::from(v).cbrt(), 1, 1e-10),
            (o[9], f64::from(v % 1.3), 0, 0.0),
            (o[10], 1.0 / (f64::from(v.abs() + 1.0)).sqrt(), 2, 0.0),
            (o[11], f64::from((v * 3.3).round_ties_even()), 0, 0.0),
        ];
        for (k, (got, want, ulp, abs)) in checks.iter().enumerate() {
            let w = *want as f32;
            assert!(
                ulps32(*got, w) <= *ulp || (f64::from(*got) - want).abs() <= *abs,
                "function {k} of {v}: {got} vs {want}"
            );
        }
    }
}

/// erf is not in std: its Maclaurin series, summed in f64 (good to about 1e-15 for |x| <= 2,
/// and within f32's precision up to 6; ±1 beyond).
fn erf(x: f64) -> f64 {
    if x.abs() > 6.0 {
        return x.signum();
    }
    let mut sum = 0.0f64;
    let mut term = x;
    let mut k = 0.0;
    while term.abs() > 1e-20 * sum.abs().max(1e-300) && k < 200.0 {
        sum += term / (2.0 * k + 1.0);
        k += 1.0;
        term *= -x * x / k;
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

#[test]
fn double_precision_functions() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let x = inputs();
    let n = x.len();
    let (dx, dout) = (dev.upload(&x), dev.alloc(n * 8 * 8));
    let nn = (n as i32).to_le_bytes();
    launch(
        &p,
        "math_f64",
        &dev,
        [1, 1, 1],
        [256, 1, 1],
        0,
        &[&dx.to_le_bytes(), &dout.to_le_bytes(), &nn],
    )
    .unwrap();
    let out: Vec<f64> = dev.download(dout, n * 8);
    for i in 0..n {
        let v = x[i];
        let o = &out[i * 8..i * 8 + 8];
        let checks: [(f64, f64, u64, f64); 8] = [
            (o[0], v.sin(), 2, 1e-15),
            (o[1], v.cos(), 2, 1e-15),
            (o[2], (v * 0.25).exp(), 2, 0.0),
            (o[3], (v.abs() + 1e-3).ln(), 2, 1e-16),
            (o[4], v.abs().powf(1.7), 3, 1e-300),
            (o[5], (v * 0.3).tanh(), 2, 1e-16),
            (o[6], v.atan2(1.5), 3, 1e-16),
            // `1.0 + v * v` is contracted to one fma; sqrt and the division round once.
            (o[7], v.abs().sqrt() / v.mul_add(v, 1.0), 0, 0.0),
        ];
        for (k, (got, want, ulp, abs)) in checks.iter().enumerate() {
            assert!(
                ulps64(*got, *want) <= *ulp || (got - want).abs() <= *abs,
                "function {k} of {v}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn switch_statement() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<i32> = (0..128).map(|i| i * 37 - 2000).collect();
    let (di, dout) = (dev.upload(&input), dev.alloc(128 * 4));
    launch(
        &p,
        "switches",
        &dev,
        [1, 1, 1],
        [128, 1, 1],
        0,
        &[&di.to_le_bytes(), &dout.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 128);
    for t in 0..128 {
        let v = input[t];
        let want = match v % 7 {
            0 => v * 3,
            1 => v - 11,
            2 => v ^ 0x55,
            3 => v << 2,
            4 => -v,
            5 => v / 3,
            _ => 12345,
        };
        assert_eq!(out[t], want, "thread {t}");
    }
}
