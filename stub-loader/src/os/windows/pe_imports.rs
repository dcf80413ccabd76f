//! The imports of a PE file on disk, read before `LoadLibraryExW`: the DLL names of its import
//! directory, what loading it would pull into the process (12.x's `cusolver64_11.dll` imports
//! `cusparse64_12.dll`, `cublas64_12.dll`, `cublasLt64_12.dll`), as `DT_NEEDED` says it of an ELF
//! file (`linux/elf_needed.rs`). Reads the DOS and PE headers, the section table, the import
//! descriptors and only their names, with `ReadFile` at offsets (a cuBLASLt DLL is 670 MB;
//! nothing else of it is read). Delay-loaded imports are not listed: the loader loads them on
//! first use, from the folders of the module list, and NVIDIA's DLLs have none.
//!
//! And the PTX ISA of its device code ([`ptx_isa`]), read by the same means from the section
//! table and the fat-binary section, and the CUDA release its build string names
//! ([`built_for`], from `.rdata`).
//!
//! PE32+ only (the stubs are x86-64 DLLs); anything else, or anything malformed, gives `None`.

use super::wide::to_wide;
use alloc::vec::Vec;
use core::ffi::CStr;
use windows_sys::Win32::Foundation::{CloseHandle, GENERIC_READ, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FILE_ATTRIBUTE_NORMAL, FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE,
    OPEN_EXISTING, ReadFile,
};
use windows_sys::Win32::System::IO::OVERLAPPED;

/// `IMAGE_NT_OPTIONAL_HDR64_MAGIC`.
const PE32_PLUS: u16 = 0x20b;
/// `IMAGE_DIRECTORY_ENTRY_IMPORT`.
const IMPORT_DIRECTORY: usize = 1;
/// Bounds no real DLL comes near, so a corrupt file cannot make the read large.
const MAX_SECTIONS: usize = 96;
const MAX_IMPORTS: usize = 256;
const MAX_NAME: usize = 256;

/// The DLL names `path` imports, in order; `None` when the file cannot be read or is not a
/// PE32+ image.
pub(crate) fn needed(path: &CStr) -> Option<Vec<Vec<u8>>> {
    File::open(path)?.imports()
}

/// The section name NVIDIA's Windows builds give the device code `nvcc` embeds: ELF's
/// `.nv_fatbin` cut to the 8 bytes a PE image's section name has (`cutensor.dll`, cuSPARSELt's
/// DLLs).
const FATBIN_SECTION: &[u8; 8] = b".nv_fatb";

/// The read-only data section of an MSVC-built image, where string literals lie.
const RDATA_SECTION: &[u8; 8] = b".rdata\0\0";
/// `.rdata` beyond this is not read: libNVVM 13.5's is 7.2 MiB (its build string 65 KiB in).
const MAX_RDATA: u64 = 16 * 1024 * 1024;

/// The CUDA `(major, minor)` that follows the first `marker` in `path`'s `.rdata`
/// (`VersionProbe::BuiltForMajorMinor`: libNVVM's `nvvm64_40_0.dll`, one name in every major,
/// carries `Cuda compilation tools, release 12.9, V12.9.86` as its `libnvvm.so.4` does);
/// `None` when the file has no such string, no `.rdata`, or cannot be read.
pub(crate) fn built_for(path: &CStr, marker: &[u8]) -> Option<(u32, u32)> {
    let file = File::open(path)?;
    let (start, size) = file.section_range(RDATA_SECTION)?;
    let mut rdata = alloc::vec![0u8; usize::try_from(size.min(MAX_RDATA)).ok()?];
    file.read_at(start, &mut rdata)?;
    crate::build_string::release_after(&rdata, marker)
}

/// The PTX ISA `(major, minor)` of the first PTX entry in `path`'s fat-binary section
/// (`VersionProbe::DeviceCode`, the walk both systems share: `crate::fatbin`); `None` when the
/// file is no PE32+ image, has no such section, no PTX early enough, or anything malformed.
pub(crate) fn ptx_isa(path: &CStr) -> Option<(u32, u32)> {
    let file = File::open(path)?;
    let (start, size) = file.section_range(FATBIN_SECTION)?;
    crate::fatbin::first_ptx_isa(&|at, buf| file.read_at(at, buf), start, size)
}

/// The whole of `path` when it is at most `limit` bytes long, `None` when it cannot be read or is
/// longer: a device-code file `cuModuleLoad` is given (PTX, a fat binary), read to see whether
/// the driver can take it.
pub(crate) fn read_file(path: &CStr, limit: usize) -> Option<Vec<u8>> {
    let file = File::open(path)?;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let mut n = 0u32;
        // SAFETY: `chunk` is writable for its length; a synchronous read at the file pointer.
        let ok = unsafe {
            ReadFile(
                file.0,
                chunk.as_mut_ptr(),
                chunk.len() as u32,
                &mut n,
                core::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return None;
        }
        if n == 0 {
            return Some(bytes);
        }
        bytes.extend_from_slice(chunk.get(..n as usize)?);
        if bytes.len() > limit {
            return None;
        }
    }
}

/// An open file, closed on drop.
struct File(HANDLE);

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: a handle this value opened.
        unsafe { CloseHandle(self.0) };
    }
}

impl File {
    /// Opened for reading, sharing everything (a DLL being written or renamed by an installer
    /// is not blocked by the stub's look at it).
    fn open(path: &CStr) -> Option<File> {
        let wide = to_wide(path.to_bytes(), true);
        // SAFETY: a NUL-terminated path; no security attributes or template.
        let handle = unsafe {
            CreateFileW(
                wide.as_ptr(),
                GENERIC_READ,
                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                core::ptr::null(),
                OPEN_EXISTING,
                FILE_ATTRIBUTE_NORMAL,
                core::ptr::null_mut(),
            )
        };
        (handle != INVALID_HANDLE_VALUE && !handle.is_null()).then_some(File(handle))
    }

    /// Exactly `buf.len()` bytes at `offset`, or `None` (`ReadFile` with the offset in an
    /// `OVERLAPPED`: a synchronous handle reads there and waits).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Option<()> {
        let mut done = 0;
        while done < buf.len() {
            let rest = buf.get_mut(done..)?;
            let at = offset.checked_add(u64::try_from(done).ok()?)?;
            // SAFETY: a zeroed OVERLAPPED is valid; only the offset is set.
            let mut overlapped: OVERLAPPED = unsafe { core::mem::zeroed() };
            overlapped.Anonymous.Anonymous.Offset = at as u32;
            overlapped.Anonymous.Anonymous.OffsetHigh = (at >> 32) as u32;
            let len = u32::try_from(rest.len()).unwrap_or(u32::MAX);
            let mut n = 0u32;
            // SAFETY: `rest` is writable for `len` bytes; the OVERLAPPED outlives the call.
            let ok = unsafe { ReadFile(self.0, rest.as_mut_ptr(), len, &mut n, &mut overlapped) };
            if ok == 0 || n == 0 {
                return None;
            }
            done += n as usize;
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

    /// The file offset and size of the section named `name` (8 bytes, NUL-padded as the
    /// section table stores it), from the section table.
    fn section_range(&self, name: &[u8; 8]) -> Option<(u64, u64)> {
        let mut dos = [0u8; 64];
        self.read_at(0, &mut dos)?;
        if dos.get(..2)? != b"MZ" {
            return None;
        }
        let pe = u64::from(u32_at(&dos, 0x3c)?);
        let mut head = [0u8; 4 + 20 + 2];
        self.read_at(pe, &mut head)?;
        if head.get(..4)? != b"PE\0\0" || u16_at(&head, 24)? != PE32_PLUS {
            return None;
        }
        let sections = usize::from(u16_at(&head, 6)?);
        let optional_size = u64::from(u16_at(&head, 20)?);
        if sections > MAX_SECTIONS {
            return None;
        }
        let mut table = alloc::vec![0u8; 40 * sections];
        self.read_at(pe + 24 + optional_size, &mut table)?;
        // IMAGE_SECTION_HEADER: the name (8 bytes), the raw size at 16, the raw offset at 20.
        table.chunks_exact(40).find_map(|s| {
            (s.get(..8)? == name).then_some(())?;
            Some((u64::from(u32_at(s, 20)?), u64::from(u32_at(s, 16)?)))
        })
    }

    fn imports(&self) -> Option<Vec<Vec<u8>>> {
        let mut dos = [0u8; 64];
        self.read_at(0, &mut dos)?;
        if dos.get(..2)? != b"MZ" {
            return None;
        }
        let pe = u64::from(u32_at(&dos, 0x3c)?);
        // The signature, the COFF header (20 bytes) and the PE32+ optional header up to its
        // data directories (112 bytes) and the first two of them.
        let mut head = [0u8; 4 + 20 + 112 + 16];
        self.read_at(pe, &mut head)?;
        if head.get(..4)? != b"PE\0\0" || u16_at(&head, 24)? != PE32_PLUS {
            return None;
        }
        let sections = usize::from(u16_at(&head, 6)?);
        let optional_size = u64::from(u16_at(&head, 20)?);
        let directories = usize::try_from(u32_at(&head, 24 + 108)?).ok()?;
        if sections > MAX_SECTIONS || directories <= IMPORT_DIRECTORY {
            return None;
        }
        let import_rva = u32_at(&head, 24 + 112 + 8 * IMPORT_DIRECTORY)?;
        if import_rva == 0 {
            return Some(Vec::new());
        }
        let mut table = alloc::vec![0u8; 40 * sections];
        self.read_at(pe + 24 + optional_size, &mut table)?;
        // (virtual address, virtual size, raw size, raw offset) of each section.
        let sections: Vec<(u32, u32, u32, u32)> = table
            .chunks_exact(40)
            .filter_map(|s| {
                Some((
                    u32_at(s, 12)?,
                    u32_at(s, 8)?,
                    u32_at(s, 16)?,
                    u32_at(s, 20)?,
                ))
            })
            .collect();
        // An RVA's file offset: where the section holding it is stored.
        let offset = |rva: u32| -> Option<u64> {
            let &(va, _, _, raw) = sections
                .iter()
                .find(|&&(va, vsize, rsize, _)| rva >= va && rva - va < vsize.max(rsize))?;
            Some(u64::from(raw) + u64::from(rva - va))
        };
        let descriptors = offset(import_rva)?;
        let mut names = Vec::new();
        for i in 0..MAX_IMPORTS as u64 {
            // IMAGE_IMPORT_DESCRIPTOR: 20 bytes, the name's RVA at 12; all zero ends the list.
            let mut descriptor = [0u8; 20];
            self.read_at(descriptors + 20 * i, &mut descriptor)?;
            if descriptor.iter().all(|&b| b == 0) {
                return Some(names);
            }
            names.push(self.string_at(offset(u32_at(&descriptor, 12)?)?)?);
        }
        None
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
