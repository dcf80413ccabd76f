//! Decoding of the warp-level matrix instructions (`mma`, `wmma`, `ldmatrix`, `stmatrix`) into
//! [`crate::tensor::TensorOp`]; what they compute is in [`crate::tensor`].

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::{FnDecoder, R, unsupported};
use crate::error::Reason;
use crate::module::{Instruction, Operand};
use crate::ops::{Op, Slot};
use crate::tensor::{Frag, Matrix8, Mma, Shape, TensorOp, Ty, WShape, WmmaMem, WmmaMma};

/// `.m16n8k16` → (16, 8, 16).
fn shape_of(mods: &[&str]) -> Option<WShape> {
    mods.iter().find_map(|m| {
        let s = m.strip_prefix(".m")?;
        let (m_, rest) = s.split_once('n')?;
        let (n, k) = rest.split_once('k')?;
        Some((m_.parse().ok()?, n.parse().ok()?, k.parse().ok()?))
    })
}

/// The element types among `mods`, in order.
fn types(mods: &[&str]) -> Vec<Ty> {
    mods.iter().filter_map(|m| Ty::of(m)).collect()
}

impl FnDecoder<'_, '_> {
    /// The registers of a vector operand `{%r1, %r2, …}` (a lone register: one).
    fn regs(&mut self, op: &Operand, dst: bool) -> R<Vec<Slot>> {
        let ops: Vec<&Operand> = match op {
            Operand::Vector(v) => v.iter().collect(),
            other => alloc::vec![other],
        };
        ops.into_iter()
            .map(|o| if dst { self.dst(o) } else { self.src(o, 0) })
            .collect()
    }

    /// Decodes `mma`, `wmma`, `ldmatrix` or `stmatrix` (`base`) with modifiers `mods`.
    pub(super) fn tensor(&mut self, inst: &Instruction, base: &str, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let t = match base {
            "mma" => {
                if !mods.contains(&".sync") {
                    return unsupported("mma without .sync");
                }
                if mods.iter().any(|m| {
                    m.starts_with(".sp") || m.starts_with(".kind") || m.starts_with(".block_scale")
                }) {
                    return unsupported("sparse or block-scaled mma");
                }
                let (m, n, k) = shape_of(mods).ok_or(Reason::Syntax("mma's shape"))?;
                let ty = types(mods);
                // `.dtype.atype.btype.ctype`; f16's `.dtype.f16.f16.ctype` too.
                let [d, a, b, c] = ty[..] else {
                    return unsupported("mma type combination");
                };
                let shape = Shape {
                    m,
                    n,
                    k,
                    ab: (a, b),
                    c,
                    d,
                };
                if !crate::tensor::mma_supported(&shape) || mods.contains(&".m8n8k4") {
                    return unsupported(
                        "mma shape or types (m16n8k16/k8 f16 bf16, m16n8k8/k4 tf32, m16n8k32/k16 s8 u8 run)",
                    );
                }
                if mods.contains(&".col") && !mods.contains(&".row") {
                    return unsupported("mma layout");
                }
                let op = Mma {
                    shape,
                    satfinite: mods.contains(&".satfinite"),
                    d: self.regs(o(0)?, true)?,
                    a: self.regs(o(1)?, false)?,
                    b: self.regs(o(2)?, false)?,
                    c: self.regs(o(3)?, false)?,
                };
                if !op.counts_ok() {
                    return Err(Reason::Syntax("mma's register counts"));
                }
                TensorOp::Mma(op)
            }
            "ldmatrix" | "stmatrix" => {
                let store = base == "stmatrix";
                if !mods.contains(&".m8n8") || !mods.contains(&".b16") {
                    return unsupported("ldmatrix/stmatrix shape other than .m8n8.b16");
                }
                let num = if mods.contains(&".x4") {
                    4
                } else if mods.contains(&".x2") {
                    2
                } else if mods.contains(&".x1") {
                    1
                } else {
                    return Err(Reason::Syntax("ldmatrix's .num"));
                };
                let (mut mem, _) = Self::mem_of(mods);
                let (aop, rop) = if store {
                    (o(0)?, o(1)?)
                } else {
                    (o(1)?, o(0)?)
                };
                let (addr, fixed) = self.addr(aop)?;
                if let Some(f) = fixed {
                    mem = f;
                }
                let regs = self.regs(rop, !store)?;
                if regs.len() != num {
                    return Err(Reason::Syntax("ldmatrix's register count"));
                }
                TensorOp::Matrix8(
                    Matrix8 {
                        store,
                        num,
                        trans: mods.contains(&".trans"),
                        regs,
                    },
                    mem,
                    addr,
                )
            }
            "wmma" => {
                let shape = shape_of(mods).ok_or(Reason::Syntax("wmma's shape"))?;
                let ty = types(mods);
                if mods.contains(&".mma") {
                    // `.dtype.ctype` (f16 inputs) or `.dtype.atype.btype.ctype`.
                    let (d, ab, c) = match ty[..] {
                        [d, c] => (d, Ty::F16, c),
                        [d, a, b, c] if a == b => (d, a, c),
                        _ => return unsupported("wmma.mma types"),
                    };
                    let types_ok = match ab {
                        Ty::F16 => matches!(c, Ty::F16 | Ty::F32) && matches!(d, Ty::F16 | Ty::F32),
                        Ty::Bf16 | Ty::Tf32 => (c, d) == (Ty::F32, Ty::F32),
                        Ty::S8 | Ty::U8 => (c, d) == (Ty::S32, Ty::S32),
                        Ty::F64 => (c, d) == (Ty::F64, Ty::F64),
                        _ => false,
                    };
                    if !crate::tensor::wmma_supported(shape, ab) || !types_ok {
                        return unsupported(
                            "wmma.mma shape or types (f16, bf16, s8, u8 at m16n16k16, m32n8k16, m8n32k16; tf32 m16n16k8; f64 m8n8k4 run)",
                        );
                    }
                    TensorOp::WmmaMma(WmmaMma {
                        satfinite: mods.contains(&".satfinite"),
                        shape,
                        ab,
                        c,
                        d,
                        dr: self.regs(o(0)?, true)?,
                        a: self.regs(o(1)?, false)?,
                        b: self.regs(o(2)?, false)?,
                        cr: self.regs(o(3)?, false)?,
                    })
                } else {
                    let store = mods.contains(&".store");
                    if !store && !mods.contains(&".load") {
                        return unsupported("wmma operation");
                    }
                    let frag = if mods.contains(&".a") {
                        Frag::A
                    } else if mods.contains(&".b") {
                        Frag::B
                    } else if mods.contains(&".c") || mods.contains(&".d") {
                        Frag::C
                    } else {
                        return Err(Reason::Syntax("wmma's fragment"));
                    };
                    let [ty] = ty[..] else {
                        return unsupported("wmma.load/store type");
                    };
                    let frag_ok = match frag {
                        Frag::C => matches!(ty, Ty::F16 | Ty::F32 | Ty::S32 | Ty::F64),
                        _ => !matches!(ty, Ty::F32 | Ty::S32),
                    };
                    if !crate::tensor::wmma_supported(shape, ty) || !frag_ok {
                        return unsupported("wmma.load/store shape or type");
                    }
                    let (mut mem, _) = Self::mem_of(mods);
                    let (aop, rop) = if store {
                        (o(0)?, o(1)?)
                    } else {
                        (o(1)?, o(0)?)
                    };
                    let (addr, fixed) = self.addr(aop)?;
                    if let Some(f) = fixed {
                        mem = f;
                    }
                    let regs = self.regs(rop, !store)?;
                    let stride = match inst.operands.get(2) {
                        Some(s) => Some(self.src(s, 0)?),
                        None => None,
                    };
                    TensorOp::WmmaMem(
                        WmmaMem {
                            store,
                            frag,
                            shape,
                            col: mods.contains(&".col"),
                            ty,
                            regs,
                            stride,
                        },
                        mem,
                        addr,
                    )
                }
            }
            _ => return unsupported("instruction"),
        };
        Ok(Op::Tensor(Box::new(t)))
    }
}
