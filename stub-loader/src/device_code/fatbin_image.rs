//! Fat binaries made by the stub: a CUBIN entry per architecture put before a fat binary's own
//! entries ([`fatbin_with_cubins`]), so that nvcc's registration (`__cudaRegisterFatBinary`) or
//! a library load finds a CUBIN for its device first; and nvcc's wrapper around one
//! ([`wrapped_fatbin`]).
//!
//! An entry header as NVIDIA's nvFatbin writes it for a CUBIN (checked on nvFatbin 12.9's
//! output, `nvFatbinAddCubin(…, "90", "saxpy")`), 72 bytes with its name:
//!
//! | offset | field |
//! |---|---|
//! | 0, `u16` | kind: 2, ELF |
//! | 2, `u16` | 0x0101 |
//! | 4, `u32` | the header's size, the name included |
//! | 8, `u64` | the payload's size, padded to 8 bytes |
//! | 16, `u32` / 20, `u32` | compressed size, 0: not compressed |
//! | 24, `u16` / 26, `u16` | 8 / 1 (what nvFatbin writes for a CUBIN) |
//! | 28, `u32` | the architecture: 90 |
//! | 32, `u32` / 36, `u32` | the name's offset in the header (64) and length |
//! | 40, `u64` | flags: 0x11 (64-bit, Linux host) |
//! | 48, `u64` / 56, `u64` | 0 / uncompressed size 0 |
//! | 64 | the name, NUL-padded to 8 bytes |

use crate::fatbin::{BLOB_HEADER, FATBIN_MAGIC, image_size};
use alloc::vec::Vec;
use core::ffi::c_void;

/// nvcc's `__fatBinC_Wrapper_t` magic (`{int magic; int version; const unsigned long long
/// *data; void *filename_or_fatbins;}`, crt/host_runtime.h): what `__cudaRegisterFatBinary`
/// gets, and what some programs hand `cuModuleLoadData`.
pub const FATBIN_WRAPPER_MAGIC: u32 = 0x4662_43B1;

/// The name the stub gives its entries (`cuobjdump -lelf` shows it).
const NAME: &[u8; 8] = b"stubs\0\0\0";
/// The fixed part of an entry header, before the name.
const ENTRY_FIXED: usize = 64;

/// nvcc's `__fatBinC_Wrapper_t` (crt/host_runtime.h: `int magic; int version; const unsigned
/// long long *data; void *filename_or_fatbins;`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct FatbinWrapper {
    /// [`FATBIN_WRAPPER_MAGIC`].
    pub magic: i32,
    /// 1: `data` is the fat binary; 2: relocatable device code, `filename_or_fatbins` lists
    /// the prelinked fat binaries.
    pub version: i32,
    /// The fat binary.
    pub data: *const u64,
    /// A file name or the prelinked fat binaries.
    pub filename_or_fatbins: *mut c_void,
}

/// The fat binary a `__fatBinC_Wrapper_t` at `wrapper` points to, `None` when `wrapper` is not
/// one.
///
/// # Safety
/// `wrapper` is NULL or readable for a `__fatBinC_Wrapper_t`, its `data` for the fat binary.
pub unsafe fn wrapped_fatbin<'a>(wrapper: *const c_void) -> Option<&'a [u8]> {
    if wrapper.is_null() {
        return None;
    }
    // SAFETY: caller's contract.
    let w = unsafe { wrapper.cast::<FatbinWrapper>().read_unaligned() };
    if w.magic as u32 != FATBIN_WRAPPER_MAGIC || w.data.is_null() {
        return None;
    }
    // SAFETY: caller's contract: a fat binary is at least its 16-byte header.
    let head = unsafe { core::slice::from_raw_parts(w.data.cast::<u8>(), BLOB_HEADER as usize) };
    let size = usize::try_from(image_size(head)?).ok()?;
    // SAFETY: caller's contract.
    Some(unsafe { core::slice::from_raw_parts(w.data.cast::<u8>(), size) })
}

/// A fat binary holding one CUBIN entry per `(architecture, CUBIN)` of `cubins`, then the
/// entries of `original` (a fat binary, its header included; `None`: none). 8-byte aligned, as
/// a wrapper's `data` is.
pub fn fatbin_with_cubins(cubins: &[(u32, &[u8])], original: Option<&[u8]>) -> Vec<u64> {
    let mut bytes: Vec<u8> = Vec::new();
    for (arch, cubin) in cubins {
        let padded = cubin.len().div_ceil(8) * 8;
        let header_size = (ENTRY_FIXED + NAME.len()) as u32;
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&0x0101u16.to_le_bytes());
        bytes.extend_from_slice(&header_size.to_le_bytes());
        bytes.extend_from_slice(&(padded as u64).to_le_bytes());
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&8u16.to_le_bytes());
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&arch.to_le_bytes());
        bytes.extend_from_slice(&(ENTRY_FIXED as u32).to_le_bytes());
        bytes.extend_from_slice(&5u32.to_le_bytes());
        bytes.extend_from_slice(&0x11u64.to_le_bytes());
        bytes.extend_from_slice(&[0; 16]);
        bytes.extend_from_slice(NAME);
        bytes.extend_from_slice(cubin);
        bytes.resize(bytes.len() + (padded - cubin.len()), 0);
    }
    if let Some(original) = original {
        let entries_at = original.get(6..8).map_or(BLOB_HEADER as usize, |h| {
            usize::from(u16::from_le_bytes([h[0], h[1]]))
        });
        bytes.extend_from_slice(original.get(entries_at..).unwrap_or(&[]));
    }
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len() + 16);
    out.extend_from_slice(&FATBIN_MAGIC.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&(BLOB_HEADER as u16).to_le_bytes());
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(&bytes);
    out.resize(out.len().div_ceil(8) * 8, 0);
    out.chunks_exact(8)
        .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fatbin::{KIND_ELF, each_entry};

    #[test]
    fn cubins_come_first_then_the_original_entries() {
        let first = fatbin_with_cubins(&[(80, b"cubin-80")], None);
        // SAFETY: plain data.
        let first_bytes =
            unsafe { core::slice::from_raw_parts(first.as_ptr().cast::<u8>(), first.len() * 8) };
        let both = fatbin_with_cubins(&[(90, b"ninety!!!")], Some(first_bytes));
        // SAFETY: plain data.
        let bytes =
            unsafe { core::slice::from_raw_parts(both.as_ptr().cast::<u8>(), both.len() * 8) };
        let read = |at: u64, buf: &mut [u8]| -> Option<()> {
            let at = at as usize;
            buf.copy_from_slice(bytes.get(at..at + buf.len())?);
            Some(())
        };
        let mut seen = Vec::new();
        each_entry::<()>(&read, 0, bytes.len() as u64, &mut |e| {
            seen.push((e.kind, e.arch));
            None
        });
        assert_eq!(seen, [(KIND_ELF, 90), (KIND_ELF, 80)]);
        assert_eq!(image_size(&bytes[..16]), Some(16 + 72 + 16 + 72 + 8));
        // The payload follows its header.
        assert_eq!(&bytes[16 + 72..16 + 72 + 9], b"ninety!!!");
    }
}
