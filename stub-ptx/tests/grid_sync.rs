//! Cooperative launches ([`stub_ptx::Prepared::run_cooperative`]) of `tests/ptx/grid_sync.cu`
//! as NVRTC 13.5 compiled it: cooperative groups' `grid.sync()` (its grid workspace read from
//! `%envreg1/2`, the arrival counter it spins on), a hand-written grid barrier, warps of one
//! block waiting on each other through shared memory; and `grid.sync()` in a launch that is
//! not cooperative, which traps as on a board. The expected values are computed here.

mod common;

use common::{TestDevice, pack};
use stub_ptx::{Fault, Launch, Prepared, Program};

fn program() -> Program {
    Program::load(include_str!("ptx/grid_sync.ptx")).expect("grid_sync.ptx parses")
}

/// Runs `name` as a cooperative launch, each block within 50 million warp instructions.
fn cooperative(
    p: &Program,
    name: &str,
    dev: &TestDevice,
    grid: u32,
    block: u32,
    args: &[&[u8]],
) -> Result<(), Fault> {
    cooperative_within(p, name, dev, [grid, block], args, 50_000_000)
}

/// [`cooperative`] with each block's instruction budget.
fn cooperative_within(
    p: &Program,
    name: &str,
    dev: &TestDevice,
    [grid, block]: [u32; 2],
    args: &[&[u8]],
    budget: u64,
) -> Result<(), Fault> {
    let k = p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let params = pack(k, args);
    let mut l = Launch::new([grid, 1, 1], [block, 1, 1], &params);
    l.budget = Some(budget);
    Prepared::new(k, &l, dev)?.run_cooperative()
}

#[test]
fn grid_sum_syncs_the_grid_twice() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let n = 10_000usize;
    let input: Vec<i32> = (0..n as i32).map(|i| i % 97 - 40).collect();
    let blocks = 12u32;
    let din = dev.upload(&input);
    let partial = dev.alloc(blocks as usize * 4);
    let out = dev.alloc(8);
    cooperative(
        &p,
        "grid_sum",
        &dev,
        blocks,
        256,
        &[
            &din.to_le_bytes(),
            &partial.to_le_bytes(),
            &out.to_le_bytes(),
            &(n as i32).to_le_bytes(),
        ],
    )
    .unwrap();
    let sum: i32 = input.iter().sum();
    assert_eq!(dev.download::<i32>(out, 2), vec![sum, 2 * sum]);
}

#[test]
fn every_block_sees_its_neighbour_after_the_sync() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let blocks = 40usize;
    let (slots, seen, valid) = (
        dev.alloc(blocks * 4),
        dev.alloc(blocks * 4),
        dev.alloc(blocks * 4),
    );
    cooperative(
        &p,
        "neighbour",
        &dev,
        blocks as u32,
        96,
        &[
            &slots.to_le_bytes(),
            &seen.to_le_bytes(),
            &valid.to_le_bytes(),
        ],
    )
    .unwrap();
    let want: Vec<i32> = (0..blocks)
        .map(|b| ((b + 1) % blocks) as i32 * 10 + 1)
        .collect();
    assert_eq!(dev.download::<i32>(seen, blocks), want);
    assert_eq!(dev.download::<i32>(valid, blocks), vec![1; blocks]);
}

/// Not cooperative: no grid workspace (`%envreg1/2` read 0), so `grid.is_valid()` is false and
/// `grid.sync()` traps (`_CG_ABORT`), as a board answers a plain launch of it.
#[test]
fn grid_sync_in_a_plain_launch_traps() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let (slots, seen, valid) = (dev.alloc(16), dev.alloc(16), dev.alloc(16));
    let e = common::launch(
        &p,
        "neighbour",
        &dev,
        [4, 1, 1],
        [32, 1, 1],
        0,
        &[
            &slots.to_le_bytes(),
            &seen.to_le_bytes(),
            &valid.to_le_bytes(),
        ],
    )
    .expect_err("traps");
    assert!(matches!(e, Fault::Trap { .. }), "{e:?}");
    assert_eq!(dev.download::<i32>(valid, 1), vec![0]);
}

#[test]
fn a_spinning_block_lets_the_last_block_run() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let (flag, out) = (dev.alloc(4), dev.alloc(4));
    cooperative(
        &p,
        "last_releases_first",
        &dev,
        9,
        64,
        &[&flag.to_le_bytes(), &out.to_le_bytes()],
    )
    .unwrap();
    assert_eq!(dev.download::<i32>(out, 1), vec![8]);
}

#[test]
fn a_spinning_warp_lets_its_blocks_other_warps_run() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let out = dev.alloc(3 * 4);
    cooperative(&p, "warp_waits_warp", &dev, 3, 64, &[&out.to_le_bytes()]).unwrap();
    assert_eq!(dev.download::<i32>(out, 3), vec![5, 6, 7]);
}

/// A spin that nothing releases ends at the launch's instruction budget, not never.
#[test]
fn a_barrier_nobody_reaches_times_out() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let (flag, out) = (dev.alloc(4), dev.alloc(4));
    // One block: block 0 is also the last, and `else if` keeps it from releasing itself.
    let e = cooperative_within(
        &p,
        "last_releases_first",
        &dev,
        [1, 32],
        &[&flag.to_le_bytes(), &out.to_le_bytes()],
        200_000,
    )
    .expect_err("times out");
    assert!(matches!(e, Fault::Timeout), "{e:?}");
}
