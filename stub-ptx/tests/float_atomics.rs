//! Atomic `min`/`max` on floats (`atom.min.f32`, `atom.max.f64`, `red.min.bf16x2` …), hand-written
//! PTX: every lane of two warps folds its value in; the results computed here in Rust (PTX's
//! `min`/`max`: a NaN operand gives the other, −0 below +0).

mod common;

use common::{TestDevice, launch};
use half::bf16;
use stub_ptx::Program;

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry fminmax(.param .u64 out, .param .u64 in32, .param .u64 in64, .param .u64 inbf)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    .reg .f32 %f<4>;
    .reg .f64 %fd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [in32];
    ld.param.u64 %rd3, [in64];
    ld.param.u64 %rd10, [inbf];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 4;
    add.u64 %rd5, %rd2, %rd4;
    ld.global.f32 %f1, [%rd5];
    mul.wide.u32 %rd6, %r1, 8;
    add.u64 %rd7, %rd3, %rd6;
    ld.global.f64 %fd1, [%rd7];
    add.u64 %rd11, %rd10, %rd4;
    ld.global.b32 %r3, [%rd11];
    atom.global.min.f32 %f2, [%rd1], %f1;
    atom.global.max.f32 %f3, [%rd1+4], %f1;
    atom.global.min.f64 %fd2, [%rd1+8], %fd1;
    red.global.max.f64 [%rd1+16], %fd1;
    red.global.min.noftz.bf16x2 [%rd1+24], %r3;
    ret;
}
"#;

#[test]
fn float_min_max_atomics() {
    let p = Program::load(PTX).expect("parses");
    let mut dev = TestDevice::default();
    let n = 64;
    let v32: Vec<f32> = (0..n)
        .map(|i| match i {
            5 => f32::NAN,
            9 => -0.0,
            _ => (i as f32 * 37.0 % 23.0) - 11.5,
        })
        .collect();
    let v64: Vec<f64> = (0..n)
        .map(|i| {
            if i == 7 {
                f64::NAN
            } else {
                (i as f64 * 0.37).sin()
            }
        })
        .collect();
    let vbf: Vec<u32> = (0..n)
        .map(|i| {
            let lo = bf16::from_f32((i as f32 - 20.0) * 0.5).to_bits();
            let hi = bf16::from_f32(100.0 - i as f32).to_bits();
            u32::from(lo) | u32::from(hi) << 16
        })
        .collect();
    // Start values: min slots +inf, max slots -inf.
    let mut init = [0u8; 32];
    init[0..4].copy_from_slice(&f32::INFINITY.to_le_bytes());
    init[4..8].copy_from_slice(&f32::NEG_INFINITY.to_le_bytes());
    init[8..16].copy_from_slice(&f64::INFINITY.to_le_bytes());
    init[16..24].copy_from_slice(&f64::NEG_INFINITY.to_le_bytes());
    let inf = u32::from(bf16::INFINITY.to_bits());
    init[24..28].copy_from_slice(&(inf | inf << 16).to_le_bytes());
    let (out, i32p, i64p, ibf) = (
        dev.upload(&init),
        dev.upload(&v32),
        dev.upload(&v64),
        dev.upload(&vbf),
    );
    launch(
        &p,
        "fminmax",
        &dev,
        [1, 1, 1],
        [n as u32, 1, 1],
        0,
        &[
            &out.to_le_bytes(),
            &i32p.to_le_bytes(),
            &i64p.to_le_bytes(),
            &ibf.to_le_bytes(),
        ],
    )
    .unwrap();
    let got: Vec<u8> = dev.download(out, 32);
    let f = |o: usize| f32::from_le_bytes(got[o..o + 4].try_into().unwrap());
    let d = |o: usize| f64::from_le_bytes(got[o..o + 8].try_into().unwrap());
    let real32 = v32.iter().copied().filter(|x| !x.is_nan());
    assert_eq!(f(0), real32.clone().fold(f32::INFINITY, f32::min));
    assert_eq!(f(4), real32.fold(f32::NEG_INFINITY, f32::max));
    let real64 = v64.iter().copied().filter(|x| !x.is_nan());
    assert_eq!(d(8), real64.clone().fold(f64::INFINITY, f64::min));
    assert_eq!(d(16), real64.fold(f64::NEG_INFINITY, f64::max));
    let bf = u32::from_le_bytes(got[24..28].try_into().unwrap());
    let lo_min = vbf
        .iter()
        .map(|&v| bf16::from_bits(v as u16).to_f32())
        .fold(f32::INFINITY, f32::min);
    let hi_min = vbf
        .iter()
        .map(|&v| bf16::from_bits((v >> 16) as u16).to_f32())
        .fold(f32::INFINITY, f32::min);
    assert_eq!(bf16::from_bits(bf as u16).to_f32(), lo_min);
    assert_eq!(bf16::from_bits((bf >> 16) as u16).to_f32(), hi_min);
}
