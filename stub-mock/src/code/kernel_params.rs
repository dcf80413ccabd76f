//! The sizes of a kernel's parameters, in order, as its device code declares them: what a
//! capture copies of a launch's arguments (each `kernelParams[i]` points at one argument of
//! that size), so that a graph's replay gives a registered host function the arguments the
//! launch had.
//!
//! - A CUBIN: the kernel's `.nv.info.<kernel>` section, a run of attribute records (a format
//!   byte, an attribute byte, then for format 4, `EIFMT_SVAL`, a `u16` size and that many bytes;
//!   the other formats 2 more bytes), its `EIATTR_KPARAM_INFO` (0x17) records each holding the
//!   parameter's ordinal (`u16` at 4) and its size in bits 18-31 of the `u32` at 8. Read off
//!   nvcc 13.5's CUBINs (`fill(int, float *, double)`: 4, 8, 8; a 12-byte struct by value: 12);
//!   not in a public header.
//! - PTX: the `.entry`'s `.param` list: a scalar's type (`.u32`: 4 bytes), times an array's
//!   count (`.param .align 4 .b8 p[12]`: 12).
//!
//! `None` when the code does not say (the capture then keeps no arguments).

use alloc::vec::Vec;

/// `EIATTR_KPARAM_INFO`.
const KPARAM_INFO: u8 = 0x17;
/// `EIFMT_SVAL`: a record with a sized value.
const SVAL: u8 = 4;

/// The parameter sizes of `kernel` in the ELF file `cubin`.
pub fn from_cubin(cubin: &[u8], kernel: &str) -> Option<Vec<usize>> {
    use object::read::elf::ElfFile64;
    use object::{Object, ObjectSection};
    let file = ElfFile64::<object::Endianness>::parse(cubin).ok()?;
    let name = alloc::format!(".nv.info.{kernel}");
    let info = file.section_by_name(&name)?.data().ok()?;
    let mut params: Vec<(u16, usize)> = Vec::new();
    let mut at = 0;
    while at + 4 <= info.len() {
        let (format, attribute) = (info[at], info[at + 1]);
        if format != SVAL {
            at += 4;
            continue;
        }
        let size = usize::from(u16::from_le_bytes([info[at + 2], info[at + 3]]));
        let value = info.get(at + 4..at + 4 + size)?;
        if attribute == KPARAM_INFO && size >= 12 {
            let ordinal = u16::from_le_bytes([value[4], value[5]]);
            let bits = u32::from_le_bytes([value[8], value[9], value[10], value[11]]);
            params.push((ordinal, ((bits >> 18) & 0x3fff) as usize));
        }
        at += 4 + size;
    }
    params.sort_unstable();
    // Ordinals 0, 1, 2, …: one record each.
    params
        .iter()
        .enumerate()
        .all(|(i, &(o, _))| usize::from(o) == i)
        .then(|| params.into_iter().map(|(_, s)| s).collect())
}

/// The bytes of one PTX scalar type (`.u32`, `.f64`, `.b8`, …).
fn scalar_size(ty: &str) -> Option<usize> {
    let bits: usize = ty.get(2..)?.parse().ok()?;
    match ty.as_bytes().get(1)? {
        b'u' | b's' | b'b' | b'f' if bits % 8 == 0 && bits > 0 => Some(bits / 8),
        _ => None,
    }
}

/// The parameter sizes of the `.entry` `kernel` in the PTX `text`.
pub fn from_ptx(text: &str, kernel: &str) -> Option<Vec<usize>> {
    let entry = text.split(".entry").skip(1).find(|s| {
        s.trim_start()
            .strip_prefix(kernel)
            .is_some_and(|r| r.trim_start().starts_with('('))
    })?;
    let list = entry.split_once('(')?.1.split_once(')')?.0;
    let mut sizes = Vec::new();
    for param in list.split(',').filter(|p| !p.trim().is_empty()) {
        let words: Vec<&str> = param.split_whitespace().collect();
        // `.param [.align N] [.ptr .global .align N] .TYPE NAME[COUNT]`: the first scalar type.
        let ty = words.iter().find_map(|w| scalar_size(w))?;
        let name = words.last()?;
        let count = match name.split_once('[') {
            Some((_, n)) => n.trim_end_matches(']').parse::<usize>().ok()?,
            None => 1,
        };
        sizes.push(ty * count);
    }
    Some(sizes)
}
