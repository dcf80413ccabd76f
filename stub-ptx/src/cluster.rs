//! Thread-block clusters (PTX ISA "Cluster of Cooperative Thread Arrays", CUDA Programming
//! Guide "Thread Block Clusters", "Distributed Shared Memory"): the blocks of one cluster run
//! in turns on one thread ([`crate::Prepared::run_cluster`]), each seeing the others' shared
//! memory through shared::cluster addresses, and wait for each other at the cluster's barrier
//! (`barrier.cluster.arrive` / `.wait`).
//!
//! # Addresses
//! A shared::cluster address is a block's shared-memory offset tagged with its rank:
//! `(rank + 1) << 24 | offset` ([`address`]). An untagged address (below 2^24, a shared::cta
//! address) is the running block's own, as PTX makes the shared::cta window part of the
//! shared::cluster one. 2^24 bytes is far above any block's shared memory (228 KiB on sm_90),
//! and the tagged addresses of 16 ranks stay below 2^32, so `.u32` shared::cluster addresses
//! and the generic shared window ([`crate::memory::SHARED_WINDOW`] plus the address) both hold
//! them. `mapa` makes such addresses, `getctarank` reads their rank back, and
//! `ld`/`st`/`atom`/`red`/`mbarrier`/`cp.async.bulk` on `.shared::cluster` (or generic)
//! addresses reach the peer's memory ([`crate::memory::Mems`]).
//!
//! # The barrier
//! Every thread of the cluster arrives once per phase; a phase completes when every thread
//! that has not exited arrived (a thread that exits counts as arrived, as for `bar.sync`); a
//! `wait` returns once the phase its thread arrived in has completed. A warp whose wait
//! cannot return yet gives way to the cluster's other warps and blocks.

use core::cell::Cell;

use alloc::vec::Vec;

/// Where a shared::cluster address keeps its rank.
pub const RANK_SHIFT: u32 = 24;
/// A shared::cluster address's offset bits.
pub const OFFSET_MASK: u64 = (1 << RANK_SHIFT) - 1;
/// Most blocks per cluster (sm_90's non-portable limit).
pub const MAX_BLOCKS: u32 = 16;

/// The shared::cluster address of byte `offset` of the shared memory of the block of `rank`.
pub fn address(rank: u32, offset: u64) -> u64 {
    (u64::from(rank) + 1) << RANK_SHIFT | (offset & OFFSET_MASK)
}

/// The rank a shared::cluster address names (`None`: untagged, the running block's own) and
/// its offset.
pub fn split(a: u64) -> (Option<u64>, u64) {
    match a >> RANK_SHIFT {
        0 => (None, a),
        r => (Some(r - 1), a & OFFSET_MASK),
    }
}

/// What the blocks of one cluster share while they run: their shared memories and the
/// cluster's barrier. One thread runs them all, so plain cells do.
pub struct Cluster {
    /// Each rank's shared memory (address, length); a block that ended has length 0, so that
    /// a later access to it faults rather than reading freed memory.
    pub(crate) peers: Vec<Cell<(usize, usize)>>,
    /// The barrier's phase.
    phase: Cell<u32>,
    /// Threads still to arrive in this phase.
    pending: Cell<u32>,
    /// Threads that have not exited: each phase's arrivals.
    live: Cell<u32>,
}

impl Cluster {
    /// A cluster of `threads` threads whose blocks' shared memories are not yet known.
    pub(crate) fn new(threads: u32, blocks: usize) -> Self {
        Cluster {
            peers: (0..blocks).map(|_| Cell::new((0, 0))).collect(),
            phase: Cell::new(0),
            pending: Cell::new(threads),
            live: Cell::new(threads),
        }
    }

    /// The barrier's current phase.
    pub(crate) fn phase(&self) -> u32 {
        self.phase.get()
    }

    /// Completes phases while nothing is pending.
    fn settle(&self) {
        if self.pending.get() == 0 && self.live.get() > 0 {
            self.phase.set(self.phase.get().wrapping_add(1));
            self.pending.set(self.live.get());
        }
    }

    /// `n` threads arrive in the current phase.
    pub(crate) fn arrive(&self, n: u32) {
        self.pending.set(self.pending.get().saturating_sub(n));
        self.settle();
    }

    /// `arrived` threads that arrived in the current phase and `other` threads that did not
    /// exit: the first counted already, the second count as arrived.
    pub(crate) fn exit(&self, arrived: u32, other: u32) {
        self.live
            .set(self.live.get().saturating_sub(arrived + other));
        self.pending.set(self.pending.get().saturating_sub(other));
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_round_trip() {
        assert_eq!(split(0x40), (None, 0x40));
        for rank in 0..MAX_BLOCKS {
            let a = address(rank, 0x1234);
            assert!(a < 1 << 32);
            assert_eq!(split(a), (Some(u64::from(rank)), 0x1234));
            // mapa of a shared::cluster address keeps only its offset.
            assert_eq!(split(address(3, a)), (Some(3), 0x1234));
        }
    }

    #[test]
    fn barrier_phases_count_exits_as_arrivals() {
        let c = Cluster::new(4, 2);
        c.arrive(2);
        assert_eq!(c.phase(), 0);
        // One of the two others exits without arriving, one of the arrived ones exits too.
        c.exit(1, 1);
        assert_eq!(c.phase(), 0);
        c.arrive(1);
        assert_eq!(c.phase(), 1);
        // Two threads are left: the next phase waits for both.
        c.arrive(1);
        assert_eq!(c.phase(), 1);
        c.arrive(1);
        assert_eq!(c.phase(), 2);
    }
}
