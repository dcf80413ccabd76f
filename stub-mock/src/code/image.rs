//! Device code handed to the mock's driver, checked as a driver checks it against the
//! profile's device and driver (the same rules as the tests' stand-in driver,
//! `tests/mocks/stand_in_driver.c`): a CUBIN (ELF, `e_machine` 190 `EM_CUDA`) must be built for
//! the device's major with a minor no newer; PTX must have an ISA the driver reads
//! (`stub_spec::max_ptx_isa`: 222 `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` above it) and a
//! `.target` the device runs (209 `CUDA_ERROR_NO_BINARY_FOR_GPU`); anything else is 200
//! `CUDA_ERROR_INVALID_IMAGE`. The kernels' names are what a module offers to
//! `cuModuleGetFunction`.

use alloc::string::String;
use alloc::vec::Vec;
use stub_loader::device_code::FatbinEntry;
use stub_spec::{PtxIsa, max_ptx_isa};

/// Why an image does not load: the driver's code.
pub type Refusal = u32;

/// `CUDA_ERROR_INVALID_IMAGE`, `CUDA_ERROR_NO_BINARY_FOR_GPU`, `CUDA_ERROR_INVALID_PTX`,
/// `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` (`cuda.h`).
pub const INVALID_IMAGE: Refusal = 200;
pub const NO_BINARY_FOR_GPU: Refusal = 209;
pub const INVALID_PTX: Refusal = 218;
pub const UNSUPPORTED_PTX_VERSION: Refusal = 222;

/// A kernel an image defines: its name and its parameters' sizes, if the code says
/// (`kernel_params.rs`).
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The name `cuModuleGetFunction` takes.
    pub name: String,
    /// Bytes of each parameter, in order.
    pub params: Option<Vec<usize>>,
    /// Its resources, as its code says them (`kernel_attributes.rs`).
    pub attributes: Option<crate::code::kernel_attributes::Attributes>,
}

/// The kernels an image defines, once it is known to load on an `sm` device (`major * 10 +
/// minor`) under a driver of `cuda_version`.
///
/// # Safety
/// `image` points to a NUL-terminated PTX text or to an ELF image (its header and section
/// headers readable), as the driver's own contract says.
pub unsafe fn load(image: *const u8, sm: u32, cuda_version: i32) -> Result<Vec<Kernel>, Refusal> {
    if image.is_null() {
        return Err(INVALID_IMAGE);
    }
    // SAFETY: at least the first 4 bytes of either form are readable (PTX: ".ver").
    let magic = unsafe { core::slice::from_raw_parts(image, 4) };
    if magic == b"\x7fELF" {
        // SAFETY: an ELF image, by the contract.
        return unsafe { cubin(image, sm) };
    }
    // SAFETY: NUL-terminated, by the contract.
    let text = unsafe { core::ffi::CStr::from_ptr(image.cast()) }.to_string_lossy();
    ptx(&text, sm, cuda_version)
}

fn u16_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 2)
        .map_or(0, |s| u32::from(u16::from_le_bytes([s[0], s[1]])))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> usize {
    b.get(at..at + 8).map_or(0, |s| {
        u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]) as usize
    })
}

/// A CUBIN: `EM_CUDA`, an sm the device runs, the kernels from its `.text.NAME` sections.
///
/// # Safety
/// As [`load`], for an ELF image.
unsafe fn cubin(image: *const u8, sm: u32) -> Result<Vec<Kernel>, Refusal> {
    // SAFETY: the ELF64 header (64 bytes) is readable.
    let head = unsafe { core::slice::from_raw_parts(image, 64) };
    if head[4] != 2 || u16_at(head, 18) != 190 {
        return Err(INVALID_IMAGE);
    }
    // The sm in e_flags: bits 8-15 from CUDA 13's ELF ABI (EI_OSABI 65, EI_ABIVERSION 8), the
    // low byte before (the stand-in driver's `cubin_sm` says how each was read off real files).
    let flags = u32_at(head, 48);
    let built = if head[7] == 65 || head[8] >= 8 {
        (flags >> 8) & 0xff
    } else {
        flags & 0xff
    };
    if built / 10 != sm / 10 || built % 10 > sm % 10 {
        return Err(NO_BINARY_FOR_GPU);
    }
    // The section headers and their names: `.text.<kernel>`.
    let (shoff, shentsize, shnum, shstrndx) = (
        u64_at(head, 40),
        u16_at(head, 58) as usize,
        u16_at(head, 60) as usize,
        u16_at(head, 62) as usize,
    );
    if shentsize < 64 || shnum == 0 || shstrndx >= shnum || shnum > 65_280 {
        return Err(INVALID_IMAGE);
    }
    // SAFETY: the section header table lies in the image, by the contract.
    let table = unsafe { core::slice::from_raw_parts(image.add(shoff), shentsize * shnum) };
    let header = |i: usize| &table[i * shentsize..(i + 1) * shentsize];
    let names = header(shstrndx);
    let (names_at, names_size) = (u64_at(names, 24), u64_at(names, 32));
    // SAFETY: the section-name table lies in the image, by the contract.
    let strings = unsafe { core::slice::from_raw_parts(image.add(names_at), names_size) };
    // The file's extent: its headers' tables and every section with bytes in the file
    // (`SHT_NOBITS`, 8, has none), so that it can be read as one slice.
    let (phoff, phentsize, phnum) = (
        u64_at(head, 32),
        u16_at(head, 54) as usize,
        u16_at(head, 56) as usize,
    );
    let mut len = (shoff + shentsize * shnum).max(phoff + phentsize * phnum);
    let mut names = Vec::new();
    for i in 0..shnum {
        let h = header(i);
        if u32_at(h, 4) != 8 {
            len = len.max(u64_at(h, 24) + u64_at(h, 32));
        }
        let at = u32_at(h, 0) as usize;
        let name = strings.get(at..).unwrap_or_default();
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        if let Some(kernel) = name.strip_prefix(b".text.") {
            names.push(String::from_utf8_lossy(kernel).into_owned());
        }
    }
    // SAFETY: every byte up to `len` lies in the image: its headers and sections, by the
    // contract.
    let file = unsafe { core::slice::from_raw_parts(image, len) };
    Ok(names
        .into_iter()
        .map(|name| Kernel {
            params: crate::code::kernel_params::from_cubin(file, &name),
            attributes: crate::code::kernel_attributes::from_cubin(file, &name),
            name,
        })
        .collect())
}

/// `text` past blanks and `//` / `/* */` comments.
fn skip_blank(mut text: &str) -> &str {
    loop {
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix("//") {
            text = rest.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(rest) = t.strip_prefix("/*") {
            text = rest.split_once("*/").map_or("", |(_, r)| r);
        } else {
            return t;
        }
    }
}

/// PTX: `.version` the driver reads, a `.target` the device runs, the `.entry` kernels.
fn ptx(text: &str, sm: u32, cuda_version: i32) -> Result<Vec<Kernel>, Refusal> {
    let rest = skip_blank(text)
        .strip_prefix(".version")
        .ok_or(INVALID_IMAGE)?;
    let version = rest.split_whitespace().next().ok_or(INVALID_PTX)?;
    let (major, minor) = version.split_once('.').ok_or(INVALID_PTX)?;
    let isa = PtxIsa {
        major: major.parse().map_err(|_| INVALID_PTX)?,
        minor: minor.parse().map_err(|_| INVALID_PTX)?,
    };
    if max_ptx_isa(cuda_version).is_some_and(|max| isa > max) {
        return Err(UNSUPPORTED_PTX_VERSION);
    }
    let target = skip_blank(rest.trim_start().strip_prefix(version).unwrap_or(""))
        .strip_prefix(".target")
        .ok_or(INVALID_PTX)?;
    let arch = target
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|s| !s.is_empty())
        .and_then(|s| s.strip_prefix("sm_"))
        .ok_or(INVALID_PTX)?;
    let digits: String = arch.chars().take_while(char::is_ascii_digit).collect();
    let target_sm: u32 = digits.parse().map_err(|_| INVALID_PTX)?;
    let runs = match arch.get(digits.len()..) {
        // Arch-specific: that sm only; family: the same major, a minor no newer.
        Some("a") => target_sm == sm,
        Some("f") => target_sm / 10 == sm / 10 && target_sm % 10 <= sm % 10,
        _ => target_sm <= sm,
    };
    if !runs {
        return Err(NO_BINARY_FOR_GPU);
    }
    // `.entry NAME(` (after `.visible` / `.weak`), one per kernel.
    let kernels = text
        .split(".entry")
        .skip(1)
        .filter_map(|s| {
            let name: String = s
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then(|| Kernel {
                params: crate::code::kernel_params::from_ptx(text, &name),
                attributes: crate::code::kernel_attributes::from_ptx(text, &name, sm),
                name,
            })
        })
        .collect();
    Ok(kernels)
}

/// Whether a fat binary of `entries` has code an `sm` device runs under a driver of
/// `cuda_version`, as the driver chooses it: a CUBIN of the device's major with a minor no newer,
/// or PTX of an ISA the driver reads for an architecture no newer than the device's (then
/// JIT-compiled). `Err`: 222 when PTX would run but only of an ISA the driver does not read, 209
/// when nothing is for the device.
pub fn fatbin_runs(entries: &[FatbinEntry], sm: u32, cuda_version: i32) -> Result<(), Refusal> {
    let max = max_ptx_isa(cuda_version);
    let mut too_new = false;
    for e in entries {
        match *e {
            FatbinEntry::Cubin { arch } if arch / 10 == sm / 10 && arch % 10 <= sm % 10 => {
                return Ok(());
            }
            FatbinEntry::Ptx { arch, isa } if arch <= sm => {
                if max.is_none_or(|max| isa <= max) {
                    return Ok(());
                }
                too_new = true;
            }
            _ => {}
        }
    }
    Err(if too_new {
        UNSUPPORTED_PTX_VERSION
    } else {
        NO_BINARY_FOR_GPU
    })
}
