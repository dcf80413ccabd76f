//! What a kernel's device code says of its resources, as the driver reads it off the image for
//! `cuFuncGetAttribute` and `cudaFuncGetAttributes` (registers, static shared, user constant and
//! local memory, `__launch_bounds__`, barriers, its architecture), and the attributes a program
//! sets on a function (`cuFuncSetAttribute`, `cudaFuncSetAttribute`, the cache preference),
//! which the occupancy calculator (`occupancy.rs`) reads beside them.
//!
//! A CUBIN (read off nvcc 13.5's, `ptxas -v` beside them; not in a public header):
//!
//! - the global `.nv.info` section's `EIFMT_SVAL` records (format 4, a `u16` size, the value):
//!   `EIATTR_REGCOUNT` (0x2f) and `EIATTR_FRAME_SIZE` (0x11), each a `u32` symbol index then a
//!   `u32` value (registers per thread; bytes of local memory per thread);
//! - the kernel's `.nv.info.<kernel>`: `EIATTR_MAX_THREADS` (0x05, `__launch_bounds__`'s
//!   `maxThreadsPerBlock`: three `u32`, x·y·z) and `EIATTR_NUM_BARRIERS` (0x4c, format 2, the
//!   count in the byte after the attribute's);
//! - `.nv.shared.<kernel>`'s size, static shared memory; from sm_90 (a `.nv.shared.reserved.*`
//!   section present) it counts the 1 KiB the driver reserves per block, which `ptxas -v` and the
//!   attribute leave out;
//! - `.nv.constant3`, the module's `__constant__` bank, user constant memory;
//! - `e_flags`, the architecture (`binaryVersion`; `ptxVersion`, the virtual architecture nvcc
//!   built from, is the same for `-arch=sm_XX`).
//!
//! PTX: the driver's JIT decides registers and local memory, which the mock cannot know without
//! compiling: it answers the `.maxnreg` the PTX declares, else 32 (`ptxas`'s usual count for a
//! small kernel is lower; the answer errs on the side of fewer blocks per SM), local memory 0;
//! static shared memory is the `.shared` arrays the text declares; `.maxntid` the bound.

use alloc::collections::BTreeMap;
use stub_loader::sync::Mutex;

/// `EIATTR_MAX_THREADS`, `EIATTR_FRAME_SIZE`, `EIATTR_REGCOUNT`, `EIATTR_NUM_BARRIERS`.
const MAX_THREADS: u8 = 0x05;
const FRAME_SIZE: u8 = 0x11;
const REGCOUNT: u8 = 0x2f;
const NUM_BARRIERS: u8 = 0x4c;
/// `EIFMT_BVAL`, `EIFMT_SVAL`.
const BVAL: u8 = 2;
const SVAL: u8 = 4;
/// The shared memory the driver reserves per block from sm_80 (the device attribute
/// `CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK`), which an sm_90 CUBIN's
/// `.nv.shared.<kernel>` counts.
const RESERVED_SHARED: u64 = 1024;
/// The registers per thread the mock assumes of PTX without `.maxnreg` (module docs).
const PTX_REGISTERS: u32 = 32;

/// One kernel's resources, as its device code says them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Attributes {
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory per block, bytes.
    pub shared: u64,
    /// User constant memory (`__constant__`) of its module, bytes.
    pub constant: u64,
    /// Local memory per thread, bytes.
    pub local: u64,
    /// `__launch_bounds__`' threads per block (`.maxntid`), 0 for none.
    pub max_threads: u32,
    /// Named barriers the kernel uses (`bar.sync` ids; `__syncthreads` is one).
    pub barriers: u32,
    /// The architecture of its code (`major * 10 + minor`): `binaryVersion`.
    pub binary_version: u32,
    /// The virtual architecture it was compiled from: `ptxVersion`.
    pub ptx_version: u32,
}

/// The `u32` at `at` in `b`, 0 past its end.
fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at.wrapping_add(4))
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// Each attribute record of an `.nv.info` section: (format, attribute, value bytes; for a
/// format other than `EIFMT_SVAL`, the two bytes after the attribute).
fn records(info: &[u8]) -> impl Iterator<Item = (u8, u8, &[u8])> {
    let mut at = 0usize;
    core::iter::from_fn(move || {
        let head = info.get(at..at.checked_add(4)?)?;
        let (format, attribute) = (*head.first()?, *head.get(1)?);
        if format != SVAL {
            at += 4;
            return Some((format, attribute, head.get(2..4)?));
        }
        let size = usize::from(u16::from_le_bytes([*head.get(2)?, *head.get(3)?]));
        let value = info.get(at + 4..at + 4 + size)?;
        at += 4 + size;
        Some((format, attribute, value))
    })
}

/// The attributes of `kernel` in the ELF file `cubin` (`None` if it is no CUBIN with that
/// kernel).
pub fn from_cubin(cubin: &[u8], kernel: &str) -> Option<Attributes> {
    use object::read::elf::ElfFile64;
    use object::{Object, ObjectSection, ObjectSymbol};
    let file = ElfFile64::<object::Endianness>::parse(cubin).ok()?;
    let symbol = file.symbols().find(|s| s.name() == Ok(kernel))?.index().0 as u32;
    let flags = u32_at(cubin, 48);
    // The sm in e_flags: bits 8-15 from CUDA 13's ELF ABI, the low byte before (`image.rs`).
    let arch = if cubin.get(7) == Some(&65) || cubin.get(8).is_some_and(|&v| v >= 8) {
        (flags >> 8) & 0xff
    } else {
        flags & 0xff
    };
    let mut a = Attributes {
        binary_version: arch,
        ptx_version: arch,
        ..Attributes::default()
    };
    let section_size = |name: &str| file.section_by_name(name).map_or(0, |s| s.size());
    if let Some(info) = file.section_by_name(".nv.info").and_then(|s| s.data().ok()) {
        for (format, attribute, value) in records(info) {
            if format != SVAL || u32_at(value, 0) != symbol {
                continue;
            }
            match attribute {
                REGCOUNT => a.registers = u32_at(value, 4),
                FRAME_SIZE => a.local = u64::from(u32_at(value, 4)),
                _ => {}
            }
        }
    }
    let own = alloc::format!(".nv.info.{kernel}");
    if let Some(info) = file.section_by_name(&own).and_then(|s| s.data().ok()) {
        for (format, attribute, value) in records(info) {
            match (format, attribute) {
                (SVAL, MAX_THREADS) => {
                    a.max_threads = u32_at(value, 0)
                        .wrapping_mul(u32_at(value, 4).max(1))
                        .wrapping_mul(u32_at(value, 8).max(1));
                }
                (BVAL, NUM_BARRIERS) => a.barriers = u32::from(*value.first().unwrap_or(&0)),
                _ => {}
            }
        }
    }
    let shared = section_size(&alloc::format!(".nv.shared.{kernel}"));
    let reserved = file
        .sections()
        .any(|s| s.name().is_ok_and(|n| n.starts_with(".nv.shared.reserved")));
    a.shared = if reserved {
        shared.saturating_sub(RESERVED_SHARED)
    } else {
        shared
    };
    a.constant = section_size(".nv.constant3");
    Some(a)
}

/// The `.entry kernel`'s text in `text`: from its name to the end of its body.
fn entry<'a>(text: &'a str, kernel: &str) -> Option<&'a str> {
    let body = text.split(".entry").skip(1).find(|s| {
        s.trim_start()
            .strip_prefix(kernel)
            .is_some_and(|r| r.trim_start().starts_with('('))
    })?;
    Some(body)
}

/// The bytes of a `.shared` declaration (`.shared .align 4 .b8 tile[4096];`).
fn shared_bytes(line: &str) -> u64 {
    let words: alloc::vec::Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(size) = words.iter().find_map(|w| {
        let bits: u64 = w.get(2..)?.parse().ok()?;
        matches!(w.as_bytes().get(1), Some(b'b' | b'u' | b's' | b'f')).then_some(bits / 8)
    }) else {
        return 0;
    };
    let count = words
        .last()
        .and_then(|n| n.split_once('['))
        .map_or(Some(1), |(_, c)| {
            c.trim_end_matches(']').parse::<u64>().ok()
        })
        .unwrap_or(0);
    size.saturating_mul(count)
}

/// The attributes of the `.entry kernel` of the PTX `text`, for a device of `sm` (module docs).
pub fn from_ptx(text: &str, kernel: &str, sm: u32) -> Option<Attributes> {
    let body = entry(text, kernel)?;
    // Its directives before the body's brace (`.maxntid 256, 1, 1`, `.maxnreg 64`).
    let head = body.split_once('{').map_or(body, |(h, _)| h);
    let directive = |name: &str| -> Option<alloc::vec::Vec<u32>> {
        let rest = head.split_once(name)?.1;
        let line = rest.split(['\n', '.', '{']).next()?;
        Some(
            line.split(',')
                .filter_map(|v| v.trim().parse().ok())
                .collect(),
        )
    };
    let registers = directive(".maxnreg")
        .and_then(|v| v.first().copied())
        .unwrap_or(PTX_REGISTERS);
    let max_threads =
        directive(".maxntid").map_or(0, |v| v.iter().fold(1u32, |p, &d| p.wrapping_mul(d.max(1))));
    // The entry's body up to the next entry: its own `.shared` arrays and its barriers.
    let shared = body
        .lines()
        .filter(|l| l.trim_start().starts_with(".shared"))
        .map(shared_bytes)
        .sum();
    let barriers = u32::from(body.contains("bar.sync") || body.contains("barrier.sync"));
    Some(Attributes {
        registers,
        shared,
        constant: 0,
        local: 0,
        max_threads,
        barriers,
        binary_version: sm,
        ptx_version: sm,
    })
}

/// What a program sets on one function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// `MAX_DYNAMIC_SHARED_SIZE_BYTES`, when set.
    pub max_dynamic_shared: Option<u32>,
    /// `PREFERRED_SHARED_MEMORY_CARVEOUT`: percent, -1 for the default.
    pub carveout: i32,
    /// The cache preference (`CUfunc_cache`: 0 none, 1 shared, 2 L1, 3 equal).
    pub cache: u32,
    /// `NON_PORTABLE_CLUSTER_SIZE_ALLOWED`, `CLUSTER_SCHEDULING_POLICY_PREFERENCE`.
    pub non_portable_cluster: i32,
    pub cluster_policy: i32,
    /// `REQUIRED_CLUSTER_WIDTH`, `_HEIGHT`, `_DEPTH`.
    pub cluster: [i32; 3],
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_dynamic_shared: None,
            carveout: -1,
            cache: 0,
            non_portable_cluster: 0,
            cluster_policy: 0,
            cluster: [0; 3],
        }
    }
}

/// Settings by function: `(false, CUfunction)` of the driver, `(true, host function)` of the
/// runtime (the two name one kernel apart, as the real runtime and driver keep them).
static SETTINGS: Mutex<BTreeMap<(bool, usize), Settings>> = Mutex::new(BTreeMap::new());

/// The settings of a function (the defaults if none was set).
pub fn settings(runtime: bool, function: usize) -> Settings {
    SETTINGS
        .lock()
        .get(&(runtime, function))
        .copied()
        .unwrap_or_default()
}

/// Changes the settings of a function.
pub fn set(runtime: bool, function: usize, change: impl FnOnce(&mut Settings)) {
    let mut s = SETTINGS.lock();
    change(s.entry((runtime, function)).or_default());
}

/// Forgets the settings of a function whose code is gone (a module unloaded).
pub fn forget(runtime: bool, function: usize) {
    SETTINGS.lock().remove(&(runtime, function));
}

/// The attributes the mock answers for a kernel whose code it cannot read (a compressed CUBIN,
/// a kernel the image's tables do not name) on an `sm` device: as for PTX without `.maxnreg`.
pub fn unknown(sm: u32) -> Attributes {
    Attributes {
        registers: PTX_REGISTERS,
        binary_version: sm,
        ptx_version: sm,
        ..Attributes::default()
    }
}
