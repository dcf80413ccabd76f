//! The PTX ISA version of a file's device code ([`ptx_isa`]): which CUDA compiler built a
//! library that links the runtime statically and says its release nowhere else
//! (`VersionProbe::DeviceCode`: cuSPARSELt 0.8.x is published for CUDA 12 and for CUDA 13 under
//! one soname, one version and no `libcudart` in `DT_NEEDED`).
//!
//! What is read, with `pread`, of a file hundreds of MiB large: the ELF section headers, then in
//! `.nv_fatbin` (the device code `nvcc` embeds: a run of fat binaries, each a 16-byte header and
//! its entries) the headers of the entries up to the first PTX one, never a payload. The layout
//! read, as NVIDIA's `nvcc` writes it (CUDA 11.x – 13.x; not in a public header, checked on
//! NVIDIA's cuSPARSELt wheels 0.8.0 – 0.10.0, NCCL and the math libraries):
//!
//! | fat binary header | |
//! |---|---|
//! | 0, `u32` | magic `0xBA55ED50` |
//! | 6, `u16` | the header's size (16): where the entries start |
//! | 8, `u64` | the entries' size: where the next fat binary starts |
//!
//! | entry header | |
//! |---|---|
//! | 0, `u16` | kind: 1 PTX, 2 ELF (a cubin) |
//! | 4, `u32` | the entry header's size |
//! | 8, `u64` | the payload's size (padded): the next entry follows it |
//! | 24, `u16` / 26, `u16` | for PTX, the ISA's minor / major (`.version 9.2`), compressed payload or not |

use super::elf_needed::{File, u16_at, u32_at, u64_at};
use core::ffi::CStr;

/// A fat binary's magic number (`FATBIN_MAGIC`).
const FATBIN_MAGIC: u32 = 0xBA55_ED50;
/// An entry holding PTX.
const KIND_PTX: u16 = 1;
/// The fields read of an entry header.
const ENTRY_READ: u64 = 28;
/// Entries beyond this are not read: cuSPARSELt 0.8.1's first PTX is its first entry, and its
/// `.nv_fatbin` (188 MiB) holds 761 fat binaries.
const MAX_ENTRIES: usize = 4096;
/// Fat binaries beyond this are not read either: each costs a `pread`, and a malformed section
/// of tiny ones would cost millions.
const MAX_BLOBS: usize = 65536;
/// A fat binary's own header: magic, version, header size, payload size.
const BLOB_HEADER: u64 = 16;

/// The PTX ISA `(major, minor)` of the first PTX entry in `path`'s `.nv_fatbin`: the version of
/// the CUDA compiler that built the file's device code (8.8 from CUDA 12.9's `nvcc`, 9.0 from
/// 13.0's). `None` when the file has no `.nv_fatbin`, no PTX among its first [`MAX_ENTRIES`]
/// entries, or anything malformed (or cannot be read).
pub(crate) fn ptx_isa(path: &CStr) -> Option<(u32, u32)> {
    let file = File::open(path)?;
    let (start, size) = file.section_range(b".nv_fatbin")?;
    let end = start.checked_add(size)?;
    let mut blob = start;
    let (mut entries, mut blobs) = (0, 0);
    while blob.checked_add(BLOB_HEADER)? <= end {
        blobs += 1;
        if blobs > MAX_BLOBS {
            return None;
        }
        let mut header = [0u8; BLOB_HEADER as usize];
        file.read_at(blob, &mut header)?;
        let header_size = u64::from(u16_at(&header, 6)?);
        if u32_at(&header, 0)? != FATBIN_MAGIC || header_size < BLOB_HEADER {
            return None;
        }
        let first = blob.checked_add(header_size)?;
        let blob_end = first.checked_add(u64_at(&header, 8)?)?.min(end);
        let mut entry = first;
        while entry.checked_add(ENTRY_READ)? <= blob_end {
            entries += 1;
            if entries > MAX_ENTRIES {
                return None;
            }
            let mut e = [0u8; ENTRY_READ as usize];
            file.read_at(entry, &mut e)?;
            if u16_at(&e, 0)? == KIND_PTX {
                return Some((u32::from(u16_at(&e, 26)?), u32::from(u16_at(&e, 24)?)));
            }
            let header_size = u64::from(u32_at(&e, 4)?);
            if header_size < ENTRY_READ {
                return None;
            }
            entry = entry
                .checked_add(header_size)?
                .checked_add(u64_at(&e, 8)?)?;
        }
        if blob_end <= blob {
            return None;
        }
        blob = blob_end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::vec::Vec;

    /// A fat binary of the given entries (kind, PTX major, PTX minor), each with an 8-byte
    /// payload.
    fn fatbin(entries: &[(u16, u16, u16)]) -> Vec<u8> {
        let mut body = Vec::new();
        for &(kind, major, minor) in entries {
            let mut e = [0u8; 64];
            e[0..2].copy_from_slice(&kind.to_le_bytes());
            e[4..8].copy_from_slice(&64u32.to_le_bytes());
            e[8..16].copy_from_slice(&8u64.to_le_bytes());
            e[24..26].copy_from_slice(&minor.to_le_bytes());
            e[26..28].copy_from_slice(&major.to_le_bytes());
            body.extend_from_slice(&e);
            body.extend_from_slice(&[0xAA; 8]);
        }
        let mut out = Vec::new();
        out.extend_from_slice(&FATBIN_MAGIC.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&16u16.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// A minimal 64-bit little-endian ELF file whose only sections are `.shstrtab` and a
    /// section named `name` holding `data`, written to a file of this test process.
    fn elf_with(test: &str, name: &str, data: &[u8]) -> CString {
        let names = [b"\0.shstrtab\0".as_slice(), name.as_bytes(), b"\0"].concat();
        let names_at = 64u64;
        let data_at = names_at + names.len() as u64;
        let shoff = data_at + data.len() as u64;
        let mut file = vec![0u8; 64];
        file[..6].copy_from_slice(b"\x7fELF\x02\x01");
        file[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
        file[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        file[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        file[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        file.extend_from_slice(&names);
        file.extend_from_slice(data);
        let section = |name_at: u32, offset: u64, size: u64| {
            let mut h = [0u8; 64];
            h[0..4].copy_from_slice(&name_at.to_le_bytes());
            h[24..32].copy_from_slice(&offset.to_le_bytes());
            h[32..40].copy_from_slice(&size.to_le_bytes());
            h
        };
        file.extend_from_slice(&[0u8; 64]);
        file.extend_from_slice(&section(1, names_at, names.len() as u64));
        file.extend_from_slice(&section(11, data_at, data.len() as u64));
        let path = std::env::temp_dir().join(format!(
            "cuda-stubs-fatbin-{}-{test}.so",
            std::process::id()
        ));
        std::fs::write(&path, file).expect("temporary file");
        CString::new(path.into_os_string().into_encoded_bytes()).expect("no NUL")
    }

    /// The first PTX entry's ISA, after cubins and across fat binaries; none without PTX, with
    /// another magic, or without the section.
    #[test]
    fn reads_the_isa_of_the_first_ptx() {
        let cases = [
            ("ptx-first", fatbin(&[(1, 8, 8), (2, 1, 8)]), Some((8, 8))),
            (
                "ptx-later",
                [
                    fatbin(&[(2, 1, 7)]),
                    fatbin(&[(2, 1, 8), (1, 9, 2), (1, 7, 0)]),
                ]
                .concat(),
                Some((9, 2)),
            ),
            ("no-ptx", fatbin(&[(2, 1, 8), (2, 1, 8)]), None),
            ("bad-magic", vec![0x55; 64], None),
            ("truncated", fatbin(&[(1, 9, 0)])[..30].to_vec(), None),
        ];
        for (test, data, isa) in cases {
            let path = elf_with(test, ".nv_fatbin", &data);
            assert_eq!(ptx_isa(&path), isa, "{test}");
            let other = elf_with(test, ".rodata", &data);
            assert_eq!(ptx_isa(&other), None, "{test} in .rodata");
            for p in [path, other] {
                let _ = std::fs::remove_file(p.to_str().expect("UTF-8"));
            }
        }
        assert_eq!(ptx_isa(c"/nonexistent/libcusparseLt.so.0"), None);
        assert_eq!(ptx_isa(c"/proc/self/status"), None);
    }
}
