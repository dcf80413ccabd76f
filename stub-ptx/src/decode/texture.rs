//! Decoding of the texture and surface instructions (`tex`, `tld4`, `txq`, `suld.b`, `sust.b`,
//! `suq`) into [`crate::texture::TexOp`].

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use super::{FnDecoder, R, unsupported};
use crate::error::Reason;
use crate::module::{Instruction, Operand};
use crate::ops::{Op, Slot};
use crate::texture::{Dty, Geom, Kind, Oob, Query, TexOp};

fn query_of(mods: &[&str]) -> Option<Query> {
    mods.iter().find_map(|m| {
        Some(match *m {
            ".width" => Query::Extent(0),
            ".height" => Query::Extent(1),
            ".depth" => Query::Extent(2),
            ".array_size" => Query::Layers,
            ".num_mipmap_levels" => Query::Levels,
            ".normalized_coords" => Query::NormalizedCoords,
            ".filter_mode" => Query::FilterMode,
            ".addr_mode_0" => Query::AddrMode(0),
            ".addr_mode_1" => Query::AddrMode(1),
            ".addr_mode_2" => Query::AddrMode(2),
            _ => return None,
        })
    })
}

fn width_of(mods: &[&str]) -> Option<u8> {
    mods.iter().find_map(|m| match *m {
        ".b8" => Some(1),
        ".b16" => Some(2),
        ".b32" => Some(4),
        ".b64" => Some(8),
        _ => None,
    })
}

fn oob_of(mods: &[&str]) -> Oob {
    if mods.contains(&".clamp") {
        Oob::Clamp
    } else if mods.contains(&".zero") {
        Oob::Zero
    } else {
        Oob::Trap
    }
}

impl FnDecoder<'_, '_> {
    /// A `[handle, {coords}]` operand: the handle's slot and the coordinates' (the first
    /// `n`; a missing or sink one reads 0).
    fn tex_operand(&mut self, op: &Operand, n: usize, float: u32) -> R<(Slot, [Slot; 4])> {
        let Operand::Texture { handle, coords } = op else {
            return unsupported("a texture operand that is no [handle, {coordinates}]");
        };
        if coords.len() < n {
            return Err(Reason::Syntax("texture coordinates"));
        }
        let h = self.src(&Operand::Name(handle.clone()), 0)?;
        let zero = self.constant(0);
        let mut c = [zero; 4];
        for (slot, o) in c.iter_mut().zip(coords.iter().take(n)) {
            if *o != Operand::Sink {
                *slot = self.src(o, float)?;
            }
        }
        Ok((h, c))
    }

    /// A vector (or one register) of data operands: destinations, or sources (`sust`).
    fn tex_data(&mut self, op: &Operand, dst: bool, n: usize) -> R<[Slot; 4]> {
        let ops: Vec<&Operand> = match op {
            Operand::Vector(v) => v.iter().collect(),
            one => vec![one],
        };
        if ops.len() != n {
            return Err(Reason::Syntax("vector size"));
        }
        let mut d = [0; 4];
        for (slot, o) in d.iter_mut().zip(ops) {
            *slot = if dst { self.dst(o)? } else { self.src(o, 0)? };
        }
        Ok(d)
    }

    /// Decodes `tex`, `tld4`, `txq`, `suld`, `sust`, `suq`.
    pub(super) fn texture(&mut self, inst: &Instruction, base: &str, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let geom = mods.iter().find_map(|m| Geom::of(m));
        let zero = self.constant(0);
        let op = match base {
            "txq" | "suq" => {
                if mods.contains(&".level") {
                    return unsupported("txq.level");
                }
                let q = query_of(mods).ok_or(Reason::Unsupported("this txq/suq attribute"))?;
                let d = self.dst(o(0)?)?;
                let Operand::Address {
                    base: Some(h),
                    offset: 0,
                } = o(1)?
                else {
                    return unsupported("a txq/suq operand that is no [handle]");
                };
                let h = self.src(&Operand::Name(h.clone()), 0)?;
                TexOp {
                    kind: Kind::Query(q),
                    geom: Geom::D1,
                    handle: h,
                    coords: [zero; 4],
                    int_coords: true,
                    dty: Dty::U32,
                    data: [d, zero, zero, zero],
                    n: 1,
                }
            }
            "tex" | "tld4" => {
                let geom = geom.ok_or(Reason::Unsupported("this texture geometry"))?;
                if mods.contains(&".grad") {
                    return unsupported("tex.grad");
                }
                let types: Vec<&str> = mods
                    .iter()
                    .copied()
                    .filter(|m| matches!(*m, ".f32" | ".s32" | ".u32" | ".f16" | ".f16x2"))
                    .collect();
                let dty = match types.first().copied() {
                    Some(".f32") => Dty::F32,
                    Some(".s32") => Dty::S32,
                    Some(".u32") => Dty::U32,
                    _ => return unsupported("this texture result type"),
                };
                let int_coords = match types.get(1).copied() {
                    Some(".f32") => false,
                    Some(".s32") => true,
                    _ => return unsupported("this texture coordinate type"),
                };
                if !mods.contains(&".v4") {
                    return unsupported("a texture result that is no .v4");
                }
                let kind = if base == "tld4" {
                    let comp = match mods.first().copied() {
                        Some(".r") => 0,
                        Some(".g") => 1,
                        Some(".b") => 2,
                        Some(".a") => 3,
                        _ => return unsupported("this tld4 component"),
                    };
                    if geom != Geom::D2 {
                        return unsupported("tld4 other than .2d");
                    }
                    Kind::Tld4(comp)
                } else if mods.contains(&".level") {
                    Kind::Tex {
                        lod: Some(self.src(o(2)?, 32)?),
                    }
                } else {
                    if inst.operands.len() > 2 {
                        return unsupported("tex with an offset, a depth compare or a predicate");
                    }
                    Kind::Tex { lod: None }
                };
                let data = self.tex_data(o(0)?, true, 4)?;
                let (h, coords) =
                    self.tex_operand(o(1)?, geom.coords(), if int_coords { 0 } else { 32 })?;
                TexOp {
                    kind,
                    geom,
                    handle: h,
                    coords,
                    int_coords,
                    dty,
                    data,
                    n: 4,
                }
            }
            "suld" | "sust" => {
                let geom = geom.ok_or(Reason::Unsupported("this surface geometry"))?;
                if !mods.contains(&".b") || matches!(geom, Geom::Cube | Geom::ACube) {
                    return unsupported("suld/sust other than .b on 1d, 2d, 3d, a1d, a2d");
                }
                let width = width_of(mods).ok_or(Reason::Unsupported("this surface width"))?;
                let n = match super::FnDecoder::vec_n(mods) {
                    4 if width == 8 => return unsupported("a .v4 of .b64"),
                    n => n,
                };
                let oob = oob_of(mods);
                let (data, t) = if base == "suld" {
                    (self.tex_data(o(0)?, true, usize::from(n))?, o(1)?)
                } else {
                    (self.tex_data(o(1)?, false, usize::from(n))?, o(0)?)
                };
                let (h, coords) = self.tex_operand(t, geom.coords(), 0)?;
                TexOp {
                    kind: if base == "suld" {
                        Kind::Suld { width, oob }
                    } else {
                        Kind::Sust { width, oob }
                    },
                    geom,
                    handle: h,
                    coords,
                    int_coords: true,
                    dty: Dty::U32,
                    data,
                    n,
                }
            }
            _ => return unsupported("this texture or surface instruction"),
        };
        Ok(Op::Tex(Box::new(op)))
    }
}
