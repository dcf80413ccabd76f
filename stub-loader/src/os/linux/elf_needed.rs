//! The `DT_NEEDED` entries of an ELF file on disk, read before `dlopen`: what loading it would
//! pull into the process (a 13.x `libcurand.so.10` needs `libcudart.so.13`). Reads the ELF
//! header, the program headers, the `PT_DYNAMIC` segment and only the needed strings, with
//! `pread` (a CUDA library is hundreds of MiB; nothing else of it is read).
//!
//! Also one section's text ([`built_for`]): the CUDA release a library linking the runtime
//! statically was built for, which only its version string says (NCCL's `+cuda13.4`).
//!
//! 64-bit little-endian ELF only, the class and byte order of every target the stubs build for
//! (x86-64, aarch64); anything else, or anything malformed, gives `None`.

use alloc::vec::Vec;
use core::ffi::CStr;

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const DT_NULL: u64 = 0;
const DT_NEEDED: u64 = 1;
const DT_STRTAB: u64 = 5;
/// Bounds that no real library comes near, so a corrupt file cannot make the read large.
const MAX_PHDRS: usize = 256;
const MAX_DYNAMIC: usize = 64 * 1024;
const MAX_NAME: usize = 256;

/// Section headers and section names beyond these are not read (NCCL 2.32 has 40 sections).
const MAX_SECTIONS: usize = 1024;
const MAX_SHSTRTAB: u64 = 64 * 1024;
/// `.rodata` beyond this is not read: NCCL 2.32's is 864 KiB, and the whole library 470 MiB.
const MAX_RODATA: u64 = 16 * 1024 * 1024;

/// The CUDA `(major, minor)` that follows the first `marker` in `path`'s `.rodata`: NVIDIA's
/// NCCL builds carry `NCCL version 2.32.3+cuda13.4` (NCCL's `VERSION_STRING`, marker `+cuda`),
/// the one place a library that links the runtime statically and has the same version in every
/// CUDA major's build says which one it is. `None` when the file has no such string (or cannot
/// be read). Reads the section headers and `.rodata` only, with `pread`.
pub(crate) fn built_for(path: &CStr, marker: &[u8]) -> Option<(u32, u32)> {
    crate::build_string::release_after(&File::open(path)?.section(b".rodata")?, marker)
}

/// The `DT_NEEDED` names of `path`, in order; `None` when the file cannot be read or is not a
/// 64-bit little-endian ELF object with a dynamic section.
pub(crate) fn needed(path: &CStr) -> Option<Vec<Vec<u8>>> {
    let file = File::open(path)?;
    file.needed()
}

/// The whole of `path` when it is at most `limit` bytes long, `None` when it cannot be read or is
/// longer: a device-code file `cuModuleLoad` is given (PTX, a fat binary), read to see whether
/// the driver can take it.
pub(crate) fn read_file(path: &CStr, limit: usize) -> Option<Vec<u8>> {
    let file = File::open(path)?;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        // SAFETY: `chunk` is writable for its length.
        let n = unsafe { libc::read(file.0, chunk.as_mut_ptr().cast(), chunk.len()) };
        match n {
            0 => return Some(bytes),
            n if n > 0 => {
                bytes.extend_from_slice(chunk.get(..n.unsigned_abs())?);
                if bytes.len() > limit {
                    return None;
                }
            }
            _ if super::io::errno() == libc::EINTR => {}
            _ => return None,
        }
    }
}

/// An open file, closed on drop.
pub(super) struct File(libc::c_int);

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: a descriptor this value opened.
        unsafe { libc::close(self.0) };
    }
}

impl File {
    pub(super) fn open(path: &CStr) -> Option<File> {
        // SAFETY: a NUL-terminated path.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
        (fd >= 0).then_some(File(fd))
    }

    /// Exactly `buf.len()` bytes at `offset`, or `None`.
    pub(super) fn read_at(&self, offset: u64, buf: &mut [u8]) -> Option<()> {
        let mut done = 0;
        while done < buf.len() {
            let rest = buf.get_mut(done..)?;
            let at = i64::try_from(offset.checked_add(u64::try_from(done).ok()?)?).ok()?;
            // SAFETY: `rest` is writable for its length.
            let n = unsafe { libc::pread(self.0, rest.as_mut_ptr().cast(), rest.len(), at) };
            match n {
                n if n > 0 => done += n.unsigned_abs(),
                -1 if super::io::errno() == libc::EINTR => {}
                _ => return None,
            }
        }
        Some(())
    }

    /// Up to [`MAX_NAME`] bytes at `offset`, cut at the first NUL (which must be there).
    fn string_at(&self, offset: u64) -> Option<Vec<u8>> {
        let mut buf = [0u8; MAX_NAME];
        // A name near the end of the file: read what is there.
        let mut len = MAX_NAME;
        while self.read_at(offset, buf.get_mut(..len)?).is_none() {
            len /= 2;
            if len == 0 {
                return None;
            }
        }
        let end = buf.get(..len)?.iter().position(|&b| b == 0)?;
        Some(buf.get(..end)?.to_vec())
    }

    fn needed(&self) -> Option<Vec<Vec<u8>>> {
        let mut ehdr = [0u8; 64];
        self.read_at(0, &mut ehdr)?;
        // ELF magic, ELFCLASS64, ELFDATA2LSB.
        if ehdr.get(..6)? != b"\x7fELF\x02\x01" {
            return None;
        }
        let phoff = u64_at(&ehdr, 0x20)?;
        let phentsize = usize::from(u16_at(&ehdr, 0x36)?);
        let phnum = usize::from(u16_at(&ehdr, 0x38)?);
        // ELF64 fixes the entry sizes: anything else is malformed (and would size the reads).
        if phentsize != 56 || phnum > MAX_PHDRS {
            return None;
        }
        let mut phdrs = alloc::vec![0u8; phentsize * phnum];
        self.read_at(phoff, &mut phdrs)?;
        // (p_type, p_offset, p_vaddr, p_filesz) of each program header.
        let segments: Vec<(u32, u64, u64, u64)> = phdrs
            .chunks_exact(phentsize)
            .filter_map(|p| Some((u32_at(p, 0)?, u64_at(p, 8)?, u64_at(p, 16)?, u64_at(p, 32)?)))
            .collect();
        let &(_, dyn_off, _, dyn_size) = segments.iter().find(|s| s.0 == PT_DYNAMIC)?;
        let mut dynamic = alloc::vec![0u8; usize::try_from(dyn_size).ok()?.min(MAX_DYNAMIC)];
        self.read_at(dyn_off, &mut dynamic)?;
        let mut strtab = None;
        let mut offsets = Vec::new();
        for entry in dynamic.chunks_exact(16) {
            let (tag, val) = (u64_at(entry, 0)?, u64_at(entry, 8)?);
            match tag {
                DT_NULL => break,
                DT_NEEDED => offsets.push(val),
                DT_STRTAB => strtab = Some(val),
                _ => {}
            }
        }
        // DT_STRTAB is an address: the file offset is where a PT_LOAD segment maps it from.
        let strtab = strtab?;
        let &(_, seg_off, seg_vaddr, _) = segments.iter().find(|&&(ty, _, vaddr, filesz)| {
            ty == PT_LOAD && strtab >= vaddr && strtab - vaddr < filesz
        })?;
        let strtab_off = seg_off.checked_add(strtab - seg_vaddr)?;
        offsets
            .into_iter()
            .map(|o| self.string_at(strtab_off.checked_add(o)?))
            .collect()
    }
}

impl File {
    /// The contents of the section named `name` (`.rodata`), if it is there and no larger than
    /// [`MAX_RODATA`].
    fn section(&self, name: &[u8]) -> Option<Vec<u8>> {
        let (offset, size) = self.section_range(name)?;
        if size > MAX_RODATA {
            return None;
        }
        let mut data = alloc::vec![0u8; usize::try_from(size).ok()?];
        self.read_at(offset, &mut data)?;
        Some(data)
    }

    /// The file offset and size of the section named `name`, if the file has one (its contents
    /// are not read).
    pub(super) fn section_range(&self, name: &[u8]) -> Option<(u64, u64)> {
        let mut ehdr = [0u8; 64];
        self.read_at(0, &mut ehdr)?;
        if ehdr.get(..6)? != b"\x7fELF\x02\x01" {
            return None;
        }
        let shoff = u64_at(&ehdr, 0x28)?;
        let shentsize = usize::from(u16_at(&ehdr, 0x3a)?);
        let shnum = usize::from(u16_at(&ehdr, 0x3c)?);
        let shstrndx = usize::from(u16_at(&ehdr, 0x3e)?);
        if shentsize != 64 || shnum > MAX_SECTIONS || shstrndx >= shnum {
            return None;
        }
        let mut shdrs = alloc::vec![0u8; shentsize * shnum];
        self.read_at(shoff, &mut shdrs)?;
        // (sh_name, sh_offset, sh_size) of each section header.
        let sections: Vec<(u32, u64, u64)> = shdrs
            .chunks_exact(shentsize)
            .filter_map(|h| Some((u32_at(h, 0)?, u64_at(h, 24)?, u64_at(h, 32)?)))
            .collect();
        let &(_, names_off, names_size) = sections.get(shstrndx)?;
        let mut names = alloc::vec![0u8; usize::try_from(names_size.min(MAX_SHSTRTAB)).ok()?];
        self.read_at(names_off, &mut names)?;
        let &(_, offset, size) = sections.iter().find(|&&(at, _, _)| {
            let start = usize::try_from(at).unwrap_or(usize::MAX);
            names
                .get(start..)
                .and_then(|rest| rest.split(|&b| b == 0).next())
                == Some(name)
        })?;
        Some((offset, size))
    }
}

pub(super) fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

pub(super) fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

pub(super) fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This test binary's own file: its `DT_NEEDED` has the C library, as `readelf -d` shows.
    #[test]
    fn reads_the_needed_libraries_of_a_real_file() {
        let exe = std::env::current_exe().expect("test binary");
        let path = std::ffi::CString::new(exe.as_os_str().as_encoded_bytes()).expect("no NUL");
        let needed = needed(&path).expect("a dynamic ELF");
        assert!(
            needed.iter().any(|n| n.starts_with(b"libc.so")),
            "{:?}",
            needed
                .iter()
                .map(|n| String::from_utf8_lossy(n))
                .collect::<Vec<_>>()
        );
    }

    /// A file whose `.rodata` holds a version string gives the CUDA version after the marker;
    /// this test binary has none after a marker that is nowhere.
    #[test]
    fn reads_the_cuda_version_a_file_was_built_for() {
        let exe = std::env::current_exe().expect("test binary");
        let path = std::ffi::CString::new(exe.as_os_str().as_encoded_bytes()).expect("no NUL");
        // VERSION_STRING lands in this binary's .rodata; the marker is spelled backwards there,
        // so that the first match is the version string's.
        let marker: Vec<u8> = b"tset-sbuts-aduc+".iter().rev().copied().collect();
        assert_eq!(built_for(&path, &marker), Some((13, 4)));
        assert_eq!(built_for(&path, b"\x01\x02no such marker\x03"), None);
        assert_eq!(built_for(c"/nonexistent/libnccl.so.2", b"+cuda"), None);
        assert_eq!(built_for(c"/proc/self/status", b"+cuda"), None);
        core::hint::black_box(VERSION_STRING);
    }

    /// What `reads_the_cuda_version_a_file_was_built_for` finds, as NCCL's string has it.
    static VERSION_STRING: &str = "NCCL version 2.32.3+cuda-stubs-test13.4";

    #[test]
    fn other_files_give_none() {
        assert_eq!(needed(c"/nonexistent/libcurand.so.10"), None);
        assert_eq!(needed(c"/proc/self/status"), None);
    }
}
