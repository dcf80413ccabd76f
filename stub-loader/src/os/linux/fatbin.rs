//! The PTX ISA version of an ELF file's device code ([`ptx_isa`]): its `.nv_fatbin` section
//! found by the section headers (`elf_needed.rs`), walked by the walk both systems share
//! (`crate::fatbin`).

use super::elf_needed::File;
use core::ffi::CStr;

/// The PTX ISA `(major, minor)` of the first PTX entry in `path`'s `.nv_fatbin`
/// ([`crate::fatbin::first_ptx_isa`]); `None` when the file has no `.nv_fatbin`, no PTX early
/// enough, or anything malformed (or cannot be read).
pub(crate) fn ptx_isa(path: &CStr) -> Option<(u32, u32)> {
    let file = File::open(path)?;
    let (start, size) = file.section_range(b".nv_fatbin")?;
    crate::fatbin::first_ptx_isa(&|at, buf| file.read_at(at, buf), start, size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fatbin::FATBIN_MAGIC;
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
