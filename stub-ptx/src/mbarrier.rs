//! `mbarrier` objects (PTX ISA 9.7.13.15 "Parallel Synchronization and Communication
//! Instructions: mbarrier") and the bulk copies that complete their transactions
//! (`cp.async.bulk`, 9.7.9.25): done at issue, as every asynchronous copy of this executor is.
//!
//! An mbarrier is an opaque 64-bit object in shared memory; this executor's layout of it:
//! bits 0–20 the pending arrivals of the current phase, 21–41 the expected arrivals (what a
//! phase starts with), 42–62 the pending transaction count (bytes, modulo 2^21: a
//! `complete_tx` may come before its `expect_tx`), bit 63 the current phase's parity. A phase
//! completes when its pending arrivals and transactions are both zero: the parity flips and
//! the pending arrivals are reset to the expected count. The state token `arrive` answers is
//! the parity of the phase it arrived on, in bit 63 as in the object.
//!
//! Waiting: `test_wait`/`try_wait` answer whether the phase (of the token, or of the parity
//! given) has completed. Warps run one after another, so a warp spinning on an mbarrier that
//! another warp completes could spin forever: a wait that answers false makes its warp yield
//! to the block's other warps (see [`crate::exec`]).

use crate::ops::{Addr, Mem, Pred, Slot};

const FIELD: u64 = (1 << 21) - 1;
const EXPECTED_SHIFT: u32 = 21;
const TX_SHIFT: u32 = 42;
const PHASE: u64 = 1 << 63;

/// What an mbarrier instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `mbarrier.init [a], count`.
    Init,
    /// `mbarrier.arrive [a]{, count}` (`expect_tx`: first `expect_tx` of the operand,
    /// arriving once; `drop`: `arrive_drop`, also lowering the expected count).
    Arrive {
        /// `.expect_tx`.
        expect_tx: bool,
        /// `arrive_drop`.
        drop: bool,
    },
    /// `mbarrier.expect_tx [a], tx`.
    ExpectTx,
    /// `mbarrier.complete_tx [a], tx`.
    CompleteTx,
    /// `mbarrier.test_wait` / `try_wait` (`parity`: the operand is a phase parity, else a
    /// state token).
    Wait {
        /// `.parity`.
        parity: bool,
    },
    /// `mbarrier.inval [a]`.
    Inval,
    /// `cp.async.mbarrier.arrive{.noinc} [a]`: the arrive-on of the thread's earlier
    /// `cp.async` copies (complete at issue here); without `.noinc` the pending count is first
    /// raised by one, so that the arrival does not count against the expected arrivals.
    CpAsyncArrive {
        /// `.noinc`.
        noinc: bool,
    },
}

/// A decoded mbarrier instruction.
#[derive(Clone, Debug)]
pub struct MbarOp {
    /// What it does.
    pub kind: Kind,
    /// The object's memory (shared or generic).
    pub mem: Mem,
    /// The object's address.
    pub addr: Addr,
    /// The register result (`arrive`'s state token), if any.
    pub d: Option<Slot>,
    /// The predicate result (`test_wait`/`try_wait`), if any.
    pub p: Option<Pred>,
    /// The operand: a count, a transaction count, a state token or a parity (a constant 1
    /// where the instruction has none).
    pub b: Slot,
}

/// A decoded `cp.async.bulk` (not `.tensor`): `size` bytes from `src` to `dst`, then, for
/// copies into shared memory, `complete_tx(size)` on the mbarrier at `mbar`.
#[derive(Clone, Debug)]
pub struct BulkCopy {
    /// The destination's memory and address.
    pub dst: (Mem, Addr),
    /// The source's memory and address.
    pub src: (Mem, Addr),
    /// The byte count (a multiple of 16).
    pub size: Slot,
    /// The mbarrier completing the copy's transactions, if any.
    pub mbar: Option<(Mem, Addr)>,
}

/// A fresh object expecting `count` arrivals per phase (phase parity 0).
pub fn init(count: u64) -> u64 {
    let c = count & FIELD;
    c | c << EXPECTED_SHIFT
}

fn pending(s: u64) -> u64 {
    s & FIELD
}
fn expected(s: u64) -> u64 {
    (s >> EXPECTED_SHIFT) & FIELD
}
fn tx(s: u64) -> u64 {
    (s >> TX_SHIFT) & FIELD
}
fn with(phase: u64, pending: u64, expected: u64, tx: u64) -> u64 {
    (phase & PHASE)
        | (pending & FIELD)
        | (expected & FIELD) << EXPECTED_SHIFT
        | (tx & FIELD) << TX_SHIFT
}

/// Completes the phase if nothing is pending any more.
fn settle(s: u64) -> u64 {
    if pending(s) == 0 && tx(s) == 0 {
        with((s & PHASE) ^ PHASE, expected(s), expected(s), 0)
    } else {
        s
    }
}

/// `count` arrivals (`drop`: leaving the barrier, lowering the expected count too): the new
/// object and the state token (the arrived-on phase's parity).
pub fn arrive(s: u64, count: u64, drop: bool) -> (u64, u64) {
    let token = s & PHASE;
    let exp = if drop {
        expected(s).wrapping_sub(count)
    } else {
        expected(s)
    };
    let n = with(s, pending(s).wrapping_sub(count), exp, tx(s));
    (settle(n), token)
}

/// Raises the pending transaction count by `bytes`.
pub fn expect_tx(s: u64, bytes: u64) -> u64 {
    with(s, pending(s), expected(s), tx(s).wrapping_add(bytes))
}

/// Lowers the pending transaction count by `bytes` (possibly completing the phase).
pub fn complete_tx(s: u64, bytes: u64) -> u64 {
    settle(with(s, pending(s), expected(s), tx(s).wrapping_sub(bytes)))
}

/// Raises the pending arrivals by one (`cp.async.mbarrier.arrive` without `.noinc`).
pub fn increment(s: u64) -> u64 {
    with(s, pending(s).wrapping_add(1), expected(s), tx(s))
}

/// Whether the phase of `token` (`parity`: of parity `token & 1`) has completed.
pub fn done(s: u64, token: u64, parity: bool) -> bool {
    let waited = if parity {
        if token & 1 != 0 { PHASE } else { 0 }
    } else {
        token & PHASE
    };
    s & PHASE != waited
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_complete_on_arrivals_and_transactions() {
        let s = init(2);
        let (s, t0) = arrive(s, 1, false);
        assert!(!done(s, t0, false));
        assert!(!done(s, 0, true));
        let s = expect_tx(s, 64);
        let (s, t1) = arrive(s, 1, false);
        assert_eq!(t0, t1);
        // Both arrived, 64 bytes still owed.
        assert!(!done(s, t1, false));
        let s = complete_tx(s, 48);
        assert!(!done(s, t1, false));
        let s = complete_tx(s, 16);
        assert!(done(s, t1, false));
        assert!(done(s, 0, true));
        assert!(!done(s, 1, true));
        // The next phase expects two arrivals again; a drop lowers that to one.
        let (s, t2) = arrive(s, 1, true);
        assert_ne!(t2, t1);
        assert!(!done(s, t2, false));
        let (s, _) = arrive(s, 1, false);
        assert!(done(s, t2, false));
        let (s, t3) = arrive(s, 1, false);
        assert!(
            done(s, t3, false),
            "one arrival completes a phase after the drop"
        );
        // complete_tx before expect_tx: the count goes below zero and back.
        let s = complete_tx(init(1), 32);
        let s = expect_tx(s, 32);
        let (s, t) = arrive(s, 1, false);
        assert!(done(s, t, false));
    }
}
