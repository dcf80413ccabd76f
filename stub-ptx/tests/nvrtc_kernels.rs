//! The kernels of `tests/ptx/kernels.cu` as NVRTC 13 compiled them (`tests/ptx/kernels.ptx`),
//! run on a test device; every result computed again here in Rust.
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Fault, Program};

/// `tests/ptx/kernels.ptx`, or the PTX file `STUB_PTX_KERNELS` names (the same source compiled by another
/// NVRTC, architecture or options: `tests/ptx/nvrtc.py`).
fn program() -> Program {
    match std::env::var("STUB_PTX_KERNELS") {
        Ok(path) => {
            Program::load(&std::fs::read_to_string(&path).expect("readable")).expect("parses")
        }
        Err(_) => Program::load(include_str!("ptx/kernels.ptx")).expect("kernels.ptx parses"),
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
fn every_kernel_decodes() {
    let p = program();
    for name in p.kernel_names() {
        p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    assert_eq!(p.kernel_names().count(), 9);
}

#[test]
fn vector_add() {
    let p = program();
    let mut dev = TestDevice::default();
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let bv: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let (da, db, dc) = (dev.upload(&a), dev.upload(&bv), dev.alloc(n * 4));
    launch(
        &p,
        "vector_add",
        &dev,
        [8, 1, 1],
        [128, 1, 1],
        0,
        &[&b(da), &b(db), &b(dc), &b(n as i32)],
    )
    .unwrap();
    let c: Vec<f32> = dev.download(dc, n);
    for i in 0..n {
        assert_eq!(c[i], a[i] + bv[i], "element {i}");
    }
}

#[test]
fn block_sum_with_dynamic_shared_memory_and_barriers() {
    let p = program();
    let mut dev = TestDevice::default();
    let n = 1000usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1000 - 300).collect();
    let (din, dout) = (dev.upload(&input), dev.alloc(4 * 4));
    launch(
        &p,
        "block_sum",
        &dev,
        [4, 1, 1],
        [256, 1, 1],
        256 * 4,
        &[&b(din), &b(dout), &b(n as i32)],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 4);
    for blk in 0..4 {
        let want: i32 = input.iter().skip(blk * 256).take(256).sum();
        assert_eq!(out[blk], want, "block {blk}");
    }
}

#[test]
fn divergent_loops_and_branches() {
    let p = program();
    let mut dev = TestDevice::default();
    let n = 300usize;
    let input: Vec<u32> = (1..=n as u32).collect();
    let (din, ds, dp) = (dev.upload(&input), dev.alloc(n * 4), dev.alloc(n * 4));
    launch(
        &p,
        "collatz",
        &dev,
        [3, 1, 1],
        [128, 1, 1],
        0,
        &[&b(din), &b(ds), &b(dp), &b(n as i32)],
    )
    .unwrap();
    let steps: Vec<u32> = dev.download(ds, n);
    let parity: Vec<u32> = dev.download(dp, n);
    for i in 0..n {
        let (mut x, mut s) = (input[i], 0u32);
        while x != 1 && s < 1000 {
            x = if x & 1 == 1 { 3 * x + 1 } else { x >> 1 };
            s += 1;
        }
        assert_eq!(steps[i], s, "steps of {}", input[i]);
        let want = match s % 3 {
            0 => 100 + s,
            1 => 200,
            _ => 300 - s,
        };
        assert_eq!(parity[i], want, "parity of {}", input[i]);
    }
}

#[test]
fn recursive_and_plain_calls() {
    let p = program();
    let mut dev = TestDevice::default();
    let ns: Vec<i32> = (0..40).map(|i| i % 17).collect();
    let fs: Vec<f32> = (0..40).map(|i| i as f32 - 3.25).collect();
    let (dn, dout, df, dcalls) = (
        dev.upload(&ns),
        dev.alloc(40 * 8),
        dev.upload(&fs),
        dev.alloc(4),
    );
    launch(
        &p,
        "recursive",
        &dev,
        [1, 1, 1],
        [40, 1, 1],
        0,
        &[&b(dn), &b(dout), &b(df), &b(dcalls)],
    )
    .unwrap();
    fn fib(n: i64) -> i64 {
        if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
    }
    let out: Vec<i64> = dev.download(dout, 40);
    let f: Vec<f32> = dev.download(df, 40);
    for i in 0..40 {
        assert_eq!(out[i], fib(i64::from(ns[i])), "fib({})", ns[i]);
        assert_eq!(f[i], fs[i] * 2.5);
    }
    assert_eq!(dev.download::<i32>(dcalls, 1)[0], 40);
}

#[test]
fn warp_shuffles_and_votes() {
    let p = program();
    let mut dev = TestDevice::default();
    let n = 64usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 13) % 23).collect();
    let (din, dsum, dballot, dbcast, dup) = (
        dev.upload(&input),
        dev.alloc(8),
        dev.alloc(n * 4),
        dev.alloc(n * 4),
        dev.alloc(n * 4),
    );
    launch(
        &p,
        "warp_ops",
        &dev,
        [1, 1, 1],
        [n as u32, 1, 1],
        0,
        &[&b(din), &b(dsum), &b(dballot), &b(dbcast), &b(dup)],
    )
    .unwrap();
    let sum: Vec<i32> = dev.download(dsum, 2);
    let ballot: Vec<u32> = dev.download(dballot, n);
    let bcast: Vec<i32> = dev.download(dbcast, n);
    let up: Vec<i32> = dev.download(dup, n);
    for w in 0..2 {
        let lanes = &input[w * 32..w * 32 + 32];
        assert_eq!(sum[w], lanes.iter().sum::<i32>());
        let want_ballot = lanes
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, v)| if *v > 10 { m | 1 << i } else { m });
        let any7 = lanes.contains(&7);
        for l in 0..32 {
            let t = w * 32 + l;
            assert_eq!(ballot[t], want_ballot);
            assert_eq!(bcast[t], lanes[3] + 1000 + if any7 { 10000 } else { 0 });
            assert_eq!(up[t], if l == 0 { lanes[0] } else { lanes[l - 1] });
        }
    }
}

#[test]
fn atomics_from_many_threads() {
    let p = program();
    let mut dev = TestDevice::default();
    let (blocks, threads) = (4usize, 96usize);
    let input: Vec<i32> = (0..(blocks * threads) as i32)
        .map(|i| (i * 37) % 101)
        .collect();
    let din = dev.upload(&input);
    let (dc, dm, df, dcas, dh) = (
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(32),
    );
    launch(
        &p,
        "atomics",
        &dev,
        [blocks as u32, 1, 1],
        [threads as u32, 1, 1],
        0,
        &[&b(dc), &b(dm), &b(df), &b(dcas), &b(dh), &b(din)],
    )
    .unwrap();
    let total = (blocks * threads) as i32;
    assert_eq!(dev.download::<i32>(dc, 1)[0], total);
    assert_eq!(
        dev.download::<u32>(dm, 1)[0],
        *input.iter().max().unwrap() as u32
    );
    assert_eq!(dev.download::<f32>(df, 1)[0], total as f32 * 0.5);
    assert_eq!(dev.download::<u32>(dcas, 1)[0], 2 * total as u32);
    let hist: Vec<i32> = dev.download(dh, 8);
    for k in 0..8 {
        assert_eq!(
            hist[k],
            input.iter().filter(|v| *v & 7 == k as i32).count() as i32,
            "bin {k}"
        );
    }
}

#[test]
fn module_variables_conversions_and_bit_ops() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let n = 32usize;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 1.75 + 0.3).collect();
    let (dx, dy, dz, dh) = (
        dev.upload(&x),
        dev.alloc(n * 8),
        dev.alloc(n * 8),
        dev.alloc(n * 2),
    );
    launch(
        &p,
        "math_mix",
        &dev,
        [1, 1, 1],
        [n as u32, 1, 1],
        0,
        &[&b(dx), &b(dy), &b(dz), &b(dh)],
    )
    .unwrap();
    let y: Vec<f64> = dev.download(dy, n);
    let z: Vec<i64> = dev.download(dz, n);
    let h: Vec<u16> = dev.download(dh, n);
    let g = [1.5, 2.5, 3.5, 4.5];
    let c = [10.0, 20.0, 30.0, 40.0];
    for t in 0..n {
        let want = x[t].sqrt() * g[t & 3] + c[t & 3] / 3.0;
        assert!(
            (y[t] - want).abs() <= want.abs() * 1e-15,
            "y[{t}] {} vs {want}",
            y[t]
        );
        let q = (x[t] as i64) * -7 / 3;
        let tt = t as u32;
        let want_z = q % 5
            + i64::from(tt.count_ones())
            + i64::from((tt + 1).leading_zeros())
            + i64::from(tt.reverse_bits() % 7);
        assert_eq!(z[t], want_z, "z[{t}]");
        assert_eq!(h[t], half::f16::from_f32(x[t] as f32).to_bits(), "h[{t}]");
    }
}

#[test]
fn out_of_bounds_store_faults() {
    let p = program();
    let mut dev = TestDevice::default();
    let d = dev.alloc(4096);
    let r = launch(&p, "out_of_bounds", &dev, [1, 1, 1], [2, 1, 1], 0, &[&b(d)]);
    match r {
        Err(Fault::IllegalAddress { addr, len: 4, .. }) => assert_eq!(addr, d + 4 * 1024 * 1024),
        other => panic!("{other:?}"),
    }
}

#[test]
fn failed_assert_reports_its_message() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let ok = dev.upload(&[1i32, 2, 3, 4]);
    launch(&p, "asserts", &dev, [1, 1, 1], [4, 1, 1], 0, &[&b(ok)]).unwrap();
    let bad = dev.upload(&[1i32, 2, 9, 4]);
    match launch(&p, "asserts", &dev, [1, 1, 1], [4, 1, 1], 0, &[&b(bad)]) {
        Err(Fault::Assert {
            message,
            file,
            source_line,
            function,
            block,
            thread,
        }) => {
            assert_eq!(message, "p[threadIdx.x] < 5");
            // Thread 2 of block 0 holds the 9.
            assert_eq!((block, thread), ([0, 0, 0], [2, 0, 0]));
            assert_eq!(file, "kernels.cu");
            assert_eq!(source_line, 87);
            assert_eq!(function, "asserts");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn blocks_on_several_threads() {
    fn shared_between_threads<T: Send + Sync>() {}
    shared_between_threads::<Program>();
    shared_between_threads::<stub_ptx::Kernel>();
    shared_between_threads::<stub_ptx::Prepared<'_>>();
    let p = program();
    let mut dev = TestDevice::default();
    let (blocks, threads) = (16u32, 64u32);
    let n = (blocks * threads) as usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101).collect();
    let din = dev.upload(&input);
    let (dc, dm, df, dcas, dh) = (
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(4),
        dev.alloc(32),
    );
    let k = p.kernel("atomics").unwrap();
    let params = common::pack(k, &[&b(dc), &b(dm), &b(df), &b(dcas), &b(dh), &b(din)]);
    let launch = stub_ptx::Launch::new([blocks, 1, 1], [threads, 1, 1], &params);
    let prepared = stub_ptx::Prepared::new(k, &launch, &dev).unwrap();
    std::thread::scope(|s| {
        for part in 0..4 {
            let prepared = &prepared;
            s.spawn(move || {
                for x in (part..blocks).step_by(4) {
                    prepared.run_block([x, 0, 0]).unwrap();
                }
            });
        }
    });
    assert_eq!(dev.download::<i32>(dc, 1)[0], n as i32);
    assert_eq!(dev.download::<u32>(dm, 1)[0], 100);
    assert_eq!(dev.download::<f32>(df, 1)[0], n as f32 * 0.5);
    assert_eq!(dev.download::<u32>(dcas, 1)[0], 2 * n as u32);
    let hist: Vec<i32> = dev.download(dh, 8);
    for k in 0..8 {
        assert_eq!(
            hist[k],
            input.iter().filter(|v| *v & 7 == k as i32).count() as i32,
            "bin {k}"
        );
    }
}
