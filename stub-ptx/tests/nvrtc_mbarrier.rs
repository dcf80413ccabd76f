//! `mbarrier` and `cp.async.bulk` of `tests/ptx/mbarrier.cu` as NVRTC 13.5 compiled it
//! (compute_90): transaction counts completed by bulk copies, arrivals with state tokens over
//! two phases, and a warp waiting on another (the waiting warp must yield); the expected
//! values computed here.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

fn program() -> Program {
    Program::load(include_str!("ptx/mbarrier.ptx")).expect("mbarrier.ptx parses")
}

#[test]
fn bulk_copies_complete_the_barrier_and_store_back() {
    let p = program();
    let mut dev = TestDevice::default();
    let blocks = 3usize;
    let src: Vec<i32> = (0..256 * blocks as i32).map(|i| i * 3 - 700).collect();
    let (ds, dout, dcopy) = (
        dev.upload(&src),
        dev.alloc(256 * blocks * 4),
        dev.alloc(256 * blocks * 4),
    );
    launch(
        &p,
        "bulk_copy",
        &dev,
        [blocks as u32, 1, 1],
        [64, 1, 1],
        0,
        &[&ds.to_le_bytes(), &dout.to_le_bytes(), &dcopy.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 256 * blocks);
    let copy: Vec<i32> = dev.download(dcopy, 256 * blocks);
    for i in 0..256 * blocks {
        assert_eq!(out[i], src[i], "out[{i}]");
        assert_eq!(copy[i], 2 * src[i], "copy[{i}]");
    }
}

#[test]
fn arrivals_and_token_waits_over_two_phases() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<i32> = (0..64).map(|i| i * i - 50).collect();
    let (din, dout) = (dev.upload(&input), dev.alloc(128 * 4));
    launch(
        &p,
        "arrive_wait",
        &dev,
        [1, 1, 1],
        [64, 1, 1],
        0,
        &[&din.to_le_bytes(), &dout.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, 128);
    for phase in 0..2 {
        for t in 0..64 {
            let u = t ^ 32;
            let want = if u >= 32 {
                input[u] * (phase as i32 + 1)
            } else {
                input[u] + phase as i32
            };
            assert_eq!(out[phase * 64 + t], want, "phase {phase} thread {t}");
        }
    }
}
