//! 128-bit registers (`.reg .b128`, PTX ISA 8.3): each is two consecutive slots, low half
//! first. `ld`/`st` of `.b128` move both halves (one 16-byte access, 16-aligned), `mov.b128`
//! packs, unpacks or copies them; any other instruction naming a 128-bit register is refused
//! (`src`/`dst` refuse them), so that no instruction reads half of one silently.

use super::{FnDecoder, Name, R, unsupported};
use crate::error::Reason;
use crate::module::{Instruction, Operand};
use crate::ops::{Addr, Mem, Op, Slot};

impl FnDecoder<'_, '_> {
    /// The two slots of 128-bit register operand `op`.
    fn wide(&self, op: &Operand) -> R<[Slot; 2]> {
        match op {
            Operand::Name(n) => match self.lookup(n) {
                Some(Name::Reg { slot, bits: 128 }) => Ok([*slot, *slot + 1]),
                Some(_) => unsupported("a .b128 operand that is no 128-bit register"),
                None => Err(Reason::Undefined(n.clone())),
            },
            _ => unsupported("a .b128 operand form"),
        }
    }

    /// `ld.b128 %rq, [a]`: both halves in one 16-byte access.
    pub(super) fn ld_b128(&mut self, inst: &Instruction, mem: Mem, addr: Addr) -> R<Op> {
        let [lo, hi] = self.wide(Self::operand(inst, 0)?)?;
        Ok(Op::Ld {
            mem,
            width: 8,
            n: 2,
            sext: false,
            dmask: u64::MAX,
            d: [lo, hi, 0, 0],
            addr,
        })
    }

    /// `st.b128 [a], %rq`.
    pub(super) fn st_b128(&mut self, inst: &Instruction, mem: Mem, addr: Addr) -> R<Op> {
        let [lo, hi] = self.wide(Self::operand(inst, 1)?)?;
        Ok(Op::St {
            mem,
            width: 8,
            n: 2,
            s: [lo, hi, 0, 0],
            addr,
        })
    }

    /// `mov.b128`: `%rq, {lo, hi}` (pack), `{lo, hi}, %rq` (unpack) or `%rq, %rq2` (copy).
    pub(super) fn mov_b128(&mut self, inst: &Instruction) -> R<Op> {
        let (d, s) = match (Self::operand(inst, 0)?, Self::operand(inst, 1)?) {
            (dst, Operand::Vector(v)) => {
                let [Some(lo), Some(hi)] = [v.first(), v.get(1)] else {
                    return Err(Reason::Syntax("mov.b128's two halves"));
                };
                (self.wide(dst)?, [self.src(lo, 0)?, self.src(hi, 0)?])
            }
            (Operand::Vector(v), src) => {
                let [Some(lo), Some(hi)] = [v.first(), v.get(1)] else {
                    return Err(Reason::Syntax("mov.b128's two halves"));
                };
                ([self.dst(lo)?, self.dst(hi)?], self.wide(src)?)
            }
            (dst, src) => (self.wide(dst)?, self.wide(src)?),
        };
        Ok(Op::Mov2 { d, s })
    }
}
