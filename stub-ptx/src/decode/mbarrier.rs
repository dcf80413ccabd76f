//! Decoding of `mbarrier.*`, `cp.async.mbarrier.arrive` and `cp.async.bulk` into
//! [`crate::mbarrier`]'s forms.

use alloc::boxed::Box;

use super::{FnDecoder, R, unsupported};
use crate::error::Reason;
use crate::mbarrier::{BulkCopy, Kind, MbarOp};
use crate::module::{Instruction, Operand};
use crate::ops::{Addr, Mem, Op};

/// The memory a state-space modifier names; a `.shared::cluster` address reaches the
/// cluster's blocks' shared memories (a remote `mbarrier.arrive`, a bulk copy into a peer's
/// memory: [`crate::cluster`]).
fn space(m: &str) -> Option<Mem> {
    match m {
        ".shared" | ".shared::cta" | ".shared::cluster" => Some(Mem::Shared),
        ".global" => Some(Mem::Global),
        _ => None,
    }
}

impl FnDecoder<'_, '_> {
    /// An address operand and its memory (a named variable's, else `mem`).
    fn mem_addr(&mut self, op: &Operand, mem: Mem) -> R<(Mem, Addr)> {
        let (addr, fixed) = self.addr(op)?;
        Ok((fixed.unwrap_or(mem), addr))
    }

    /// Decodes `mbarrier.*` and `cp.async.mbarrier.arrive`.
    pub(super) fn mbarrier(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let mem = mods.iter().find_map(|m| space(m)).unwrap_or(Mem::Generic);
        let has = |m: &str| mods.contains(&m);
        let one = self.constant(1);
        let (kind, d, p, ai, b) = if has(".async") {
            // cp.async.mbarrier.arrive{.noinc}.shared.b64 [a]
            (
                Kind::CpAsyncArrive {
                    noinc: has(".noinc"),
                },
                None,
                None,
                0,
                one,
            )
        } else if has(".init") {
            let b = self.src(o(1)?, 0)?;
            (Kind::Init, None, None, 0, b)
        } else if has(".arrive") || has(".arrive_drop") {
            if has(".noComplete") {
                return unsupported("mbarrier.arrive.noComplete");
            }
            let d = self.dst(o(0)?)?;
            let b = match inst.operands.get(2) {
                Some(c) => self.src(c, 0)?,
                None => one,
            };
            let kind = Kind::Arrive {
                expect_tx: has(".expect_tx"),
                drop: has(".arrive_drop"),
            };
            (kind, Some(d), None, 1, b)
        } else if has(".expect_tx") || has(".complete_tx") {
            let b = self.src(o(1)?, 0)?;
            let kind = if has(".expect_tx") {
                Kind::ExpectTx
            } else {
                Kind::CompleteTx
            };
            (kind, None, None, 0, b)
        } else if has(".test_wait") || has(".try_wait") {
            let (p, _) = self.pred(o(0)?)?;
            let b = self.src(o(2)?, 0)?;
            (
                Kind::Wait {
                    parity: has(".parity"),
                },
                None,
                Some(p),
                1,
                b,
            )
        } else if has(".inval") {
            (Kind::Inval, None, None, 0, one)
        } else {
            return unsupported(
                "mbarrier operation (pending_count and the cluster forms are not run)",
            );
        };
        let (mem, addr) = self.mem_addr(o(ai)?, mem)?;
        Ok(Op::Mbar(Box::new(MbarOp {
            kind,
            mem,
            addr,
            d,
            p,
            b,
        })))
    }

    /// Decodes `cp.async.bulk.*` (not `.tensor`): the copies, their groups' commits and waits
    /// (no-ops: copies complete at issue) and prefetches (no-ops).
    pub(super) fn bulk(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let has = |m: &str| mods.contains(&m);
        if has(".tensor")
            || mods
                .iter()
                .any(|m| m.starts_with(".multicast") || m.starts_with(".cp_mask"))
        {
            return unsupported(
                "cp.async.bulk.tensor, .multicast or .cp_mask (tensor maps and clusters)",
            );
        }
        if has(".commit_group") || has(".wait_group") || has(".prefetch") {
            return Ok(Op::Nop);
        }
        // cp.async.bulk.DST.SRC.completion …: the spaces are the third and fourth modifiers.
        let (Some(dm), Some(sm)) = (
            mods.get(2).and_then(|m| space(m)),
            mods.get(3).and_then(|m| space(m)),
        ) else {
            return Err(Reason::Syntax("cp.async.bulk's state spaces"));
        };
        let dst = self.mem_addr(o(0)?, dm)?;
        let src = self.mem_addr(o(1)?, sm)?;
        let size = self.src(o(2)?, 0)?;
        let mbar = if mods.iter().any(|m| m.starts_with(".mbarrier")) {
            Some(self.mem_addr(o(3)?, Mem::Shared)?)
        } else {
            None
        };
        Ok(Op::Bulk(Box::new(BulkCopy {
            dst,
            src,
            size,
            mbar,
        })))
    }
}
