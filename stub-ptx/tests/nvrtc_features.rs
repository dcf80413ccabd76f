//! The kernels of `tests/ptx/features.cu` as NVRTC 13 compiled them (`tests/ptx/features.ptx`),
//! run on a test device; every result computed again here in Rust.
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

/// `tests/ptx/features.ptx`, or the PTX file `STUB_PTX_FEATURES` names (the same source compiled by another
/// NVRTC, architecture or options: `tests/ptx/nvrtc.py`).
fn program() -> Program {
    match std::env::var("STUB_PTX_FEATURES") {
        Ok(path) => {
            Program::load(&std::fs::read_to_string(&path).expect("readable")).expect("parses")
        }
        Err(_) => Program::load(include_str!("ptx/features.ptx")).expect("features.ptx parses"),
    }
}

fn b<T: Copy>(v: T) -> Vec<u8> {
    let n = std::mem::size_of::<T>();
    let mut out = vec![0u8; n];
    // SAFETY: `out` holds n bytes.
    unsafe { std::ptr::copy_nonoverlapping(&v as *const T as *const u8, out.as_mut_ptr(), n) };
    out
}

#[test]
fn local_arrays_and_generic_pointers() {
    let p = program();
    let mut dev = TestDevice::default();
    let idx: Vec<i32> = (0..64).map(|i| (i * 7 + 3) % 40).collect();
    let (di, dout, dsout) = (dev.upload(&idx), dev.alloc(64 * 4), dev.alloc(64 * 4));
    launch(
        &p,
        "local_and_shared",
        &dev,
        [1, 1, 1],
        [64, 1, 1],
        0,
        &[&b(di), &b(dout), &b(dsout)],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 64);
    let sout: Vec<f32> = dev.download(dsout, 64);
    for t in 0..64i32 {
        let arr = |i: i32| t + i * i;
        let i = idx[t as usize];
        assert_eq!(
            out[t as usize],
            arr(i & 15) + arr((i + 5) & 15),
            "thread {t}"
        );
        assert_eq!(sout[t as usize], (63 - t) as f32 * 1.5);
    }
}

#[test]
fn struct_parameter_by_value() {
    let p = program();
    let mut dev = TestDevice::default();
    let k = p.kernel("struct_param").unwrap();
    assert_eq!(k.param_layout(), &[(0, 24), (24, 8)]);
    let mut s = [0u8; 24];
    s[0..4].copy_from_slice(&(-7i32).to_le_bytes());
    s[8..16].copy_from_slice(&0.75f64.to_le_bytes());
    s[16..18].copy_from_slice(&300i16.to_le_bytes());
    s[18..23].copy_from_slice(&[1, 2, 3, 250, 5]);
    let dout = dev.alloc(10 * 8);
    launch(
        &p,
        "struct_param",
        &dev,
        [1, 1, 1],
        [10, 1, 1],
        0,
        &[&s, &b(dout)],
    )
    .unwrap();
    let out: Vec<f64> = dev.download(dout, 10);
    let c = [1i8, 2, 3, 250u8 as i8, 5];
    for t in 0..10 {
        // `p.a + threadIdx.x` is unsigned in C++.
        let want = f64::from((-7 + t as i32) as u32) * 0.75 + 300.0 + f64::from(c[t % 5]);
        assert_eq!(out[t], want, "thread {t}");
    }
}

#[test]
fn vector_loads_and_stores() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..128).map(|i| i as f32 * 0.25).collect();
    let c: Vec<i32> = (0..64).map(|i| i * 1000 - 7).collect();
    let (da, db, dc, dd) = (
        dev.upload(&a),
        dev.alloc(128 * 4),
        dev.upload(&c),
        dev.alloc(32 * 8),
    );
    launch(
        &p,
        "vectors",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&b(da), &b(db), &b(dc), &b(dd)],
    )
    .unwrap();
    let bo: Vec<f32> = dev.download(db, 128);
    let d: Vec<i64> = dev.download(dd, 32);
    for t in 0..32 {
        let v = &a[t * 4..t * 4 + 4];
        assert_eq!(&bo[t * 4..t * 4 + 4], &[v[3], v[2] * 2.0, v[1] + 1.0, v[0]]);
        assert_eq!(d[t], i64::from(c[t * 2]) * i64::from(c[t * 2 + 1]));
    }
}

#[test]
fn warp_match_redux_shuffle_activemask() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(2654435761u32) >> 27)
        .collect();
    let (di, dout) = (dev.upload(&input), dev.alloc(64 * 8 * 4));
    launch(
        &p,
        "warp_more",
        &dev,
        [1, 1, 1],
        [64, 1, 1],
        0,
        &[&b(di), &b(dout)],
    )
    .unwrap();
    let out: Vec<u32> = dev.download(dout, 64 * 8);
    for w in 0..2 {
        let v = &input[w * 32..w * 32 + 32];
        let ballot = v
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, x)| if x & 1 == 1 { m | 1 << i } else { m });
        for l in 0..32 {
            let o = &out[(w * 32 + l) * 8..(w * 32 + l) * 8 + 8];
            let want_match =
                v.iter().enumerate().fold(
                    0u32,
                    |m, (i, x)| if x % 4 == v[l] % 4 { m | 1 << i } else { m },
                );
            assert_eq!(o[0], want_match, "match lane {l}");
            assert_eq!(o[1], v.iter().sum::<u32>());
            assert_eq!(o[2], *v.iter().min().unwrap());
            assert_eq!(o[3], v[l ^ 5]);
            assert_eq!(o[4], v[(l & !7) | 2]);
            assert_eq!(o[5], if l & 1 == 1 { 0xaaaa_aaaa } else { 0 });
            let lt = (1u32 << l) - 1;
            assert_eq!(o[6], lt);
            assert_eq!(o[7], (lt & ballot).count_ones());
        }
    }
}

#[test]
fn sixty_four_bit_integers() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<u64> = (0..64u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 40))
        .collect();
    let (da, dout) = (dev.upload(&a), dev.alloc(32 * 4 * 8));
    launch(
        &p,
        "wide_ints",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&b(da), &b(dout)],
    )
    .unwrap();
    let out: Vec<u64> = dev.download(dout, 32 * 4);
    for t in 0..32usize {
        let (x, y) = (a[t], a[t + 32] | 1);
        assert_eq!(out[t * 4], ((u128::from(x) * u128::from(y)) >> 64) as u64);
        assert_eq!(out[t * 4 + 1], x / y + x % y);
        assert_eq!(
            out[t * 4 + 2],
            (x << (t & 63)) ^ (x >> ((t * 3) & 63)) ^ (((x as i64) >> 7) as u64)
        );
        assert_eq!(
            out[t * 4 + 3],
            ((x as i64).min(y as i64) as u64).wrapping_add(x.max(y))
        );
    }
}

#[test]
fn half2_arithmetic() {
    use half::f16;
    let p = program();
    let mut dev = TestDevice::default();
    let h = |x: f32| f16::from_f32(x);
    let pack = |lo: f16, hi: f16| u32::from(lo.to_bits()) | u32::from(hi.to_bits()) << 16;
    let a: Vec<u32> = (0..32)
        .map(|i| pack(h(i as f32 * 0.5), h(-(i as f32))))
        .collect();
    let bv: Vec<u32> = (0..32)
        .map(|i| pack(h(1.25), h(i as f32 * 0.125)))
        .collect();
    let (da, db, dc, df) = (
        dev.upload(&a),
        dev.upload(&bv),
        dev.alloc(32 * 4),
        dev.alloc(32 * 4),
    );
    launch(
        &p,
        "halves",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&b(da), &b(db), &b(dc), &b(df)],
    )
    .unwrap();
    let c: Vec<u32> = dev.download(dc, 32);
    let f: Vec<f32> = dev.download(df, 32);
    let un = |x: u32| (f16::from_bits(x as u16), f16::from_bits((x >> 16) as u16));
    for t in 0..32 {
        let ((a0, a1), (b0, b1)) = (un(a[t]), un(bv[t]));
        // f16 sums and products of these values are exact in f32 and rounded once to f16.
        let (r0, r1) = (h(a0.to_f32() + b0.to_f32()), h(a1.to_f32() + b1.to_f32()));
        assert_eq!(
            c[t],
            pack(h(r0.to_f32() * b0.to_f32()), h(r1.to_f32() * b1.to_f32())),
            "lane {t}"
        );
        assert_eq!(f[t], r0.to_f32() + r1.to_f32());
    }
}

#[test]
fn nested_loops_with_break_and_continue() {
    let p = program();
    let mut dev = TestDevice::default();
    let lim: Vec<i32> = (0..96).map(|i| (i * 5) % 37).collect();
    let (dl, dout) = (dev.upload(&lim), dev.alloc(96 * 4));
    launch(
        &p,
        "nested_loops",
        &dev,
        [1, 1, 1],
        [96, 1, 1],
        0,
        &[&b(dl), &b(dout)],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 96);
    for t in 0..96i32 {
        let mut acc = 0;
        for i in 0..lim[t as usize] {
            if i % 3 == 2 {
                continue;
            }
            for j in 0..i {
                if j > 5 {
                    break;
                }
                acc += i * j + if t & 1 == 1 { 1 } else { -1 };
            }
            if acc > 400 {
                break;
            }
        }
        assert_eq!(out[t as usize], acc, "thread {t}");
    }
}

#[test]
fn printf_reaches_the_device() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    launch(&p, "prints", &dev, [1, 1, 1], [3, 1, 1], 0, &[&b(42i32)]).unwrap();
    let printed = dev.printed.lock().unwrap().clone();
    assert_eq!(printed.len(), 3);
    for (t, (fmt, args)) in printed.iter().enumerate() {
        assert_eq!(fmt, "thread %d of %d: %d\n");
        assert_eq!(&args[..3], &[t as u32, 3, 42]);
    }
}

#[test]
fn float_arithmetic() {
    let p = program();
    let mut dev = TestDevice::default();
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 0.37 - 4.0).collect();
    let (dx, dout) = (dev.upload(&x), dev.alloc(32 * 6 * 4));
    launch(
        &p,
        "float_math",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&b(dx), &b(dout)],
    )
    .unwrap();
    let out: Vec<f32> = dev.download(dout, 32 * 6);
    for t in 0..32 {
        let v = x[t];
        let o = &out[t * 6..t * 6 + 6];
        assert_eq!(o[0], v.mul_add(1.25, -0.5));
        assert_eq!(o[1], v.abs().sqrt());
        assert_eq!(o[2], v.min(0.25) + v.max(-1.0));
        assert_eq!(o[3], v / 3.0);
        assert_eq!(o[4], ((v * 7.9) as i32) as f32);
        let e = (v * 0.1).exp();
        assert!(
            (o[5] - e).abs() <= e * 1e-5,
            "expf({}) {} vs {e}",
            v * 0.1,
            o[5]
        );
    }
}

#[test]
fn barrier_reductions() {
    let p = program();
    let mut dev = TestDevice::default();
    for case in 0..2 {
        let input: Vec<i32> = (0..100)
            .map(|i| {
                if case == 0 {
                    (i * 7) % 11
                } else {
                    i - 50 + if i == 9 { 92 } else { 0 }
                }
            })
            .collect();
        let (di, dout) = (dev.upload(&input), dev.alloc(100 * 3 * 4));
        launch(
            &p,
            "block_votes",
            &dev,
            [1, 1, 1],
            [100, 1, 1],
            0,
            &[&b(di), &b(dout)],
        )
        .unwrap();
        let out: Vec<i32> = dev.download(dout, 300);
        let c = input.iter().filter(|v| **v > 3).count() as i32;
        let a = i32::from(input.iter().all(|v| *v >= 0));
        let o = i32::from(input.contains(&42));
        for t in 0..100 {
            assert_eq!(&out[t * 3..t * 3 + 3], &[c, a, o], "case {case} thread {t}");
        }
    }
}

#[test]
fn carry_chains() {
    let p = program();
    let mut dev = TestDevice::default();
    let vals: Vec<u128> = (0..64u128)
        .map(|i| (i * 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210) ^ (u128::MAX >> (i % 7)))
        .collect();
    let words = |v: &[u128]| {
        v.iter()
            .flat_map(|x| (0..4).map(move |k| (x >> (32 * k)) as u32))
            .collect::<Vec<u32>>()
    };
    let (da, db) = (
        dev.upload(&words(&vals[..32])),
        dev.upload(&words(&vals[32..])),
    );
    let (ds, dd) = (dev.alloc(32 * 16), dev.alloc(32 * 16));
    launch(
        &p,
        "carries",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&b(da), &b(db), &b(ds), &b(dd)],
    )
    .unwrap();
    let sum: Vec<u32> = dev.download(ds, 128);
    let diff: Vec<u32> = dev.download(dd, 128);
    for t in 0..32 {
        let (x, y) = (vals[t], vals[t + 32]);
        assert_eq!(
            &sum[t * 4..t * 4 + 4],
            &words(&[x.wrapping_add(y)])[..],
            "sum {t}"
        );
        assert_eq!(
            &diff[t * 4..t * 4 + 4],
            &words(&[x.wrapping_sub(y)])[..],
            "diff {t}"
        );
    }
}

#[test]
fn async_copies_elect_and_testp() {
    let p = program();
    let mut dev = TestDevice::default();
    let src: Vec<i32> = (0..256).map(|i| i * 3 - 100).collect();
    let f: Vec<f32> = (0..64)
        .map(|i| match i % 4 {
            0 => f32::INFINITY,
            1 => f32::NAN,
            2 => -f32::INFINITY,
            _ => i as f32,
        })
        .collect();
    let (ds, dout, df) = (dev.upload(&src), dev.alloc(64 * 3 * 4), dev.upload(&f));
    launch(
        &p,
        "async_copy_and_elect",
        &dev,
        [1, 1, 1],
        [64, 1, 1],
        0,
        &[&b(ds), &b(dout), &b(df)],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 64 * 3);
    let fo: Vec<f32> = dev.download(df, 64);
    for t in 0..64 {
        let s = 63 - t;
        assert_eq!(
            out[t * 3],
            src[s * 4..s * 4 + 4].iter().sum::<i32>(),
            "thread {t}"
        );
        assert_eq!(out[t * 3 + 1], 4, "leader of lanes 4..31");
        assert_eq!(out[t * 3 + 2], i32::from(t % 32 == 4));
        assert_eq!(
            fo[t],
            match t % 4 {
                0 | 2 => 10.0,
                1 => 1.0,
                _ => 0.0,
            }
        );
    }
}
