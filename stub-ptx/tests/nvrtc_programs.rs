//! The kernels of `tests/ptx/programs.cu` as NVRTC 13 compiled them (`tests/ptx/programs.ptx`):
//! a tiled matrix multiply on 2D grids and blocks, shuffle reductions, every atomic of CUDA C++,
//! 3D indexing and timers; every result computed again here in Rust.
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

fn program() -> Program {
    Program::load(include_str!("ptx/programs.ptx")).expect("programs.ptx parses")
}

fn b(v: u64) -> [u8; 8] {
    v.to_le_bytes()
}

#[test]
fn tiled_matrix_multiply() {
    let p = program();
    let mut dev = TestDevice::default();
    let (m, n, k) = (40usize, 35usize, 50usize);
    let a: Vec<f32> = (0..m * k)
        .map(|i| ((i * 7) % 13) as f32 * 0.25 - 1.0)
        .collect();
    let bm: Vec<f32> = (0..k * n)
        .map(|i| ((i * 5) % 11) as f32 * 0.5 - 2.0)
        .collect();
    let (da, db, dc) = (dev.upload(&a), dev.upload(&bm), dev.alloc(m * n * 4));
    let dims = [
        (m as i32).to_le_bytes(),
        (n as i32).to_le_bytes(),
        (k as i32).to_le_bytes(),
    ];
    launch(
        &p,
        "matmul",
        &dev,
        [3, 3, 1],
        [16, 16, 1],
        0,
        &[&b(da), &b(db), &b(dc), &dims[0], &dims[1], &dims[2]],
    )
    .unwrap();
    let c: Vec<f32> = dev.download(dc, m * n);
    for r in 0..m {
        for col in 0..n {
            // The kernel's order: one fused multiply-add per k.
            let want = (0..k).fold(0f32, |acc, i| a[r * k + i].mul_add(bm[i * n + col], acc));
            assert_eq!(c[r * n + col], want, "C[{r}][{col}]");
        }
    }
}

#[test]
fn shuffle_reductions() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<i32> = (0..128).map(|i| (i * 73) % 97 - 40).collect();
    let (di, dw, dt, ds) = (
        dev.upload(&input),
        dev.alloc(16),
        dev.alloc(64),
        dev.alloc(4),
    );
    launch(
        &p,
        "groups",
        &dev,
        [1, 1, 1],
        [128, 1, 1],
        0,
        &[&b(di), &b(dw), &b(dt), &b(ds)],
    )
    .unwrap();
    let ws: Vec<i32> = dev.download(dw, 4);
    let tm: Vec<i32> = dev.download(dt, 16);
    for w in 0..4 {
        assert_eq!(ws[w], input[w * 32..w * 32 + 32].iter().sum::<i32>());
    }
    for t in 0..16 {
        assert_eq!(tm[t], *input[t * 8..t * 8 + 8].iter().max().unwrap());
    }
    assert_eq!(dev.download::<i32>(ds, 1)[0], input.iter().sum::<i32>());
}

#[test]
fn every_atomic() {
    let p = program();
    let mut dev = TestDevice::default();
    let t = 1280usize;
    let input: Vec<i32> = (0..t as i32).map(|i| (i * 37) % 201 - 100).collect();
    let di = dev.upload(&input);
    // struct Atoms { u32 inc, dec, exch, andv, orv, xorv; i32 mins, maxs; u64 add64, cas64;
    // double addd; __half2 addh2; }: 64 bytes.
    let mut init = [0u8; 64];
    init[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    init[24..28].copy_from_slice(&i32::MAX.to_le_bytes());
    init[28..32].copy_from_slice(&i32::MIN.to_le_bytes());
    let da = dev.upload(&init);
    launch(
        &p,
        "all_atomics",
        &dev,
        [5, 1, 1],
        [256, 1, 1],
        0,
        &[&b(da), &b(di)],
    )
    .unwrap();
    let w: Vec<u32> = dev.download(da, 16);
    let q: Vec<u64> = dev.download(da, 8);
    assert_eq!(w[0], (t % 1001) as u32, "atomicInc wraps at 1000");
    assert_eq!(
        w[1],
        ((1001 - t % 1001) % 1001) as u32,
        "atomicDec wraps at 1000"
    );
    assert!((w[2] as usize) < t, "atomicExch leaves one thread's value");
    assert_eq!(w[3], 0x8000_0000);
    assert_eq!(w[4], 0x7fff_ffff);
    assert_eq!(w[5], input.iter().fold(0u32, |x, v| x ^ *v as u32));
    assert_eq!(w[6] as i32, *input.iter().min().unwrap());
    assert_eq!(w[7] as i32, *input.iter().max().unwrap());
    assert_eq!(
        q[4],
        input
            .iter()
            .fold(0u64, |s, v| s.wrapping_add((i64::from(*v) as u64) << 33))
    );
    assert_eq!(q[5], 3 * t as u64);
    assert_eq!(
        f64::from_bits(q[6]),
        input.iter().map(|v| 0.25 * f64::from(*v)).sum::<f64>()
    );
    let h = w[14];
    assert_eq!(half::f16::from_bits(h as u16).to_f32(), t as f32);
    assert_eq!(
        half::f16::from_bits((h >> 16) as u16).to_f32(),
        t as f32 * 0.5
    );
}

#[test]
fn three_dimensional_indexing() {
    let p = program();
    let mut dev = TestDevice::default();
    let (grid, block) = ([2u32, 3, 2], [4u32, 2, 3]);
    let (w, h, d) = (8usize, 6usize, 6usize);
    let dout = dev.alloc(w * h * d * 8);
    launch(&p, "index3d", &dev, grid, block, 0, &[&b(dout)]).unwrap();
    let out: Vec<i32> = dev.download(dout, w * h * d * 2);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let lin = (z * h + y) * w + x;
                assert_eq!(out[lin * 2] as usize, x + 100 * y + 10000 * z);
                let first = x % 4 == 0 && y % 2 == 0 && z % 3 == 0;
                assert_eq!(
                    out[lin * 2 + 1],
                    if first { 2032 } else { -1 },
                    "({x},{y},{z})"
                );
            }
        }
    }
}

#[test]
fn clocks_timers_and_fences() {
    let p = program();
    let mut dev = TestDevice::default();
    let dout = dev.alloc(32 * 3 * 8);
    let k = p.kernel("timers").unwrap();
    let params = b(dout);
    let timer = || 1_700_000_000_000_000_000u64;
    let mut l = stub_ptx::Launch::new([1, 1, 1], [32, 1, 1], &params);
    l.globaltimer = Some(&timer);
    stub_ptx::run(k, &l, &dev).unwrap();
    let out: Vec<u64> = dev.download(dout, 96);
    for t in 0..32 {
        // %clock64 counts the block's warp instructions: the 17 between the two reads.
        assert_eq!(out[t * 3], 17, "clock64 advances");
        assert_eq!(out[t * 3 + 1], 1_700_000_000_000_000_000);
        // The warp's loads all precede its stores.
        assert_eq!(out[t * 3 + 2], 0);
    }
}
