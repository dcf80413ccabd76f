//! Thread-block clusters ([`stub_ptx::Prepared::run_cluster`], [`stub_ptx::cluster`]) of
//! `tests/ptx/cluster.cu` as NVRTC 13.5 compiled it for compute_90 with cooperative groups'
//! `cluster_group`: the cluster registers, `barrier.cluster.arrive`/`.wait`, `mapa` (generic
//! and shared::cluster), `getctarank`, `isspacep`, loads and atomics on a peer block's shared
//! memory, the Programming Guide's distributed-shared-memory histogram, and a kernel whose
//! `__cluster_dims__` fixes its clusters. The expected values are computed here.
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, pack};
use stub_ptx::{Fault, Launch, Prepared, Program};

fn program() -> Program {
    Program::load(include_str!("ptx/cluster.ptx")).expect("cluster.ptx parses")
}

/// Runs `name` over `grid` blocks of `block` threads in clusters of `cluster`, every cluster
/// with [`Prepared::run`] (in order), each block within 10 million warp instructions.
fn run(
    p: &Program,
    name: &str,
    dev: &TestDevice,
    [grid, block, cluster]: [[u32; 3]; 3],
    shared: u32,
    args: &[&[u8]],
) -> Result<(), Fault> {
    let k = p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let params = pack(k, args);
    let mut l = Launch::new(grid, block, &params);
    l.cluster = cluster;
    l.explicit_cluster = cluster != [1, 1, 1];
    l.dynamic_shared = shared;
    l.budget = Some(10_000_000);
    Prepared::new(k, &l, dev)?.run()
}

/// `ring` over `grid` in clusters of `cluster`: each block saw its next rank's array, added
/// one to it, and the cluster registers.
fn ring(grid: [u32; 3], cluster: [u32; 3]) {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let blocks = (grid[0] * grid[1] * grid[2]) as usize;
    let threads = 128usize;
    let (out, ids) = (dev.alloc(blocks * threads * 4), dev.alloc(blocks * 32));
    run(
        &p,
        "ring",
        &dev,
        [grid, [threads as u32, 1, 1], cluster],
        0,
        &[&out.to_le_bytes(), &ids.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(out, blocks * threads);
    let ids: Vec<u32> = dev.download(ids, blocks * 8);
    let n = cluster.iter().product::<u32>();
    for b in 0..blocks as u32 {
        let c = [b % grid[0], b / grid[0] % grid[1], b / grid[0] / grid[1]];
        let local = [c[0] % cluster[0], c[1] % cluster[1], c[2] % cluster[2]];
        let rank = local[0] + cluster[0] * (local[1] + cluster[1] * local[2]);
        let next = (rank + 1) % n;
        // The block of rank `next` in this block's cluster.
        let nl = [
            next % cluster[0],
            next / cluster[0] % cluster[1],
            next / cluster[0] / cluster[1],
        ];
        let nc = [
            c[0] - local[0] + nl[0],
            c[1] - local[1] + nl[1],
            c[2] - local[2] + nl[2],
        ];
        let nb = nc[0] + grid[0] * (nc[1] + grid[1] * nc[2]);
        for t in 0..threads {
            // It saw the next block's value and found its own raised by one (its previous
            // rank's atomic add).
            let want = (nb as i32 * 1000 + t as i32) * 10 + 1;
            assert_eq!(out[b as usize * threads + t], want, "block {b} thread {t}");
        }
        let clusterid = [c[0] / cluster[0], c[1] / cluster[1], c[2] / cluster[2]];
        let nclusters = [grid[0] / cluster[0], grid[1] / cluster[1]];
        let want = [
            rank,
            n,
            local[0] + 100 * local[1] + 10000 * local[2],
            cluster[0] + 100 * cluster[1] + 10000 * cluster[2],
            clusterid[0] + 100 * clusterid[1] + 10000 * clusterid[2],
            nclusters[0] + 100 * nclusters[1],
            next,
            // A peer's address is shared::cluster but not shared::cta, unless it is the
            // block's own (a cluster of one block).
            if n == 1 { 11 } else { 1 },
        ];
        assert_eq!(ids[b as usize * 8..b as usize * 8 + 8], want, "block {b}");
    }
}

#[test]
fn ring_of_two_blocks_reads_and_adds_to_its_peer() {
    ring([8, 1, 1], [2, 1, 1]);
}

#[test]
fn ring_of_four_blocks_in_two_dimensions() {
    ring([4, 6, 1], [2, 2, 1]);
}

#[test]
fn ring_of_eight_and_sixteen_blocks() {
    ring([16, 1, 2], [8, 1, 1]);
    ring([4, 4, 2], [4, 2, 2]);
}

#[test]
fn a_cluster_of_one_block_maps_to_itself() {
    ring([3, 1, 1], [1, 1, 1]);
}

/// The Programming Guide's histogram over distributed shared memory.
fn histogram(cluster: u32, nbins: usize, block: u32) {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let n = 20_000usize;
    let input: Vec<i32> = (0..n as i32)
        .map(|i| (i * 7919 + i / 13) % (nbins as i32 + 6) - 3)
        .collect();
    let din = dev.upload(&input);
    let bins = dev.alloc(nbins * 4);
    let grid = 4 * cluster;
    let per_block = (nbins / cluster as usize * 4) as u32;
    run(
        &p,
        "histogram",
        &dev,
        [[grid, 1, 1], [block, 1, 1], [cluster, 1, 1]],
        per_block,
        &[
            &bins.to_le_bytes(),
            &din.to_le_bytes(),
            &(n as i32).to_le_bytes(),
            &(nbins as i32).to_le_bytes(),
        ],
    )
    .unwrap();
    let mut want = vec![0i32; nbins];
    for &v in &input {
        want[v.clamp(0, nbins as i32 - 1) as usize] += 1;
    }
    // Every cluster counted its own slice of the input into the same global bins.
    assert_eq!(dev.download::<i32>(bins, nbins), want);
}

#[test]
fn dsmem_histogram_in_clusters_of_two_and_four() {
    histogram(2, 64, 128);
    histogram(4, 256, 96);
}

#[test]
fn cluster_dims_of_the_kernel_pair_its_blocks() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let out = dev.alloc(6 * 64 * 4);
    // The launch names no cluster: the kernel's `.reqnctapercluster 2, 1, 1` does.
    run(
        &p,
        "pairs",
        &dev,
        [[6, 1, 1], [64, 1, 1], [1, 1, 1]],
        0,
        &[&out.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(out, 6 * 64);
    for b in 0..6 {
        for t in 0..64 {
            let rank = b % 2;
            let want = ((rank ^ 1) * 100 + t) as i32 + t as i32 * 3;
            assert_eq!(out[b * 64 + t], want, "block {b} thread {t}");
        }
    }
    // A grid the kernel's clusters do not divide is no launch.
    let k = p.kernel("pairs").unwrap();
    let params = pack(k, &[&out.len().to_le_bytes()]);
    let l = Launch::new([5, 1, 1], [64, 1, 1], &params);
    assert!(matches!(
        Prepared::new(k, &l, &dev),
        Err(Fault::InvalidLaunch(_))
    ));
}

#[test]
fn a_block_of_a_cluster_launch_does_not_run_alone() {
    let p = program();
    let dev = TestDevice::default();
    let k = p.kernel("pairs").unwrap();
    let params = pack(k, &[&0u64.to_le_bytes()]);
    let l = Launch::new([2, 1, 1], [64, 1, 1], &params);
    let prepared = Prepared::new(k, &l, &dev).unwrap();
    assert!(prepared.clustered());
    assert_eq!(prepared.clusters(), [1, 1, 1]);
    assert!(matches!(
        prepared.run_block([0, 0, 0]),
        Err(Fault::InvalidLaunch(_))
    ));
}

fn handwritten() -> Program {
    Program::load(include_str!("ptx/cluster_handwritten.ptx"))
        .expect("cluster_handwritten.ptx parses")
}

#[test]
fn a_remote_mbarrier_arrive_completes_the_peers_phase() {
    let p = handwritten();
    let mut dev = TestDevice::default();
    let out = dev.alloc(4);
    run(
        &p,
        "remote_arrive",
        &dev,
        [[4, 1, 1], [64, 1, 1], [2, 1, 1]],
        0,
        &[&out.to_le_bytes()],
    )
    .unwrap();
    assert_eq!(dev.download::<u32>(out, 1), vec![4242]);
}

#[test]
fn threads_that_exit_count_as_arrived_at_the_cluster_barrier() {
    let p = handwritten();
    let mut dev = TestDevice::default();
    let out = dev.alloc(4 * 64 * 4);
    run(
        &p,
        "early_exit",
        &dev,
        [[4, 1, 1], [64, 1, 1], [2, 1, 1]],
        0,
        &[&out.to_le_bytes()],
    )
    .unwrap();
    let got: Vec<u32> = dev.download(out, 4 * 64);
    for b in 0..4u32 {
        for t in 0..64u32 {
            let want = if t < 48 { ((b % 2) ^ 1) * 100 + t } else { 0 };
            assert_eq!(got[(b * 64 + t) as usize], want, "block {b} thread {t}");
        }
    }
}

#[test]
fn reading_a_peer_that_ended_is_an_illegal_address() {
    let p = handwritten();
    let mut dev = TestDevice::default();
    let out = dev.alloc(4);
    let r = run(
        &p,
        "read_ended",
        &dev,
        [[2, 1, 1], [32, 1, 1], [2, 1, 1]],
        0,
        &[&out.to_le_bytes()],
    );
    assert!(matches!(r, Err(Fault::IllegalAddress { .. })), "{r:?}");
}

#[test]
fn a_multicast_bulk_copy_is_refused_with_its_line() {
    let p = handwritten();
    let Err(e) = p.kernel("multicast") else {
        panic!("multicast decoded");
    };
    let text = format!("{e:?}");
    assert!(text.contains("multicast"), "{text}");
}
