//! ELF, read and never written: the identification of a candidate file (class and machine,
//! checked before `dlopen` so that the debug log says precisely why a file is skipped: dlopen's
//! own message for these cases varies between glibc versions), and, for objects the process
//! has already loaded, their segments and the `DT_SONAME` of their dynamic section in memory.

// The process's own class and machine: what a candidate file must be to load into it (these
// cfgs are the target's word size and architecture, which is what ELF records).
#[cfg(target_pointer_width = "64")]
pub(crate) const OUR_CLASS: u8 = 2; // ELFCLASS64
#[cfg(target_pointer_width = "32")]
pub(crate) const OUR_CLASS: u8 = 1; // ELFCLASS32

#[cfg(target_arch = "x86_64")]
pub(crate) const OUR_MACHINE: u16 = 62; // EM_X86_64
#[cfg(target_arch = "aarch64")]
pub(crate) const OUR_MACHINE: u16 = 183; // EM_AARCH64
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) const OUR_MACHINE: u16 = 0;

/// The ELF class and machine of this process (`EI_CLASS`, `e_machine`), for the messages of a
/// file rejected as another's.
pub(crate) const OWN_ELF: Option<(u8, u16)> = Some((OUR_CLASS, OUR_MACHINE));

/// Bytes of a file's start that [`identify`] reads: `e_ident`, `e_type` and `e_machine`.
pub(crate) const HEAD_LEN: usize = 20;

/// What a file's first bytes say about loading it into this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ident {
    /// No bytes at all.
    Empty,
    /// Shorter than an ELF header's start, or without the ELF magic.
    NotElf,
    /// `EI_CLASS` of another word size.
    WrongClass(u8),
    /// `e_machine` of another architecture.
    WrongMachine(u16),
    /// An ELF file of this process's class and machine.
    Ours,
}

/// Identifies a file from its first bytes, `head` (what could be read of [`HEAD_LEN`]).
pub(crate) fn identify(head: &[u8]) -> Ident {
    if head.is_empty() {
        return Ident::Empty;
    }
    let Some(head) = head.get(..HEAD_LEN) else {
        return Ident::NotElf;
    };
    if head.get(..4) != Some(b"\x7fELF") {
        return Ident::NotElf;
    }
    let (class, data) = (head[4], head[5]);
    if class != OUR_CLASS {
        return Ident::WrongClass(class);
    }
    let bytes = [head[18], head[19]];
    let machine = if data == 2 {
        u16::from_be_bytes(bytes)
    } else {
        u16::from_le_bytes(bytes)
    };
    if OUR_MACHINE != 0 && machine != OUR_MACHINE {
        return Ident::WrongMachine(machine);
    }
    Ident::Ours
}

/// `ElfW(Phdr)`, as `dl_iterate_phdr` gives it.
#[cfg(target_pointer_width = "64")]
type Phdr = libc::Elf64_Phdr;
/// `ElfW(Phdr)`, as `dl_iterate_phdr` gives it.
#[cfg(target_pointer_width = "32")]
type Phdr = libc::Elf32_Phdr;

/// The program headers of a loaded object.
///
/// # Safety
/// `info` describes an object mapped in this process (as `dl_iterate_phdr` gives it).
unsafe fn program_headers(info: &libc::dl_phdr_info) -> &[Phdr] {
    if info.dlpi_phdr.is_null() {
        return &[];
    }
    // SAFETY: the loader's program headers of a mapped object, `dlpi_phnum` of them.
    unsafe { core::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) }
}

/// Whether `[addr, addr + len)` lies in one of the object's `PT_LOAD` segments (mapped and
/// readable).
fn in_load_segment(info: &libc::dl_phdr_info, phdrs: &[Phdr], addr: usize, len: usize) -> bool {
    let base = info.dlpi_addr as usize;
    phdrs.iter().any(|p| {
        let start = base.wrapping_add(p.p_vaddr as usize);
        p.p_type == libc::PT_LOAD
            && addr >= start
            && addr
                .checked_add(len)
                .is_some_and(|end| end <= start.wrapping_add(p.p_memsz as usize))
    })
}

/// Whether the loaded object maps `addr`: how a stub recognises its own file among the loaded
/// objects without `dladdr`, which scans the object's whole symbol table.
///
/// # Safety
/// As [`program_headers`].
pub(crate) unsafe fn maps(info: &libc::dl_phdr_info, addr: usize) -> bool {
    // SAFETY: by contract.
    in_load_segment(info, unsafe { program_headers(info) }, addr, 1)
}

/// `ElfW(Dyn)`: a tag and a value, each one machine word.
#[repr(C)]
#[derive(Clone, Copy)]
struct Dyn {
    tag: isize,
    val: usize,
}

const DT_NULL: isize = 0;
const DT_STRTAB: isize = 5;
const DT_STRSZ: isize = 10;
const DT_SONAME: isize = 14;

/// The `DT_SONAME` string of a loaded object, read from its `PT_DYNAMIC` segment and string
/// table in memory; `None` when it has none or anything lies outside its loaded segments. The
/// bytes live as long as the object stays loaded.
///
/// # Safety
/// As [`program_headers`].
pub(crate) unsafe fn loaded_soname(info: &libc::dl_phdr_info) -> Option<&[u8]> {
    // SAFETY: by contract.
    let phdrs = unsafe { program_headers(info) };
    let base = info.dlpi_addr as usize;
    let dynamic = phdrs.iter().find(|p| p.p_type == libc::PT_DYNAMIC)?;
    let count = dynamic.p_memsz as usize / core::mem::size_of::<Dyn>();
    let first = base.wrapping_add(dynamic.p_vaddr as usize);
    if !in_load_segment(info, phdrs, first, count * core::mem::size_of::<Dyn>()) {
        return None;
    }
    let (mut strtab, mut strsz, mut soname) = (None, None, None);
    for i in 0..count {
        // SAFETY: inside the PT_DYNAMIC segment, checked mapped above.
        let d = unsafe { (first as *const Dyn).add(i).read_unaligned() };
        match d.tag {
            DT_NULL => break,
            DT_STRTAB => strtab = Some(d.val),
            DT_STRSZ => strsz = Some(d.val),
            DT_SONAME => soname = Some(d.val),
            _ => continue,
        }
        if strtab.is_some() && strsz.is_some() && soname.is_some() {
            break;
        }
    }
    let (strtab, strsz, offset) = (strtab?, strsz?, soname?);
    // glibc rewrites DT_STRTAB in place to an address when it relocates the object, except where
    // the dynamic section is read-only (the vDSO, some linkers' layouts), where it stays an
    // offset from the load base: whichever of the two lies in a loaded segment is the table.
    let table = if in_load_segment(info, phdrs, strtab, strsz) {
        strtab
    } else if in_load_segment(info, phdrs, base.wrapping_add(strtab), strsz) {
        base.wrapping_add(strtab)
    } else {
        return None;
    };
    let len = strsz.checked_sub(offset)?;
    // SAFETY: inside the string table, checked mapped above; it lives as long as the object.
    let bytes = unsafe { core::slice::from_raw_parts((table + offset) as *const u8, len) };
    let end = bytes.iter().position(|b| *b == 0)?;
    bytes.get(..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(class: u8, data: u8, machine: u16) -> [u8; HEAD_LEN] {
        let mut h = [0u8; HEAD_LEN];
        h[..4].copy_from_slice(b"\x7fELF");
        h[4] = class;
        h[5] = data;
        let m = if data == 2 {
            machine.to_be_bytes()
        } else {
            machine.to_le_bytes()
        };
        h[18..20].copy_from_slice(&m);
        h
    }

    #[test]
    fn headers_are_identified() {
        assert_eq!(identify(b""), Ident::Empty);
        assert_eq!(identify(b"\x7fELF\x02"), Ident::NotElf);
        assert_eq!(identify(b"#!/bin/sh\n# a script, not ELF\n"), Ident::NotElf);
        assert_eq!(identify(&header(OUR_CLASS, 1, OUR_MACHINE)), Ident::Ours);
        assert_eq!(identify(&header(1, 1, OUR_MACHINE)), Ident::WrongClass(1));
        let other = if OUR_MACHINE == 62 { 183 } else { 62 };
        assert_eq!(
            identify(&header(OUR_CLASS, 1, other)),
            Ident::WrongMachine(other)
        );
        assert_eq!(
            identify(&header(OUR_CLASS, 2, other)),
            Ident::WrongMachine(other)
        );
    }

    /// The sonames read from memory are the real ones: libc's (relocated dynamic section) and
    /// the vDSO's (read-only dynamic section, `DT_STRTAB` left an offset), where the process has
    /// one (qemu-user gives an emulated aarch64 process none).
    #[test]
    fn loaded_sonames_are_read_from_memory() {
        use alloc::vec::Vec;
        let mut objects: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::new();
        super::super::dlopen::each_loaded_object(&mut |info| {
            // SAFETY: an object each_loaded_object passed.
            let (name, soname) =
                unsafe { (super::super::dlopen::object_name(info), loaded_soname(info)) };
            objects.push((name.to_bytes().to_vec(), soname.map(<[u8]>::to_vec)));
        });
        let object = |file: &[u8]| {
            objects
                .iter()
                .find(|(path, _)| path.rsplit(|b| *b == b'/').next() == Some(file))
                .map(|(_, soname)| soname.as_deref())
        };
        assert_eq!(object(b"libc.so.6"), Some(Some(&b"libc.so.6"[..])));
        if let Some(vdso) = object(b"linux-vdso.so.1") {
            assert_eq!(vdso, Some(&b"linux-vdso.so.1"[..]));
        }
    }
}
