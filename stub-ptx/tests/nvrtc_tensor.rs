//! The warp-level matrix instructions (`mma.sync`, `ldmatrix`, `stmatrix`, `wmma`) of
//! `tests/ptx/tensor.cu` and `tensor90.cu` as NVRTC 13.5 compiled them, run on a test device by
//! one warp; every expected matrix computed here from the inputs (values whose products and sums
//! are exact in the result's type, so that the answer is unambiguous).
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use half::{bf16, f16};
use stub_ptx::{Fault, Program, Reason};

fn program() -> Program {
    Program::load(include_str!("ptx/tensor.ptx")).expect("tensor.ptx parses")
}

fn a_val(i: usize) -> f32 {
    ((i * 7 % 9) as f32 - 4.0) * 0.5
}
fn b_val(i: usize) -> f32 {
    ((i * 5 % 7) as f32 - 3.0) * 0.25
}
fn c_val(i: usize) -> f32 {
    (i % 5) as f32 - 2.0
}

/// `A (m×k) · B (k×n) + C`, all row-major, in f64.
fn gemm(a: &[f32], b: &[f32], c: &[f32], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut d: Vec<f64> = c.iter().map(|&x| f64::from(x)).collect();
    for r in 0..m {
        for col in 0..n {
            for kk in 0..k {
                d[r * n + col] += f64::from(a[r * k + kk]) * f64::from(b[kk * n + col]);
            }
        }
    }
    d
}

#[test]
fn every_kernel_decodes() {
    let p = program();
    for name in p.kernel_names() {
        p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    assert_eq!(p.kernel_names().count(), 13);
}

fn mma_m16n8k16(kernel: &str, to16: fn(f32) -> u16) {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..256).map(a_val).collect();
    let b: Vec<f32> = (0..128).map(b_val).collect();
    let c: Vec<f32> = (0..128).map(c_val).collect();
    let ah: Vec<u16> = a.iter().map(|&x| to16(x)).collect();
    let bh: Vec<u16> = b.iter().map(|&x| to16(x)).collect();
    let (da, db, dc, dd) = (
        dev.upload(&ah),
        dev.upload(&bh),
        dev.upload(&c),
        dev.alloc(512),
    );
    launch(
        &p,
        kernel,
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
    let got: Vec<f32> = dev.download(dd, 128);
    let want = gemm(&a, &b, &c, 16, 8, 16);
    for i in 0..128 {
        assert_eq!(
            f64::from(got[i]),
            want[i],
            "{kernel}: D[{}][{}]",
            i / 8,
            i % 8
        );
    }
}

#[test]
fn mma_m16n8k16_f16_into_f32() {
    mma_m16n8k16("mma_f16_f32", |x| f16::from_f32(x).to_bits());
}

#[test]
fn mma_m16n8k16_bf16_into_f32() {
    mma_m16n8k16("mma_bf16_f32", |x| bf16::from_f32(x).to_bits());
}

#[test]
fn mma_m16n8k8_f16_accumulator() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..128).map(a_val).collect();
    let b: Vec<f32> = (0..64).map(b_val).collect();
    let c: Vec<f32> = (0..128).map(c_val).collect();
    let h = |v: &[f32]| -> Vec<u16> { v.iter().map(|&x| f16::from_f32(x).to_bits()).collect() };
    let (da, db, dc, dd) = (
        dev.upload(&h(&a)),
        dev.upload(&h(&b)),
        dev.upload(&h(&c)),
        dev.alloc(256),
    );
    launch(
        &p,
        "mma_f16_k8_f16",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap();
    let got: Vec<u16> = dev.download(dd, 128);
    let want = gemm(&a, &b, &c, 16, 8, 8);
    for i in 0..128 {
        assert_eq!(
            f16::from_bits(got[i]).to_f64(),
            want[i],
            "D[{}][{}]",
            i / 8,
            i % 8
        );
    }
}

#[test]
fn mma_m16n8k8_tf32() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..128).map(a_val).collect();
    let b: Vec<f32> = (0..64).map(b_val).collect();
    let c: Vec<f32> = (0..128).map(c_val).collect();
    let (da, db, dc, dd) = (
        dev.upload(&a),
        dev.upload(&b),
        dev.upload(&c),
        dev.alloc(512),
    );
    launch(
        &p,
        "mma_tf32",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap();
    let got: Vec<f32> = dev.download(dd, 128);
    let want = gemm(&a, &b, &c, 16, 8, 8);
    for i in 0..128 {
        assert_eq!(f64::from(got[i]), want[i], "D[{}][{}]", i / 8, i % 8);
    }
}

#[test]
fn mma_m16n8k32_s8_wrapping_and_satfinite() {
    let p = program();
    for sat in [0i32, 1] {
        let mut dev = TestDevice::default();
        // Large magnitudes and a C near i32's limits: the sums overflow 32 bits in some rows.
        let a: Vec<i8> = (0..512)
            .map(|i| {
                if i < 256 {
                    -128 + (i % 7) as i8
                } else {
                    (i * 13 % 255) as u8 as i8
                }
            })
            .collect();
        let b: Vec<i8> = (0..256)
            .map(|i| {
                if i % 2 == 0 {
                    -128
                } else {
                    (i * 11 % 251) as u8 as i8
                }
            })
            .collect();
        let c: Vec<i32> = (0..128)
            .map(|i| {
                if i < 32 {
                    i32::MAX - i
                } else if i < 64 {
                    i32::MIN + i
                } else {
                    i * 1000 - 7
                }
            })
            .collect();
        let (da, db, dc, dd) = (
            dev.upload(&a),
            dev.upload(&b),
            dev.upload(&c),
            dev.alloc(512),
        );
        launch(
            &p,
            "mma_s8",
            &dev,
            [1, 1, 1],
            [32, 1, 1],
            0,
            &[
                &da.to_le_bytes(),
                &db.to_le_bytes(),
                &dc.to_le_bytes(),
                &dd.to_le_bytes(),
                &sat.to_le_bytes(),
            ],
        )
        .unwrap();
        let got: Vec<i32> = dev.download(dd, 128);
        let mut clamped = 0;
        for r in 0..16 {
            for col in 0..8 {
                let mut acc = i64::from(c[r * 8 + col]);
                for k in 0..32 {
                    acc += i64::from(a[r * 32 + k]) * i64::from(b[k * 8 + col]);
                }
                let want = if sat == 1 {
                    acc.clamp(i32::MIN.into(), i32::MAX.into()) as i32
                } else {
                    acc as i32
                };
                clamped += usize::from(acc != i64::from(acc as i32));
                assert_eq!(got[r * 8 + col], want, "sat {sat}: D[{r}][{col}]");
            }
        }
        // The inputs do reach the wrapping and clamping cases.
        assert!(clamped > 0);
    }
}

#[test]
fn ldmatrix_x4_x2_and_trans() {
    let p = program();
    let mut dev = TestDevice::default();
    let m: Vec<u16> = (0..256).map(|i| i as u16 * 3 + 1).collect();
    let (dm, dout, dout2) = (dev.upload(&m), dev.alloc(32 * 8 * 4), dev.alloc(32 * 2 * 4));
    launch(
        &p,
        "ldmatrix_x4",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&dm.to_le_bytes(), &dout.to_le_bytes(), &dout2.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<u32> = dev.download(dout, 256);
    let out2: Vec<u32> = dev.download(dout2, 64);
    let at = |j: usize, row: usize, col: usize| u32::from(m[j * 64 + row * 8 + col]);
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for j in 0..4 {
            let plain = at(j, g, 2 * t) | at(j, g, 2 * t + 1) << 16;
            let trans = at(j, 2 * t, g) | at(j, 2 * t + 1, g) << 16;
            assert_eq!(out[lane * 8 + j], plain, "lane {lane} x4 reg {j}");
            assert_eq!(out[lane * 8 + 4 + j], trans, "lane {lane} x4.trans reg {j}");
            if j < 2 {
                assert_eq!(out2[lane * 2 + j], plain, "lane {lane} x2 reg {j}");
            }
        }
    }
}

#[test]
fn stmatrix_x4_and_trans() {
    let p = Program::load(include_str!("ptx/tensor90.ptx")).expect("tensor90.ptx parses");
    let mut dev = TestDevice::default();
    let dout = dev.alloc(512 * 2);
    launch(
        &p,
        "stmatrix_x4",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&dout.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<u16> = dev.download(dout, 512);
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for j in 0..4 {
            for h in 0..2 {
                let v = (lane * 16 + j * 4 + h) as u16;
                assert_eq!(
                    out[j * 64 + g * 8 + 2 * t + h],
                    v,
                    "lane {lane} reg {j}.{h}"
                );
                assert_eq!(
                    out[256 + j * 64 + (2 * t + h) * 8 + g],
                    v,
                    "lane {lane} reg {j}.{h} trans"
                );
            }
        }
    }
}

fn wmma_gemm(kernel: &str, to16: fn(f32) -> u16) {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..256).map(a_val).collect();
    // B (k×n) as the kernel reads it: column-major, B[k][n] at n * 16 + k.
    let b: Vec<f32> = (0..256).map(b_val).collect();
    let mut b_col = vec![0u16; 256];
    for k in 0..16 {
        for n in 0..16 {
            b_col[n * 16 + k] = to16(b[k * 16 + n]);
        }
    }
    let c: Vec<f32> = (0..256).map(c_val).collect();
    let ah: Vec<u16> = a.iter().map(|&x| to16(x)).collect();
    let (da, db, dc, dd) = (
        dev.upload(&ah),
        dev.upload(&b_col),
        dev.upload(&c),
        dev.alloc(1024),
    );
    let alpha = 2.0f32;
    launch(
        &p,
        kernel,
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
            &alpha.to_le_bytes(),
        ],
    )
    .unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
    let got: Vec<f32> = dev.download(dd, 256);
    let ab = gemm(&a, &b, &[0.0; 256], 16, 16, 16);
    for i in 0..256 {
        assert_eq!(
            f64::from(got[i]),
            2.0 * ab[i] + f64::from(c[i]),
            "{kernel}: D[{}][{}]",
            i / 16,
            i % 16
        );
    }
}

#[test]
fn wmma_m16n16k16_f16_and_elementwise_scaling() {
    wmma_gemm("wmma_f16", |x| f16::from_f32(x).to_bits());
}

#[test]
fn wmma_m16n16k16_bf16() {
    wmma_gemm("wmma_bf16", |x| bf16::from_f32(x).to_bits());
}

#[test]
fn wmma_f16_accumulator_col_major_with_stride() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..256).map(a_val).collect();
    let b: Vec<f32> = (0..256).map(b_val).collect();
    // A (m×k) column-major: A[m][k] at k * 16 + m; B row-major.
    let mut a_col = vec![0u16; 256];
    for m in 0..16 {
        for k in 0..16 {
            a_col[k * 16 + m] = f16::from_f32(a[m * 16 + k]).to_bits();
        }
    }
    let bh: Vec<u16> = b.iter().map(|&x| f16::from_f32(x).to_bits()).collect();
    let (da, db, dd) = (dev.upload(&a_col), dev.upload(&bh), dev.alloc(16 * 24 * 2));
    launch(
        &p,
        "wmma_f16_acc",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&da.to_le_bytes(), &db.to_le_bytes(), &dd.to_le_bytes()],
    )
    .unwrap();
    let got: Vec<u16> = dev.download(dd, 16 * 24);
    let want = gemm(&a, &b, &[1.0; 256], 16, 16, 16);
    for n in 0..16 {
        for m in 0..24 {
            let v = f16::from_bits(got[n * 24 + m]).to_f64();
            // Column n's rows 16..24 are the stride's gap: never written.
            let w = if m < 16 { want[m * 16 + n] } else { 0.0 };
            assert_eq!(v, w, "D[{m}][{n}]");
        }
    }
}

#[test]
fn mma_by_part_of_a_warp_is_refused_at_run() {
    let p = program();
    let mut dev = TestDevice::default();
    let (da, db, dc, dd) = (
        dev.alloc(512),
        dev.alloc(256),
        dev.alloc(512),
        dev.alloc(512),
    );
    let r = launch(
        &p,
        "mma_f16_f32",
        &dev,
        [1, 1, 1],
        [16, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    );
    assert!(
        matches!(r, Err(Fault::Unsupported { ref instruction, .. }) if instruction.contains("mma.sync")),
        "{r:?}"
    );
}

#[test]
fn mma_shapes_without_a_layout_are_refused_at_decode() {
    for (inst, regs) in [
        (
            "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",
            "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}",
        ),
        (
            "mma.sync.aligned.m16n8k256.row.col.and.popc.s32.b1.b1.s32",
            "{%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2,%r3,%r4}",
        ),
    ] {
        let ptx = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n.reg .b32 %r<5>;\n.reg .f32 %f<9>;\n{inst} {regs};\nret;\n}}\n"
        );
        let p = Program::load(&ptx).expect("parses");
        let e = p.kernel("k").expect_err("refused");
        assert!(matches!(e.reason, Reason::Unsupported(_)), "{inst}: {e:?}");
        assert_eq!(e.line, 8, "{inst}");
    }
}

fn wmma_int<T: Copy>(kernel: &str, a: &[T], b: &[T], val: fn(T) -> i64) {
    let p = program();
    let mut dev = TestDevice::default();
    // B (k×n) column-major: B[k][n] at n * 16 + k.
    let c: Vec<i32> = (0..256).map(|i| i * 1000 - 128_000).collect();
    let (da, db, dc, dd) = (
        dev.upload(a),
        dev.upload(b),
        dev.upload(&c),
        dev.alloc(1024),
    );
    launch(
        &p,
        kernel,
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
    let got: Vec<i32> = dev.download(dd, 256);
    for m in 0..16 {
        for n in 0..16 {
            let mut acc = i64::from(c[m * 16 + n]);
            for k in 0..16 {
                acc += val(a[m * 16 + k]) * val(b[n * 16 + k]);
            }
            assert_eq!(i64::from(got[m * 16 + n]), acc, "{kernel}: D[{m}][{n}]");
        }
    }
}

#[test]
fn wmma_m16n16k16_s8_and_u8() {
    let a: Vec<i8> = (0..256).map(|i| (i * 37 % 256) as u8 as i8).collect();
    let b: Vec<i8> = (0..256).map(|i| (i * 91 % 256) as u8 as i8).collect();
    wmma_int("wmma_s8", &a, &b, i64::from);
    let a: Vec<u8> = (0..256).map(|i| (i * 37 % 256) as u8).collect();
    let b: Vec<u8> = (0..256).map(|i| (i * 91 % 256) as u8).collect();
    wmma_int("wmma_u8", &a, &b, i64::from);
}

#[test]
fn wmma_m16n16k8_tf32_rounds_its_inputs() {
    let p = program();
    let mut dev = TestDevice::default();
    // Values with bits below tf32's 10-bit mantissa: the kernel rounds them (cvt.rna.tf32.f32,
    // nearest, ties away from zero) before the product.
    let a: Vec<f32> = (0..128)
        .map(|i| a_val(i) + f32::from_bits(0x3380_0000) * (i % 3) as f32)
        .collect();
    let b: Vec<f32> = (0..128)
        .map(|i| b_val(i) * (1.0 + f32::EPSILON * (i % 5) as f32 * 1000.0))
        .collect();
    let c: Vec<f32> = (0..256).map(c_val).collect();
    let (da, db, dc, dd) = (
        dev.upload(&a),
        dev.upload(&b),
        dev.upload(&c),
        dev.alloc(1024),
    );
    launch(
        &p,
        "wmma_tf32",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap();
    let got: Vec<f32> = dev.download(dd, 256);
    // cvt.rna.tf32.f32: keep 10 mantissa bits, rounding half away from zero.
    let tf32 = |x: f32| f32::from_bits(x.to_bits().wrapping_add(0x1000) & 0xffff_e000);
    let (ar, br): (Vec<f32>, Vec<f32>) = (
        a.iter().map(|&x| tf32(x)).collect(),
        b.iter().map(|&x| tf32(x)).collect(),
    );
    let want = gemm(&ar, &br, &c, 16, 16, 8);
    for i in 0..256 {
        // The sums are not all exact in f32: the executor rounds each once (PTX leaves the
        // accumulation's order unspecified); an input rounded otherwise is off by far more.
        assert_eq!(got[i], want[i] as f32, "D[{}][{}]", i / 16, i % 16);
    }
}

#[test]
fn wmma_m8n8k4_f64() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f64> = (0..32).map(|i| f64::from(a_val(i))).collect();
    let b: Vec<f64> = (0..32).map(|i| f64::from(b_val(i))).collect();
    // B (4×8) column-major: B[k][n] at n * 4 + k.
    let mut b_col = vec![0f64; 32];
    for k in 0..4 {
        for n in 0..8 {
            b_col[n * 4 + k] = b[k * 8 + n];
        }
    }
    let c: Vec<f64> = (0..64).map(|i| f64::from(c_val(i))).collect();
    let (da, db, dc, dd) = (
        dev.upload(&a),
        dev.upload(&b_col),
        dev.upload(&c),
        dev.alloc(512),
    );
    launch(
        &p,
        "wmma_f64",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &dd.to_le_bytes(),
        ],
    )
    .unwrap();
    let got: Vec<f64> = dev.download(dd, 64);
    let af: Vec<f32> = a.iter().map(|&x| x as f32).collect();
    let bf: Vec<f32> = b.iter().map(|&x| x as f32).collect();
    let cf: Vec<f32> = c.iter().map(|&x| x as f32).collect();
    let want = gemm(&af, &bf, &cf, 8, 8, 4);
    for i in 0..64 {
        assert_eq!(got[i], want[i], "D[{}][{}]", i / 8, i % 8);
    }
}
