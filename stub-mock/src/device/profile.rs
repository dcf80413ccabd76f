//! Profiles: what the mock device is. A TOML file (the book's "Testing without a GPU" chapter
//! documents it; `profiles/*.toml` are the built-in ones, read off real boards or made from
//! NVIDIA's published tables), chosen by `CUDA_STUBS_MOCK`:
//!
//! - `NAME`: a built-in profile ([`BUILT_IN`]: `h200`, `h100`, `a100`, `l4`, `rtx4090`, `b200`);
//! - a path (absolute, or naming a `.toml` file): the user's own;
//! - either followed by `:COUNT`: that many devices (default: the profile's `devices`);
//! - `list` ([`LIST`]): no profile; the status lists the built-in ones, one entry each
//!   ([`built_in_lines`]), and the stubs bind nothing, as for a name that is not built in.
//!
//! A profile that does not parse, or names an unknown field, or whose value has the wrong type
//! or is out of range, is an error naming the file, the line and the field ([`ProfileError`]):
//! the mock then answers every call with its library's "not initialized" code, and
//! `cuda_stubs_mock_status` says why.

use crate::device::attributes::ATTRIBUTES;
use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::ffi::CString;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::Deserialize;

/// The built-in profiles: name, TOML text. `h200` and `h100` are read off real boards; `a100`,
/// `l4`, `rtx4090` and `b200` are made from NVIDIA's published tables and, for what no table
/// gives, the captured board of the nearest architecture (each file's header says which value
/// is which). The order is the listing's ([`built_in_lines`]).
pub static BUILT_IN: &[(&str, &str)] = &[
    ("h200", include_str!("../../profiles/h200.toml")),
    ("h100", include_str!("../../profiles/h100.toml")),
    ("a100", include_str!("../../profiles/a100.toml")),
    ("l4", include_str!("../../profiles/l4.toml")),
    ("rtx4090", include_str!("../../profiles/rtx4090.toml")),
    ("b200", include_str!("../../profiles/b200.toml")),
];

/// `CUDA_STUBS_MOCK=list`: the built-in profiles listed in the status, nothing bound.
pub const LIST: &str = "list";

/// What the status of `CUDA_STUBS_MOCK=list` says before the entries (`; ` between them):
/// `python -m cuda_stubs --mock-profiles` reads the entries after it.
pub const LIST_HEAD: &str =
    "CUDA_STUBS_MOCK=list: nothing bound (name a profile to use one); the built-in profiles: ";

/// Attributes a profile must list (the model and the launch checks read them).
const REQUIRED: [&str; 4] = [
    "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR",
    "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR",
    "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT",
    "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
];

/// The ranges of the attributes the model and the launch checks rely on (inclusive). The
/// limits on threads and block and grid sizes are every compute capability's (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability"); the others are wide
/// bounds only a typo crosses.
const RANGES: &[(&str, i64, i64)] = &[
    ("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR", 1, 99),
    ("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR", 0, 9),
    ("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", 1, 4096),
    ("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", 1, 1024),
    ("CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X", 1, 1024),
    ("CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y", 1, 1024),
    ("CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z", 1, 64),
    ("CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X", 1, 2_147_483_647),
    ("CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y", 1, 65535),
    ("CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z", 1, 65535),
    ("CU_DEVICE_ATTRIBUTE_WARP_SIZE", 32, 32),
    (
        "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR",
        32,
        4096,
    ),
    ("CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR", 1, 1024),
];

/// The attributes whose value may be negative: NUMA ids (`-1`: none) and the PCI ids, whose
/// top bit is the device id's.
const SIGNED: [&str; 4] = [
    "CU_DEVICE_ATTRIBUTE_NUMA_ID",
    "CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID",
    "CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID",
    "CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID",
];

/// One entry per built-in profile, in [`BUILT_IN`]'s order: `h200: NVIDIA H200, sm_90,
/// 139.8 GiB, driver 580.159.04 (CUDA 13.0)` (the memory is CUDA's total, GiB to a tenth).
pub fn built_in_lines() -> Vec<String> {
    BUILT_IN
        .iter()
        .map(|(name, text)| match Profile::parse(name, text, None) {
            Ok(p) => p.summary(),
            Err(e) => format!("{name}: {e}"),
        })
        .collect()
}

/// The most devices a profile may describe (NVML's and the runtime's device numbers are `int`;
/// no machine has more than this many).
const MAX_DEVICES: u32 = 64;

/// The largest profile file read (the built-in ones are 8 KiB).
const MAX_FILE: usize = 1 << 20;

/// Why a profile cannot be used: the profile's name or path, and the field or the parse error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError(pub String);

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One device of the profile, as every library of the mock reports it.
#[derive(Debug, Clone)]
pub struct DeviceProfile {
    /// `cuDeviceGetName`, `cudaDeviceProp::name`, `nvmlDeviceGetName`.
    pub name: String,
    /// The 16 bytes of `cuDeviceGetUuid` (`nvmlDeviceGetUUID`'s `GPU-…` text spells them).
    pub uuid: [u8; 16],
    /// PCI domain, bus, device, function.
    pub pci: [u32; 4],
    /// Bytes: `cuDeviceTotalMem`, `cudaMemGetInfo`'s total, NVML's total.
    pub total_memory: u64,
    /// `CU_DEVICE_ATTRIBUTE_*` number → value; one the profile does not list is "invalid value".
    pub attributes: BTreeMap<i32, i32>,
    /// NVML's readings.
    pub nvml: Nvml,
}

impl DeviceProfile {
    /// The value of attribute number `number` (`CUdevice_attribute`, the runtime's
    /// `cudaDeviceAttr` alike), if the profile lists it.
    pub fn value(&self, number: i32) -> Option<i32> {
        self.attributes.get(&number).copied()
    }

    /// The value of the attribute `cuda.h` names `name`, 0 where the profile does not list it
    /// (as a real device answers 0 for a capability it lacks).
    pub fn named(&self, name: &str) -> i32 {
        attribute(name).and_then(|n| self.value(n)).unwrap_or(0)
    }
}

/// The readings NVML reports for a device (units in each field's comment).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nvml {
    /// Bytes the driver reserves on the device, which NVML counts in its total and as used
    /// (`nvmlDeviceGetMemoryInfo_v2`'s `reserved`); CUDA's total leaves them out.
    pub memory_reserved: u64,
    /// °C, `NVML_TEMPERATURE_GPU`.
    pub temperature: u32,
    /// Milliwatts, `nvmlDeviceGetPowerUsage`.
    pub power_usage: u32,
    /// Milliwatts, `nvmlDeviceGetPowerManagementLimit` and `…GetEnforcedPowerLimit`.
    pub power_limit: u32,
    /// Percent, `nvmlDeviceGetUtilizationRates`.
    pub utilization_gpu: u32,
    /// Percent, `nvmlDeviceGetUtilizationRates`.
    pub utilization_memory: u32,
    /// MHz, `nvmlDeviceGetClockInfo(NVML_CLOCK_GRAPHICS)`.
    pub clock_graphics: u32,
    /// MHz, `NVML_CLOCK_SM`.
    pub clock_sm: u32,
    /// MHz, `NVML_CLOCK_MEM`.
    pub clock_memory: u32,
    /// MHz, `nvmlDeviceGetMaxClockInfo(NVML_CLOCK_GRAPHICS)`.
    pub max_clock_graphics: u32,
    /// MHz, `NVML_CLOCK_SM`.
    pub max_clock_sm: u32,
    /// MHz, `NVML_CLOCK_MEM`.
    pub max_clock_memory: u32,
    /// `nvmlDeviceGetPerformanceState`: 0 (P0, the most) to 15.
    pub performance_state: u32,
    // The board's fixed facts and settings, each optional: a query of one the profile lacks
    // answers NVML_ERROR_NOT_SUPPORTED, as NVML does for a board without it.
    /// Milliwatts, `nvmlDeviceGetPowerManagementDefaultLimit`.
    #[serde(default)]
    pub power_default_limit: Option<u32>,
    /// Bytes of BAR1 (`nvmlDeviceGetBAR1MemoryInfo`'s total).
    #[serde(default)]
    pub bar1_total: Option<u64>,
    /// Bytes of BAR1 in use (its `bar1Used`; free is the rest).
    #[serde(default)]
    pub bar1_used: Option<u64>,
    /// `nvmlDeviceGetPersistenceMode`: 0 disabled, 1 enabled.
    #[serde(default)]
    pub persistence_mode: Option<u32>,
    /// `nvmlDeviceGetNumGpuCores`.
    #[serde(default)]
    pub num_gpu_cores: Option<u32>,
    /// Bits, `nvmlDeviceGetMemoryBusWidth`.
    #[serde(default)]
    pub memory_bus_width: Option<u32>,
    /// `nvmlDeviceGetArchitecture` (`NVML_DEVICE_ARCH_HOPPER` is 9).
    #[serde(default)]
    pub architecture: Option<u32>,
    /// `nvmlDeviceGetCurrPcieLinkGeneration`.
    #[serde(default)]
    pub pcie_link_gen_current: Option<u32>,
    /// `nvmlDeviceGetMaxPcieLinkGeneration`.
    #[serde(default)]
    pub pcie_link_gen_max: Option<u32>,
    /// Lanes, `nvmlDeviceGetCurrPcieLinkWidth`.
    #[serde(default)]
    pub pcie_link_width_current: Option<u32>,
    /// Lanes, `nvmlDeviceGetMaxPcieLinkWidth`.
    #[serde(default)]
    pub pcie_link_width_max: Option<u32>,
    /// `nvmlDeviceGetComputeMode`: 0 default, 1 exclusive thread, 2 prohibited, 3 exclusive
    /// process.
    #[serde(default)]
    pub compute_mode: Option<u32>,
    /// `nvmlDeviceGetEccMode`'s current: 0 or 1.
    #[serde(default)]
    pub ecc_mode_current: Option<u32>,
    /// Its pending.
    #[serde(default)]
    pub ecc_mode_pending: Option<u32>,
    /// `nvmlDeviceGetMigMode`'s current: 0 or 1.
    #[serde(default)]
    pub mig_mode_current: Option<u32>,
    /// Its pending.
    #[serde(default)]
    pub mig_mode_pending: Option<u32>,
    /// `nvmlDeviceGetVbiosVersion`.
    #[serde(default)]
    pub vbios_version: Option<String>,
    /// `nvmlDeviceGetBoardPartNumber`.
    #[serde(default)]
    pub board_part_number: Option<String>,
}

/// A profile ready for the model: its devices and the driver's versions.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The name given (`h200`) or the file's path.
    pub name: String,
    /// The devices, numbered from 0.
    pub devices: Vec<DeviceProfile>,
    /// `1000 * major + 10 * minor`: `cuDriverGetVersion`, `cudaDriverGetVersion`.
    pub cuda_version: i32,
    /// The driver's version text (`580.126.09`): `nvmlSystemGetDriverVersion`.
    pub driver_version: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    profile: Meta,
    driver: Driver,
    device: Device,
    attributes: BTreeMap<String, i64>,
    nvml: Nvml,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    #[allow(dead_code)] // Documentation for the reader of the file; the name chosen is the name.
    name: String,
    #[allow(dead_code)]
    description: String,
    devices: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Driver {
    cuda_version: i32,
    version: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Device {
    name: String,
    uuid: String,
    pci_bus_id: String,
    total_memory: u64,
}

impl Profile {
    /// The profile `CUDA_STUBS_MOCK` names (see the module's docs).
    pub fn chosen(value: &str) -> Result<Profile, ProfileError> {
        if value == LIST {
            return Err(ProfileError(format!(
                "{LIST_HEAD}{}",
                built_in_lines().join("; ")
            )));
        }
        let (what, count) = match value.rsplit_once(':') {
            Some((what, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                let n = n
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_DEVICES).contains(n));
                let n = n.ok_or_else(|| {
                    ProfileError(format!(
                        "CUDA_STUBS_MOCK={value}: the device count is 1 to {MAX_DEVICES}"
                    ))
                })?;
                (what, Some(n))
            }
            _ => (value, None),
        };
        let text = if what.contains('/') || what.ends_with(".toml") {
            let unread =
                |why: &str| ProfileError(format!("CUDA_STUBS_MOCK={value}: {what}: {why}"));
            let path = CString::new(what).map_err(|_| unread("a path with a NUL byte"))?;
            let bytes = stub_loader::sync::read_file(&path, MAX_FILE).ok_or_else(|| {
                unread("cannot be read (no such file, no permission, or over 1 MiB)")
            })?;
            String::from_utf8(bytes).map_err(|_| unread("not UTF-8 text"))?
        } else {
            match BUILT_IN.iter().find(|(name, _)| *name == what) {
                Some((_, text)) => (*text).to_owned(),
                None => {
                    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
                    return Err(ProfileError(format!(
                        "CUDA_STUBS_MOCK={value}: no built-in profile {what:?} (built in: {}; or a path to a .toml file; `list` lists them)",
                        names.join(", ")
                    )));
                }
            }
        };
        Profile::parse(what, &text, count)
    }

    /// Parses a profile's TOML `text`; `count` overrides its device count. `what` names it in
    /// errors.
    pub fn parse(what: &str, text: &str, count: Option<u32>) -> Result<Profile, ProfileError> {
        let file: File = toml::from_str(text).map_err(|e| {
            // One line, for the stubs' status: the line number, the field on it and toml's
            // message, not its multi-line excerpt of the file.
            let at = e.span().map_or(0, |s| {
                1 + text.get(..s.start).map_or(0, |t| t.matches('\n').count())
            });
            let field = field_at(text, at).map_or(String::new(), |f| format!("{f}: "));
            ProfileError(format!(
                "profile {what}: line {at}: {field}{}",
                e.message().trim_end()
            ))
        })?;
        // The file, the line and the field: the key's line, or its section's where the key is
        // missing.
        let bad = |section: &str, key: &str, why: String| {
            let at = line_of(text, section, key).map_or(String::new(), |n| format!("line {n}: "));
            ProfileError(format!("profile {what}: {at}[{section}] {key}: {why}"))
        };
        let devices = count.unwrap_or(file.profile.devices);
        if !(1..=MAX_DEVICES).contains(&devices) {
            return Err(bad(
                "profile",
                "devices",
                format!("{devices}: 1 to {MAX_DEVICES}"),
            ));
        }
        let v = file.driver.cuda_version;
        if !(11000..100_000).contains(&v) || v % 10 != 0 {
            return Err(bad(
                "driver",
                "cuda_version",
                format!("{v}: 1000 * major + 10 * minor, CUDA 11.0 or later (13000 is 13.0)"),
            ));
        }
        if file.driver.version.is_empty() || file.driver.version.len() > 79 {
            return Err(bad("driver", "version", "1 to 79 characters".into()));
        }
        let d = &file.device;
        if d.name.is_empty() || d.name.len() > 95 {
            return Err(bad("device", "name", "1 to 95 characters".into()));
        }
        let uuid = parse_uuid(&d.uuid).ok_or_else(|| {
            bad(
                "device",
                "uuid",
                format!(
                    "{:?}: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex)",
                    d.uuid
                ),
            )
        })?;
        let pci = parse_pci(&d.pci_bus_id).ok_or_else(|| {
            bad(
                "device",
                "pci_bus_id",
                format!(
                    "{:?}: DDDD:BB:DD.F (hex), as nvidia-smi prints it",
                    d.pci_bus_id
                ),
            )
        })?;
        if d.total_memory == 0 {
            return Err(bad("device", "total_memory", "bytes, more than 0".into()));
        }
        let mut attributes = BTreeMap::new();
        for (name, &value) in &file.attributes {
            let Some(&(_, number)) = ATTRIBUTES.iter().find(|(n, _)| n == name) else {
                return Err(bad(
                    "attributes",
                    name,
                    "no such CUdevice_attribute in cuda.h 13.5".into(),
                ));
            };
            let value = i32::try_from(value)
                .map_err(|_| bad("attributes", name, format!("{value}: not an int")))?;
            if let Some(&(_, low, high)) = RANGES.iter().find(|(n, _, _)| n == name) {
                if !(low..=high).contains(&i64::from(value)) {
                    return Err(bad("attributes", name, format!("{value}: {low} to {high}")));
                }
            } else if value < 0 && !SIGNED.contains(&name.as_str()) {
                return Err(bad(
                    "attributes",
                    name,
                    format!("{value}: a count, size or flag, 0 or more"),
                ));
            }
            attributes.insert(number, value);
        }
        for required in REQUIRED {
            if !file.attributes.contains_key(required) {
                return Err(bad("attributes", required, "missing".into()));
            }
        }
        let n = &file.nvml;
        for (field, value, max) in [
            ("persistence_mode", n.persistence_mode, 1),
            ("compute_mode", n.compute_mode, 3),
            ("ecc_mode_current", n.ecc_mode_current, 1),
            ("ecc_mode_pending", n.ecc_mode_pending, 1),
            ("mig_mode_current", n.mig_mode_current, 1),
            ("mig_mode_pending", n.mig_mode_pending, 1),
            ("performance_state", Some(n.performance_state), 15),
        ] {
            if let Some(v) = value.filter(|&v| v > max) {
                return Err(bad("nvml", field, format!("{v}: 0 to {max}")));
            }
        }
        if let Some(used) = n.bar1_used.filter(|&u| n.bar1_total.is_none_or(|t| u > t)) {
            return Err(bad(
                "nvml",
                "bar1_used",
                format!("{used}: at most bar1_total, which it needs"),
            ));
        }
        for (field, text) in [
            ("vbios_version", &n.vbios_version),
            ("board_part_number", &n.board_part_number),
        ] {
            if text.as_ref().is_some_and(|t| t.is_empty() || t.len() > 79) {
                return Err(bad("nvml", field, "1 to 79 characters".into()));
            }
        }
        let one = DeviceProfile {
            name: d.name.clone(),
            uuid,
            pci,
            total_memory: d.total_memory,
            attributes,
            nvml: file.nvml,
        };
        let devices = (0..devices)
            .map(|i| {
                // Each device its own UUID and bus, as on a real multi-GPU board: the profile's
                // for device 0, then the last UUID byte and the bus counted up.
                let mut dev = one.clone();
                dev.uuid[15] = dev.uuid[15].wrapping_add(i as u8);
                dev.pci[1] = (dev.pci[1] + i) % 256;
                if let Some(v) = dev.attributes.get_mut(&pci_bus_attribute()) {
                    *v = dev.pci[1] as i32;
                }
                dev
            })
            .collect();
        Ok(Profile {
            name: what.to_owned(),
            devices,
            cuda_version: v,
            driver_version: file.driver.version,
        })
    }
}

impl Profile {
    /// The listing's entry for this profile (see [`built_in_lines`]).
    fn summary(&self) -> String {
        let Some(d) = self.devices.first() else {
            return format!("{}: no device", self.name);
        };
        // GiB to a tenth, rounded, in integers (no floating point in the mock).
        let tenths = (d.total_memory.saturating_mul(10) + (1 << 29)) >> 30;
        format!(
            "{}: {}, sm_{}{}, {}.{} GiB, driver {} (CUDA {}.{})",
            self.name,
            d.name,
            d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"),
            d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"),
            tenths / 10,
            tenths % 10,
            self.driver_version,
            self.cuda_version / 1000,
            self.cuda_version % 1000 / 10
        )
    }
}

/// The line (from 1) of `key` in the table `[section]` of the TOML `text`, or of the section's
/// header where the key is not in it; `None` where neither is. A plain reading of the lines
/// (`[name]` headers, `key = value`), which is how profiles are written; an error inside a
/// value the parser rejected already carries its line.
fn line_of(text: &str, section: &str, key: &str) -> Option<usize> {
    let mut current = "";
    let mut header = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.split(']').next()) {
            current = name.trim();
            if current == section && header.is_none() {
                header = Some(i + 1);
            }
        } else if current == section
            && line
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return Some(i + 1);
        }
    }
    header
}

/// The field on line `at` (from 1) of the TOML `text`, as `[section] key`, where that line is
/// a `key = value` line; `None` for a header, a blank or a continued value.
fn field_at(text: &str, at: usize) -> Option<String> {
    let mut section = "";
    for (i, line) in text.lines().enumerate().take(at) {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.split(']').next()) {
            section = name.trim();
        } else if i + 1 == at {
            let (key, _) = line.split_once('=')?;
            let key = key.trim();
            let bare = !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            return bare.then(|| format!("[{section}] {key}"));
        }
    }
    None
}

/// `CU_DEVICE_ATTRIBUTE_PCI_BUS_ID`'s number.
fn pci_bus_attribute() -> i32 {
    attribute("CU_DEVICE_ATTRIBUTE_PCI_BUS_ID").unwrap_or(-1)
}

/// The number of the attribute `name` (`cuda.h`).
pub fn attribute(name: &str) -> Option<i32> {
    ATTRIBUTES.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// `GPU-` and 32 hex digits in groups of 8-4-4-4-12, as `nvidia-smi -L` prints them.
fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let hex = text.strip_prefix("GPU-")?;
    let groups: Vec<&str> = hex.split('-').collect();
    if groups.iter().map(|g| g.len()).collect::<Vec<_>>() != [8, 4, 4, 4, 12] {
        return None;
    }
    let digits: String = groups.concat();
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(digits.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// `DDDD:BB:DD.F` (or nvidia-smi's eight-digit domain), hex.
fn parse_pci(text: &str) -> Option<[u32; 4]> {
    let (domain, rest) = text.split_once(':')?;
    let (bus, rest) = rest.split_once(':')?;
    let (device, function) = rest.split_once('.')?;
    let field = |s: &str, max: u32| {
        u32::from_str_radix(s, 16)
            .ok()
            .filter(|&v| v <= max && !s.is_empty())
    };
    Some([
        field(domain, 0xffff_ffff)?,
        field(bus, 0xff)?,
        field(device, 0x1f)?,
        field(function, 0x7)?,
    ])
}

/// The UUID as NVML and `nvidia-smi` spell it.
pub fn uuid_text(uuid: &[u8; 16]) -> String {
    let h: String = uuid.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}
