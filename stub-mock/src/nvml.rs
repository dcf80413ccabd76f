//! NVML (`nvml.h`) over the device model: the profile's devices, their names, UUIDs, PCI ids
//! and readings, and memory that follows the runtime's and the driver's allocations. Every other
//! status function of the API answers `NVML_ERROR_NOT_SUPPORTED` (`unmodelled.rs`).

use crate::model::{Model, model};
use crate::profile::{DeviceProfile, uuid_text};
use crate::types::nvml::*;
use alloc::format;
use core::ffi::{c_char, c_int, c_uint};
use stub_loader::sync::{Mutex, MutexGuard};

/// The most devices a profile has (`profile.rs`' limit).
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
