//! NVML (`nvml.h`) over the device model, one of the mock's three API faces: the profile's
//! devices, their names, UUIDs, PCI ids and readings, and memory that follows the runtime's and
//! the driver's allocations. Every other status function of the API answers
//! `NVML_ERROR_NOT_SUPPORTED` (`unmodelled.rs`). It imports only `device/`, never another face.

use crate::device::model::{Model, model};
use crate::device::profile::{DeviceProfile, uuid_text};
use crate::types::nvml::*;
use alloc::format;
use core::ffi::{c_char, c_int, c_uint};
use stub_loader::sync::{Mutex, MutexGuard};

/// The most devices a profile has (`device/profile.rs`' limit).
const MAX: usize = 64;

/// The devices' identities: `nvmlDevice_t` of device `d` is the address of `DEVICES[d]`.
static DEVICES: [u8; MAX] = [0; MAX];

/// `nvmlInit*` calls not yet matched by `nvmlShutdown`.
static INITS: Mutex<u32> = Mutex::new(0);

/// `nvmlMemory_v2`: `NVML_STRUCT_VERSION(Memory, 2)`, the struct's size and its version.
const MEMORY_V2: c_uint = (size_of::<nvmlMemory_v2_t>() as c_uint) | (2 << 24);

fn inits() -> MutexGuard<'static, u32> {
    INITS.lock()
}

/// Runs `f` once NVML is initialized (`NVML_ERROR_UNINITIALIZED` before).
fn call(f: impl FnOnce(&'static Model) -> nvmlReturn_t) -> nvmlReturn_t {
    match model() {
        Ok(m) if *inits() > 0 => f(m),
        _ => NVML_ERROR_UNINITIALIZED,
    }
}

/// Runs `f` on the device `device` names (`NVML_ERROR_INVALID_ARGUMENT` for another handle).
fn on_device(
    device: nvmlDevice_t,
    f: impl FnOnce(&'static Model, usize, &'static DeviceProfile) -> nvmlReturn_t,
) -> nvmlReturn_t {
    call(|m| {
        let base = DEVICES.as_ptr() as usize;
        let index = (device as usize).wrapping_sub(base);
        match m.device(index as i64) {
            Some(d) if (device as usize) >= base => f(m, index, d),
            _ => NVML_ERROR_INVALID_ARGUMENT,
        }
    })
}

macro_rules! out {
    ($ptr:expr, $value:expr) => {{
        if $ptr.is_null() {
            return NVML_ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: non-NULL, and by the API's contract the caller's storage for one value.
        unsafe { *$ptr = $value };
    }};
}

/// Writes `text` into the caller's `len`-byte buffer, terminated;
/// `NVML_ERROR_INSUFFICIENT_SIZE` if it does not fit, as NVML answers.
fn text_out(text: &str, buf: *mut c_char, len: c_uint) -> nvmlReturn_t {
    if buf.is_null() {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    if !crate::c_text::fits(text, len as usize) {
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    // SAFETY: the caller's buffer of `len` bytes, by the API's contract; the text fits whole.
    unsafe { crate::c_text::write_cut(text, buf, len as usize) };
    NVML_SUCCESS
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlInit_v2() -> nvmlReturn_t {
    match model() {
        Ok(_) => {
            let mut n = inits();
            *n = n.saturating_add(1);
            NVML_SUCCESS
        }
        // No profile: as a machine whose driver is not loaded.
        Err(_) => NVML_ERROR_DRIVER_NOT_LOADED,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlInitWithFlags(_flags: c_uint) -> nvmlReturn_t {
    // SAFETY: no argument is read.
    unsafe { nvmlInit_v2() }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlShutdown() -> nvmlReturn_t {
    let mut n = inits();
    if *n == 0 {
        return NVML_ERROR_UNINITIALIZED;
    }
    *n -= 1;
    NVML_SUCCESS
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlSystemGetNVMLVersion(
    version: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    // Answers before nvmlInit (the stubs' version probe reads it): the CUDA major the driver
    // serves, then the driver's version, as NVML spells it (`13.580.126.09`).
    match model() {
        Ok(m) => {
            let p = &m.profile;
            text_out(
                &format!("{}.{}", p.cuda_version / 1000, p.driver_version),
                version,
                len,
            )
        }
        Err(_) => NVML_ERROR_DRIVER_NOT_LOADED,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlSystemGetDriverVersion(
    version: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    call(|m| text_out(&m.profile.driver_version, version, len))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlSystemGetCudaDriverVersion(version: *mut c_int) -> nvmlReturn_t {
    call(|m| {
        out!(version, m.profile.cuda_version);
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlSystemGetCudaDriverVersion_v2(version: *mut c_int) -> nvmlReturn_t {
    // SAFETY: the same contract.
    unsafe { nvmlSystemGetCudaDriverVersion(version) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetCount_v2(count: *mut c_uint) -> nvmlReturn_t {
    call(|m| {
        out!(count, m.count() as c_uint);
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetHandleByIndex_v2(
    index: c_uint,
    device: *mut nvmlDevice_t,
) -> nvmlReturn_t {
    call(|m| {
        if m.device(index.into()).is_none() {
            return NVML_ERROR_INVALID_ARGUMENT;
        }
        out!(
            device,
            (DEVICES.as_ptr() as usize + index as usize) as nvmlDevice_t
        );
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetIndex(
    device: nvmlDevice_t,
    index: *mut c_uint,
) -> nvmlReturn_t {
    on_device(device, |_, i, _| {
        out!(index, i as c_uint);
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetName(
    device: nvmlDevice_t,
    name: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| text_out(&d.name, name, len))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetUUID(
    device: nvmlDevice_t,
    uuid: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| text_out(&uuid_text(&d.uuid), uuid, len))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPciInfo_v3(
    device: nvmlDevice_t,
    pci: *mut nvmlPciInfo_t,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| {
        if pci.is_null() {
            return NVML_ERROR_INVALID_ARGUMENT;
        }
        let [domain, bus, dev, function] = d.pci;
        let id = d.named("CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID");
        let sub = d.named("CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID");
        let mut info = nvmlPciInfo_t::default();
        let legacy = format!("{domain:04x}:{bus:02x}:{dev:02x}.{function:x}");
        let full = format!("{domain:08x}:{bus:02x}:{dev:02x}.{function:x}");
        for (dst, src) in info.busIdLegacy.iter_mut().zip(legacy.bytes().take(15)) {
            *dst = src.to_ascii_uppercase() as c_char;
        }
        for (dst, src) in info.busId.iter_mut().zip(full.bytes().take(31)) {
            *dst = src.to_ascii_uppercase() as c_char;
        }
        info.domain = domain;
        info.bus = bus;
        info.device = dev;
        info.pciDeviceId = id as c_uint;
        info.pciSubSystemId = sub as c_uint;
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *pci = info };
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMemoryInfo(
    device: nvmlDevice_t,
    memory: *mut nvmlMemory_t,
) -> nvmlReturn_t {
    on_device(device, |m, i, d| {
        // NVML's total holds the driver's reserved memory, and counts it as used.
        let (free, total) = m.mem_info(i);
        let reserved = d.nvml.memory_reserved;
        out!(
            memory,
            nvmlMemory_t {
                total: total.saturating_add(reserved),
                free,
                used: (total - free).saturating_add(reserved),
            }
        );
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMemoryInfo_v2(
    device: nvmlDevice_t,
    memory: *mut nvmlMemory_v2_t,
) -> nvmlReturn_t {
    on_device(device, |m, i, d| {
        if memory.is_null() {
            return NVML_ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: non-NULL, the caller's struct, whose version the caller sets.
        if unsafe { (*memory).version } != MEMORY_V2 {
            return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
        }
        let (free, total) = m.mem_info(i);
        out!(
            memory,
            nvmlMemory_v2_t {
                version: MEMORY_V2,
                total: total.saturating_add(d.nvml.memory_reserved),
                reserved: d.nvml.memory_reserved,
                free,
                used: total - free,
            }
        );
        NVML_SUCCESS
    })
}

/// A reading of the profile's `[nvml]` table.
fn reading(
    device: nvmlDevice_t,
    value: *mut c_uint,
    read: impl FnOnce(&DeviceProfile) -> Option<u32>,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| match read(d) {
        Some(v) => {
            out!(value, v);
            NVML_SUCCESS
        }
        None => NVML_ERROR_INVALID_ARGUMENT,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetTemperature(
    device: nvmlDevice_t,
    sensor: nvmlTemperatureSensors_t,
    temp: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, temp, |d| {
        (sensor == NVML_TEMPERATURE_GPU).then_some(d.nvml.temperature)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPowerUsage(
    device: nvmlDevice_t,
    mw: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, mw, |d| Some(d.nvml.power_usage))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPowerManagementLimit(
    device: nvmlDevice_t,
    mw: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, mw, |d| Some(d.nvml.power_limit))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetEnforcedPowerLimit(
    device: nvmlDevice_t,
    mw: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, mw, |d| Some(d.nvml.power_limit))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetClockInfo(
    device: nvmlDevice_t,
    clock: nvmlClockType_t,
    mhz: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, mhz, |d| match clock {
        NVML_CLOCK_GRAPHICS => Some(d.nvml.clock_graphics),
        NVML_CLOCK_SM => Some(d.nvml.clock_sm),
        NVML_CLOCK_MEM => Some(d.nvml.clock_memory),
        _ => None,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMaxClockInfo(
    device: nvmlDevice_t,
    clock: nvmlClockType_t,
    mhz: *mut c_uint,
) -> nvmlReturn_t {
    reading(device, mhz, |d| match clock {
        NVML_CLOCK_GRAPHICS => Some(d.nvml.max_clock_graphics),
        NVML_CLOCK_SM => Some(d.nvml.max_clock_sm),
        NVML_CLOCK_MEM => Some(d.nvml.max_clock_memory),
        _ => None,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetUtilizationRates(
    device: nvmlDevice_t,
    utilization: *mut nvmlUtilization_t,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| {
        out!(
            utilization,
            nvmlUtilization_t {
                gpu: d.nvml.utilization_gpu,
                memory: d.nvml.utilization_memory,
            }
        );
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPerformanceState(
    device: nvmlDevice_t,
    state: *mut nvmlPstates_t,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| {
        out!(state, d.nvml.performance_state as nvmlPstates_t);
        NVML_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetCudaComputeCapability(
    device: nvmlDevice_t,
    major: *mut c_int,
    minor: *mut c_int,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| {
        out!(
            major,
            d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
        );
        out!(
            minor,
            d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR")
        );
        NVML_SUCCESS
    })
}

/// A fixed fact of the board (`read` from its profile): `NVML_ERROR_NOT_SUPPORTED` when the
/// profile has none, as NVML answers for a board without it.
fn fact<T>(
    device: nvmlDevice_t,
    value: *mut T,
    read: impl FnOnce(&DeviceProfile) -> Option<T>,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| match read(d) {
        Some(v) => {
            out!(value, v);
            NVML_SUCCESS
        }
        None => NVML_ERROR_NOT_SUPPORTED,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPowerManagementDefaultLimit(
    device: nvmlDevice_t,
    mw: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, mw, |d| d.nvml.power_default_limit)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetBAR1MemoryInfo(
    device: nvmlDevice_t,
    bar1: *mut nvmlBAR1Memory_t,
) -> nvmlReturn_t {
    fact(device, bar1, |d| {
        let total = d.nvml.bar1_total?;
        let used = d.nvml.bar1_used.unwrap_or(0);
        Some(nvmlBAR1Memory_t {
            bar1Total: total,
            bar1Free: total - used,
            bar1Used: used,
        })
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetTemperatureV(
    device: nvmlDevice_t,
    temperature: *mut nvmlTemperature_t,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| {
        // SAFETY: NULL or the caller's versioned struct.
        let Some(t) = (unsafe { temperature.as_mut() }) else {
            return NVML_ERROR_INVALID_ARGUMENT;
        };
        if t.version != TEMPERATURE_V1 {
            return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
        }
        if t.sensorType != NVML_TEMPERATURE_GPU {
            return NVML_ERROR_INVALID_ARGUMENT;
        }
        t.temperature = d.nvml.temperature as c_int;
        NVML_SUCCESS
    })
}

/// `nvmlTemperature_v1`: `NVML_STRUCT_VERSION(Temperature, 1)`.
const TEMPERATURE_V1: c_uint = (size_of::<nvmlTemperature_t>() as c_uint) | (1 << 24);

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetPersistenceMode(
    device: nvmlDevice_t,
    mode: *mut nvmlEnableState_t,
) -> nvmlReturn_t {
    fact(device, mode, |d| d.nvml.persistence_mode)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetNumGpuCores(
    device: nvmlDevice_t,
    cores: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, cores, |d| d.nvml.num_gpu_cores)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMemoryBusWidth(
    device: nvmlDevice_t,
    bits: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, bits, |d| d.nvml.memory_bus_width)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetArchitecture(
    device: nvmlDevice_t,
    arch: *mut nvmlDeviceArchitecture_t,
) -> nvmlReturn_t {
    fact(device, arch, |d| d.nvml.architecture)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetCurrPcieLinkGeneration(
    device: nvmlDevice_t,
    generation: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, generation, |d| d.nvml.pcie_link_gen_current)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMaxPcieLinkGeneration(
    device: nvmlDevice_t,
    generation: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, generation, |d| d.nvml.pcie_link_gen_max)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetCurrPcieLinkWidth(
    device: nvmlDevice_t,
    width: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, width, |d| d.nvml.pcie_link_width_current)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMaxPcieLinkWidth(
    device: nvmlDevice_t,
    width: *mut c_uint,
) -> nvmlReturn_t {
    fact(device, width, |d| d.nvml.pcie_link_width_max)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetComputeMode(
    device: nvmlDevice_t,
    mode: *mut nvmlComputeMode_t,
) -> nvmlReturn_t {
    fact(device, mode, |d| d.nvml.compute_mode)
}

/// A current/pending pair (ECC and MIG modes) into `current` and `pending`.
fn modes<T: From<u8>>(
    device: nvmlDevice_t,
    (current, pending): (*mut T, *mut T),
    read: impl FnOnce(&DeviceProfile) -> (Option<u32>, Option<u32>),
) -> nvmlReturn_t {
    on_device(device, |_, _, d| match read(d) {
        (Some(c), Some(p)) => {
            out!(current, T::from(c as u8));
            out!(pending, T::from(p as u8));
            NVML_SUCCESS
        }
        _ => NVML_ERROR_NOT_SUPPORTED,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetEccMode(
    device: nvmlDevice_t,
    current: *mut nvmlEnableState_t,
    pending: *mut nvmlEnableState_t,
) -> nvmlReturn_t {
    modes(device, (current, pending), |d| {
        (d.nvml.ecc_mode_current, d.nvml.ecc_mode_pending)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetMigMode(
    device: nvmlDevice_t,
    current: *mut c_uint,
    pending: *mut c_uint,
) -> nvmlReturn_t {
    modes(device, (current, pending), |d| {
        (d.nvml.mig_mode_current, d.nvml.mig_mode_pending)
    })
}

/// A text fact of the board into the caller's buffer (`NVML_ERROR_NOT_SUPPORTED` without one).
fn text_fact(
    device: nvmlDevice_t,
    buf: *mut c_char,
    len: c_uint,
    read: impl FnOnce(&DeviceProfile) -> Option<&str>,
) -> nvmlReturn_t {
    on_device(device, |_, _, d| match read(d) {
        Some(t) => text_out(t, buf, len),
        None => NVML_ERROR_NOT_SUPPORTED,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetVbiosVersion(
    device: nvmlDevice_t,
    version: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    text_fact(device, version, len, |d| d.nvml.vbios_version.as_deref())
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlDeviceGetBoardPartNumber(
    device: nvmlDevice_t,
    part: *mut c_char,
    len: c_uint,
) -> nvmlReturn_t {
    text_fact(device, part, len, |d| d.nvml.board_part_number.as_deref())
}

/// `const char *nvmlErrorString(nvmlReturn_t result)`: the board's NVML's text of the code
/// ("Not Supported"), its text for an unknown code otherwise (`crate::error_texts`); never NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvmlErrorString(result: nvmlReturn_t) -> *const c_char {
    crate::error_texts::nvml(result as i32).as_ptr()
}
