//! Device code newer than the driver ([`prepare`]): PTX whose ISA the installed driver cannot
//! JIT-compile (NVRTC 13.5's `.version 9.5` on a CUDA 13.0 driver answers 222
//! `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`) is compiled in the process, by an nvJitLink that reads
//! it (`nvjitlink.rs`), into a CUBIN for the device, which the driver loads whatever its
//! release. Shared by the driver stub (`cuModuleLoad*`, `cuLibraryLoad*`, and its links:
//! `cuLinkAddData`/`cuLinkAddFile` … `cuLinkComplete`, `link.rs`) and
//! the runtime stub (`cudaLibraryLoad*`, nvcc's `__cudaRegisterFatBinary`).
//!
//! What is read to decide: the image's first bytes (an ELF CUBIN, a fat binary, nvcc's wrapper
//! of one, or PTX text), then PTX's `.version` and `.target` (`ptx.rs`) or a fat binary's entry
//! headers (`crate::fatbin`). CUBIN, LTO-IR, and PTX or fat binaries the driver takes are
//! passed through untouched; the device is asked for its architecture only when some PTX is
//! too new. Results are cached by input, architecture and options (`cache.rs`).
//!
//! The driver's limit is NVIDIA's table of CUDA release → PTX ISA
//! ([`stub_spec::max_ptx_isa`]): a CUDA 13.0 driver reads up to 9.0.

mod cache;
mod fatbin_image;
pub mod link;
mod nvjitlink;
mod options;
mod ptx;

pub use fatbin_image::{FATBIN_WRAPPER_MAGIC, FatbinWrapper, fatbin_with_cubins, wrapped_fatbin};
pub use options::JitOptions;
pub use ptx::{PtxHeader, PtxTarget, read_header, read_header_of};

use crate::debug::{Lossy, Millis, line};
use crate::fatbin::{BLOB_HEADER, KIND_ELF, KIND_PTX, each_entry, image_size};
use crate::os::clock_ns;
use alloc::ffi::CString;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::c_void;
use nvjitlink::Input;
use stub_spec::{PtxIsa, max_ptx_isa, release_for_ptx_isa};

/// Fat binaries larger than this are not taken for one (a corrupt size field).
const MAX_FATBIN: u64 = 1 << 34;

/// Device code in memory, as a load entry point received it.
#[derive(Debug, Clone, Copy)]
pub enum Image<'a> {
    /// PTX text, its terminating NUL included (nvJitLink is handed the string as
    /// `nvrtcGetPTX` writes it), and its header.
    Ptx(&'a [u8], PtxHeader),
    /// A fat binary, its header included.
    Fatbin(&'a [u8]),
    /// Anything else (a CUBIN, LTO-IR, an unknown format): passed through.
    Other,
}

/// Reads what `image` is: a fat binary (bare, or through nvcc's wrapper), PTX text, or other.
/// Reads the first 16 bytes, then the PTX header or the fat binary's header; the length of PTX
/// text only once its header parses.
///
/// # Safety
/// `image` is NULL or what the driver's load calls accept: a NUL-terminated PTX text, an ELF
/// file, a fat binary (or its wrapper), readable in full.
pub unsafe fn classify<'a>(image: *const c_void) -> Image<'a> {
    if image.is_null() {
        return Image::Other;
    }
    let bytes = image.cast::<u8>();
    // SAFETY: every format the driver takes is at least 16 bytes long, except a PTX text,
    // whose header parse stops at its NUL: the first byte decides which is read.
    unsafe {
        match *bytes {
            0xB1 | 0x50 => {
                let head = core::slice::from_raw_parts(bytes, BLOB_HEADER as usize);
                if let Some(fat) = fatbin_at(bytes) {
                    return Image::Fatbin(fat);
                }
                if u32::from_le_bytes([head[0], head[1], head[2], head[3]]) == FATBIN_WRAPPER_MAGIC
                {
                    let data = bytes.add(8).cast::<*const u8>().read_unaligned();
                    if let Some(fat) = (!data.is_null()).then(|| fatbin_at(data)).flatten() {
                        return Image::Fatbin(fat);
                    }
                }
                Image::Other
            }
            0x7f | 0 => Image::Other,
            _ => match read_header(bytes) {
                Some(header) => {
                    let len = strlen(bytes) + 1;
                    Image::Ptx(core::slice::from_raw_parts(bytes, len), header)
                }
                None => Image::Other,
            },
        }
    }
}

/// The largest device-code file read to look at ([`read_image_file`]); a larger one is passed
/// on to the driver unread.
const MAX_FILE: usize = 1 << 30;

/// The device-code file at `path` (what `cuModuleLoad` and `cuLibraryLoadFromFile` take: a
/// CUBIN, PTX or a fat binary), read whole with a NUL after it, so that [`classify`] can take
/// it as it takes an image in memory. `None` when it cannot be read, is larger than 1 GiB, or is
/// an ELF file (a CUBIN: the driver reads the file itself).
pub fn read_image_file(path: &core::ffi::CStr) -> Option<Vec<u8>> {
    let mut bytes = crate::os::read_file(path, MAX_FILE)?;
    if bytes.starts_with(b"\x7fELF") {
        return None;
    }
    bytes.push(0);
    Some(bytes)
}

/// The fat binary at `at`, if its header says one.
///
/// # Safety
/// `at` is readable for 16 bytes, and for the size its header says when that is a fat binary.
unsafe fn fatbin_at<'a>(at: *const u8) -> Option<&'a [u8]> {
    // SAFETY: caller's contract.
    let head = unsafe { core::slice::from_raw_parts(at, BLOB_HEADER as usize) };
    let size = image_size(head).filter(|s| *s <= MAX_FATBIN)?;
    // SAFETY: caller's contract.
    Some(unsafe { core::slice::from_raw_parts(at, usize::try_from(size).ok()?) })
}

/// # Safety
/// `s` is NUL-terminated.
unsafe fn strlen(s: *const u8) -> usize {
    let mut n = 0;
    // SAFETY: caller's contract.
    while unsafe { *s.add(n) } != 0 {
        n += 1;
    }
    n
}

/// What a load should hand the driver.
#[derive(Debug)]
pub enum Outcome {
    /// The caller's image, untouched: the driver takes it (or reconciliation cannot help).
    Pass,
    /// A CUBIN for the device, made from PTX the driver cannot read.
    Cubin(Reconciled),
    /// The image needs reconciling and it failed: the caller passes the image on, and the
    /// driver answers as it would have (222); the text says why and what would fix it.
    Failed(Failure),
}

/// A CUBIN made from PTX newer than the driver.
#[derive(Debug)]
pub struct Reconciled {
    /// The CUBIN, kept for the process's lifetime.
    pub cubin: &'static [u8],
    /// nvJitLink's info log (empty on a cache hit).
    pub info_log: Vec<u8>,
    /// Milliseconds the compile took (0 on a cache hit).
    pub millis: f32,
    /// Whether it came from the cache.
    pub cached: bool,
    /// The architecture it was made for (90 for `sm_90`).
    pub sm: u32,
}

/// Why PTX newer than the driver could not be reconciled.
#[derive(Debug)]
pub struct Failure {
    /// One line: the PTX ISA, the driver's maximum, and what would fix it.
    pub text: String,
    /// nvJitLink's error log, when it was what failed.
    pub error_log: Vec<u8>,
}

/// What a load knows of the driver and the device.
#[derive(Clone, Copy)]
pub struct Driver<'f> {
    /// The calling stub's library (`cuda`, `cudart`): what the debug log names.
    pub library: &'static str,
    /// The driver's CUDA version (`cuDriverGetVersion`: 13000).
    pub cuda_version: i32,
    /// The device the code is for: its compute capability × 10 (90), `None` when there is
    /// none (no context). Asked only when some PTX is too new.
    pub device_sm: &'f dyn Fn() -> Option<u32>,
}

/// Decides what the driver is handed for `image` (see the module docs): PTX newer than the
/// driver becomes a CUBIN for the device made by nvJitLink with `options` (its log buffers are
/// the caller's to fill from the result); everything else passes. `entry` names the calling
/// entry point in the debug log.
pub fn prepare(entry: &str, image: Image<'_>, driver: Driver<'_>, options: &JitOptions) -> Outcome {
    let Some(limit) = max_ptx_isa(driver.cuda_version) else {
        return Outcome::Pass;
    };
    let Some((input, bytes, isa, sm)) = needs(image, limit, &driver, options) else {
        return Outcome::Pass;
    };
    reconcile(
        entry,
        driver.library,
        input,
        bytes,
        isa,
        limit,
        sm,
        driver.cuda_version,
        options,
    )
}

/// What of `image` needs reconciling for a driver that reads PTX up to `limit`: nvJitLink's
/// input kind, the bytes, the PTX ISA and the architecture to make it for; `None` when the
/// driver takes it (or there is no device to make it for).
fn needs<'a>(
    image: Image<'a>,
    limit: PtxIsa,
    driver: &Driver<'_>,
    options: &JitOptions,
) -> Option<(Input, &'a [u8], PtxIsa, Arch)> {
    match image {
        Image::Ptx(text, header) if header.isa > limit => {
            let device = options.target().or_else(driver.device_sm)?;
            // An architecture-specific target stays specific on its own device (sm_90a).
            let sm = match header.target {
                Some(t) if t.sm == device && t.suffix.is_some() => Arch(device, t.suffix),
                _ => Arch(device, None),
            };
            Some((Input::Ptx, text, header.isa, sm))
        }
        Image::Fatbin(fat) => fatbin_needs(fat, limit, driver, options)
            .map(|(isa, device)| (Input::Fatbin, fat, isa, Arch(device, None))),
        _ => None,
    }
}

impl core::fmt::Debug for Driver<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Driver")
            .field("cuda_version", &self.cuda_version)
            .finish_non_exhaustive()
    }
}

/// The ISA of `image`'s PTX when it is newer than what a driver of `cuda_version` reads (for a
/// fat binary, its newest PTX entry's): what [`prepare`] would reconcile on some device. Reads
/// headers only and asks for no device: a caller that must find the devices first (a library
/// load, nvcc's registration) asks this before it does.
pub fn newer_than_driver(image: Image<'_>, cuda_version: i32) -> Option<PtxIsa> {
    let limit = max_ptx_isa(cuda_version)?;
    match image {
        Image::Ptx(_, header) => (header.isa > limit).then_some(header.isa),
        Image::Fatbin(fat) => newest_ptx(fat).filter(|n| *n > limit),
        Image::Other => None,
    }
}

/// One entry of a fat binary, from its header (the payload, which may be compressed, unread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FatbinEntry {
    /// A CUBIN for `sm_<arch>` (`90`).
    Cubin {
        /// `major * 10 + minor`.
        arch: u32,
    },
    /// PTX for `compute_<arch>`, of ISA `isa`.
    Ptx {
        /// `major * 10 + minor`.
        arch: u32,
        /// Its `.version`.
        isa: PtxIsa,
    },
    /// Another kind (LTO-IR is 4).
    Other(u16),
}

/// The entries of the fat binary `fat` (its header included), in order; empty when it is
/// malformed. What a driver reads to choose the code it loads for a device.
pub fn fatbin_entries(fat: &[u8]) -> Vec<FatbinEntry> {
    let read = reader(fat);
    let mut entries = Vec::new();
    let _: Option<()> = each_entry(&read, 0, fat.len() as u64, &mut |e| {
        entries.push(match e.kind {
            KIND_ELF => FatbinEntry::Cubin { arch: e.arch },
            KIND_PTX => FatbinEntry::Ptx {
                arch: e.arch,
                isa: isa_of(&e),
            },
            kind => FatbinEntry::Other(kind),
        });
        None
    });
    entries
}

/// The CUBIN for `sm_<arch>` in the fat binary `fat` (its header included), if it holds one
/// uncompressed (nvcc 13 compresses PTX entries, not CUBINs): the ELF file as the driver would
/// load it.
pub fn fatbin_cubin(fat: &[u8], arch: u32) -> Option<&[u8]> {
    let read = reader(fat);
    let (start, size) = each_entry(&read, 0, fat.len() as u64, &mut |e| {
        (e.kind == KIND_ELF && e.arch == arch && !e.compressed).then_some(e.payload)
    })?;
    let start = usize::try_from(start).ok()?;
    fat.get(start..start.checked_add(usize::try_from(size).ok()?)?)
}

/// The PTX entry of the fat binary `fat` (its header included) a driver would JIT for an
/// `sm_<arch>` device: the newest `compute_<n>` with `n <= arch`. Its payload as stored (padded;
/// nvcc 13 compresses PTX entries with zstd: [`FatbinPtx::compressed`]), for the mock's kernel
/// executor, which runs PTX.
pub fn fatbin_ptx(fat: &[u8], arch: u32) -> Option<FatbinPtx<'_>> {
    let read = reader(fat);
    let mut best: Option<crate::fatbin::Entry> = None;
    each_entry::<()>(&read, 0, fat.len() as u64, &mut |e| {
        if e.kind == KIND_PTX && e.arch <= arch && best.is_none_or(|b| e.arch > b.arch) {
            best = Some(e);
        }
        None
    });
    let e = best?;
    let start = usize::try_from(e.payload.0).ok()?;
    let payload = fat.get(start..start.checked_add(usize::try_from(e.payload.1).ok()?)?)?;
    Some(FatbinPtx {
        arch: e.arch,
        payload,
        compressed: e.compressed,
    })
}

/// A fat binary's PTX entry ([`fatbin_ptx`]).
#[derive(Debug, Clone, Copy)]
pub struct FatbinPtx<'a> {
    /// Its `compute_<arch>`: `major * 10 + minor`.
    pub arch: u32,
    /// The payload as stored: NUL-padded PTX text, or a compressed frame followed by padding.
    pub payload: &'a [u8],
    /// Whether the payload is compressed (nvcc 13.x: a zstd frame).
    pub compressed: bool,
}

/// Reads the fat binary `fat` at an offset, for [`each_entry`].
fn reader(fat: &[u8]) -> impl Fn(u64, &mut [u8]) -> Option<()> + '_ {
    move |at: u64, buf: &mut [u8]| -> Option<()> {
        let at = usize::try_from(at).ok()?;
        buf.copy_from_slice(fat.get(at..at.checked_add(buf.len())?)?);
        Some(())
    }
}

fn isa_of(e: &crate::fatbin::Entry) -> PtxIsa {
    PtxIsa {
        major: e.isa.0,
        minor: e.isa.1,
    }
}

/// The newest PTX ISA among `fat`'s entries.
fn newest_ptx(fat: &[u8]) -> Option<PtxIsa> {
    let mut newest = None::<PtxIsa>;
    each_entry::<()>(&reader(fat), 0, fat.len() as u64, &mut |e| {
        if e.kind == KIND_PTX {
            newest = newest.max(Some(isa_of(&e)));
        }
        None
    });
    newest
}

/// An architecture and its suffix: `sm_90`, `sm_90a`.
#[derive(Debug, Clone, Copy)]
struct Arch(u32, Option<u8>);

impl core::fmt::Display for Arch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "sm_{}", self.0)?;
        match self.1 {
            Some(s) => write!(f, "{}", char::from(s)),
            None => Ok(()),
        }
    }
}

/// For a fat binary: `(its newest PTX ISA, the device)` when its only code the device can run
/// is PTX newer than `limit`; `None` when it holds a CUBIN the device runs or PTX the driver
/// reads (the driver takes it), or nothing newer than `limit`.
fn fatbin_needs(
    fat: &[u8],
    limit: PtxIsa,
    driver: &Driver<'_>,
    options: &JitOptions,
) -> Option<(PtxIsa, u32)> {
    let read = reader(fat);
    // First the headers alone: nothing to do (and no device asked) without PTX too new.
    newest_ptx(fat).filter(|n| *n > limit)?;
    let device = options.target().or_else(driver.device_sm)?;
    // PTX too new for the driver but for a later architecture than the device's is no use to
    // it either: the driver answers "no binary for the GPU" (209), as it would have.
    let mut newest = None::<PtxIsa>;
    each_entry::<()>(&read, 0, fat.len() as u64, &mut |e| {
        if e.kind == KIND_PTX && e.arch <= device {
            newest = newest.max(Some(isa_of(&e)));
        }
        None
    });
    let newest = newest.filter(|n| *n > limit)?;
    let runnable = each_entry(&read, 0, fat.len() as u64, &mut |e| {
        let fits = e.arch <= device;
        let takes = match e.kind {
            // A CUBIN runs on its own major's later minors.
            KIND_ELF => fits && e.arch / 10 == device / 10,
            KIND_PTX => fits && isa_of(&e) <= limit,
            _ => false,
        };
        takes.then_some(())
    });
    runnable.is_none().then_some((newest, device))
}

/// The CUDA version of the bound nvJitLink (searched for on the first call) when it reads PTX
/// `isa`; else why not, as the failure line says it.
fn usable_nvjitlink(isa: PtxIsa) -> Result<i32, String> {
    let Some((have, path)) = nvjitlink::bound() else {
        return Err("no nvJitLink was found to compile it".into());
    };
    match max_ptx_isa(have) {
        Some(reads) if reads < isa => Err(format!(
            "the nvJitLink found ({}, CUDA {}.{}) reads PTX up to {reads}",
            Lossy(path.to_bytes()),
            have / 1000,
            have % 1000 / 10,
        )),
        _ => Ok(have),
    }
}

/// The one line that says PTX `isa` was not reconciled, `why`, and what would fix it.
fn failure_text(entry: &str, isa: PtxIsa, limit: PtxIsa, driver_version: i32, why: &str) -> String {
    let release = release_for_ptx_isa(isa).map_or_else(
        || format!("reading PTX {isa}"),
        |r| format!("{}.{}", r / 1000, r % 1000 / 10),
    );
    format!(
        "{entry}: PTX {isa} is newer than this driver's {limit} (CUDA {}.{}) and {why}: the driver answers 222; `pip install nvidia-nvjitlink` >= {release} (CUDA_STUBS_NVJITLINK_PATH), or a driver of CUDA {release} or newer",
        driver_version / 1000,
        driver_version % 1000 / 10,
    )
}

#[allow(clippy::too_many_arguments)]
fn reconcile(
    entry: &str,
    library: &str,
    input: Input,
    bytes: &[u8],
    isa: PtxIsa,
    limit: PtxIsa,
    arch: Arch,
    driver_version: i32,
    options: &JitOptions,
) -> Outcome {
    let arch_text = format!("{arch}");
    let flags = options.nvjitlink_flags(&arch_text);
    let joined: Vec<u8> = flags
        .iter()
        .flat_map(|f| f.as_bytes_with_nul())
        .copied()
        .collect();
    if let Some(cubin) = cache::find(bytes, &joined) {
        line(
            library,
            format_args!(
                "{entry}: PTX {isa} > the driver's {limit}: {arch_text} CUBIN from the cache"
            ),
        );
        return Outcome::Cubin(Reconciled {
            cubin,
            info_log: Vec::new(),
            millis: 0.0,
            cached: true,
            sm: arch.0,
        });
    }
    let fail = |why: String, error_log: Vec<u8>| {
        let text = failure_text(entry, isa, limit, driver_version, &why);
        line(library, format_args!("{text}"));
        Outcome::Failed(Failure { text, error_log })
    };
    let have = match usable_nvjitlink(isa) {
        Ok(have) => have,
        Err(why) => return fail(why, Vec::new()),
    };
    let refs: Vec<&core::ffi::CStr> = flags.iter().map(CString::as_c_str).collect();
    let start = clock_ns();
    match nvjitlink::compile(&[(input, bytes)], &refs) {
        Ok(linked) => {
            let ns = clock_ns().saturating_sub(start);
            let millis = ns as f32 / 1e6;
            let cubin = cache::keep(bytes, &joined, linked.cubin);
            line(
                library,
                format_args!(
                    "{entry}: PTX {isa} > the driver's {limit}: {arch_text} CUBIN ({} bytes) by nvJitLink {}.{} in {} ms",
                    cubin.len(),
                    have / 1000,
                    have % 1000 / 10,
                    Millis(ns)
                ),
            );
            Outcome::Cubin(Reconciled {
                cubin,
                info_log: linked.info_log,
                millis,
                cached: false,
                sm: arch.0,
            })
        }
        Err(e) => fail(
            format!(
                "nvJitLink failed ({} answered {}: {})",
                e.call,
                e.code,
                Lossy(&e.error_log)
            ),
            e.error_log,
        ),
    }
}
