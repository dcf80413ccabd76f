//! The PTX ISA version of a file's device code ([`first_ptx_isa`]): which CUDA compiler built a
//! library that links the runtime statically and says its release nowhere else
//! (`VersionProbe::DeviceCode`: cuSPARSELt 0.8.x is published for CUDA 12 and for CUDA 13 under
//! one file name, one version and no runtime among its imports). The walk over a fat-binary
//! section, the same in an ELF file's `.nv_fatbin` (`os/linux/fatbin.rs`) and a PE file's
//! `.nv_fatb` (`os/windows/pe_imports.rs`, section names being 8 bytes there): given where the
//! section lies and how to read the file at an offset.
//!
//! What is read of a file hundreds of MiB large: in the section (the device code `nvcc` embeds:
//! a run of fat binaries, each a 16-byte header and its entries) the headers of the entries up
//! to the first PTX one, never a payload. The layout read, as NVIDIA's `nvcc` writes it (CUDA
//! 11.x – 13.x; not in a public header, checked on NVIDIA's cuSPARSELt wheels 0.8.0 – 0.10.0,
//! NCCL and the math libraries):
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
//! | 16, `u32` | the compressed payload's size, 0 when it is not compressed |
//! | 24, `u16` / 26, `u16` | for PTX, the ISA's minor / major (`.version 9.2`), compressed payload or not |
//! | 28, `u32` | the architecture: 90 for `sm_90` (ELF) or `compute_90` (PTX) |

/// A fat binary's magic number (`FATBIN_MAGIC`).
pub(crate) const FATBIN_MAGIC: u32 = 0xBA55_ED50;
/// An entry holding PTX.
pub(crate) const KIND_PTX: u16 = 1;
/// An entry holding an ELF file: a cubin.
pub(crate) const KIND_ELF: u16 = 2;
/// The fields read of an entry header.
const ENTRY_READ: u64 = 32;
/// Entries beyond this are not read: cuSPARSELt 0.8.1's first PTX is its first entry, and its
/// `.nv_fatbin` (188 MiB) holds 761 fat binaries.
const MAX_ENTRIES: usize = 4096;
/// Fat binaries beyond this are not read either: each costs a read, and a malformed section
/// of tiny ones would cost millions.
const MAX_BLOBS: usize = 65536;
/// A fat binary's own header: magic, version, header size, payload size.
pub(crate) const BLOB_HEADER: u64 = 16;

/// One entry of a fat binary, as its header describes it (the payload is not read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// [`KIND_PTX`], [`KIND_ELF`] or another kind (LTO-IR is 4).
    pub(crate) kind: u16,
    /// For PTX, the ISA's `(major, minor)`; for other kinds whatever the header holds there.
    pub(crate) isa: (u32, u32),
    /// The architecture: `90` for `sm_90` (ELF) or `compute_90` (PTX).
    pub(crate) arch: u32,
    /// Where its payload starts (the offset of [`each_entry`]'s reads) and its size (padded).
    pub(crate) payload: (u64, u64),
    /// Whether the payload is compressed (a compressed size at 16).
    pub(crate) compressed: bool,
}

/// Calls `visit` with each entry of the fat binaries in the `size` bytes at `start` (a section
/// holding a run of them, or one image), read with `read_at` (exactly the buffer's length at an
/// offset, or `None`), until it answers `Some`, which is returned. `None` when nothing did, or
/// anything is malformed or cannot be read, or past [`MAX_ENTRIES`] entries.
pub(crate) fn each_entry<T>(
    read_at: &dyn Fn(u64, &mut [u8]) -> Option<()>,
    start: u64,
    size: u64,
    visit: &mut dyn FnMut(Entry) -> Option<T>,
) -> Option<T> {
    let end = start.checked_add(size)?;
    let mut blob = start;
    let (mut entries, mut blobs) = (0, 0);
    while blob.checked_add(BLOB_HEADER)? <= end {
        blobs += 1;
        if blobs > MAX_BLOBS {
            return None;
        }
        let mut header = [0u8; BLOB_HEADER as usize];
        read_at(blob, &mut header)?;
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
            read_at(entry, &mut e)?;
            let found = Entry {
                kind: u16_at(&e, 0)?,
                isa: (u32::from(u16_at(&e, 26)?), u32::from(u16_at(&e, 24)?)),
                arch: u32_at(&e, 28)?,
                payload: (
                    entry.checked_add(u64::from(u32_at(&e, 4)?))?,
                    u64_at(&e, 8)?,
                ),
                compressed: u32_at(&e, 16)? != 0,
            };
            if let Some(t) = visit(found) {
                return Some(t);
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

/// The PTX ISA `(major, minor)` of the first PTX entry in the fat-binary section of `size`
/// bytes at file offset `start`, read with `read_at`: the version of the CUDA compiler that
/// built the file's device code (8.8 from CUDA 12.9's `nvcc`, 9.0 from 13.0's). `None` when
/// there is no PTX among its first [`MAX_ENTRIES`] entries, or anything malformed (or cannot be
/// read).
pub(crate) fn first_ptx_isa(
    read_at: &dyn Fn(u64, &mut [u8]) -> Option<()>,
    start: u64,
    size: u64,
) -> Option<(u32, u32)> {
    each_entry(read_at, start, size, &mut |e| {
        (e.kind == KIND_PTX).then_some(e.isa)
    })
}

/// The size of the fat binary whose 16-byte header is `header` (its header included), `None`
/// when `header` is not one.
pub(crate) fn image_size(header: &[u8]) -> Option<u64> {
    if u32_at(header, 0)? != FATBIN_MAGIC {
        return None;
    }
    u64::from(u16_at(header, 6)?).checked_add(u64_at(header, 8)?)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        b.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}
