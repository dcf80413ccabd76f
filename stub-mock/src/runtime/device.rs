//! The runtime's device state beyond memory and streams (`cuda_runtime_api.h`, CUDA 13 ABI):
//! limits (`cudaDeviceSetLimit`, the H200's defaults: `device/context.rs`), device flags,
//! lookups by PCI bus id and by properties, `cudaInitDevice`, and `cudaDeviceReset`, which frees
//! the current device's memory and streams and puts its limits, flags and peer access back.

use crate::device::context;
use crate::device::model::Model;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_char, c_int, c_uint};

/// The current device, or the runtime's error.
fn device(m: &Model) -> Result<usize, cudaError_t> {
    current(m)
}

/// A limit's refusal as the runtime answers it.
fn limit_error(e: context::LimitError) -> cudaError_t {
    match e {
        context::LimitError::Unsupported => cudaErrorUnsupportedLimit,
        context::LimitError::Unknown | context::LimitError::Fixed => cudaErrorInvalidValue,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: cudaLimit) -> cudaError_t {
    call(|m| {
        let d = match device(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let v = match context::limit(d, limit) {
            Ok(v) => v,
            Err(e) => return limit_error(e),
        };
        if value.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's size_t.
        unsafe { *value = v };
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceSetLimit(limit: cudaLimit, value: usize) -> cudaError_t {
    call(|m| match device(m) {
        Ok(d) => match context::set_limit(d, limit, value) {
            Ok(()) => cudaSuccess,
            Err(e) => limit_error(e),
        },
        Err(e) => e,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> cudaError_t {
    call(|m| {
        let d = match device(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if flags.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's unsigned.
        unsafe { *flags = context::flags(d) };
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t {
    call(|m| {
        let d = match device(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        // One scheduling choice at most (auto, spin, yield or blocking sync).
        let schedule = flags & 0x7;
        if flags & !context::DEVICE_FLAGS != 0 || schedule.count_ones() > 1 {
            return cudaErrorInvalidValue;
        }
        context::set_flags(d, flags);
        cudaSuccess
    })
}

/// A PCI bus id as `[domain:]bus:device.function` in hex, either case.
fn parse_bus_id(text: &str) -> Option<[u32; 4]> {
    let (head, function) = text.rsplit_once('.')?;
    let mut parts = head.split(':').rev();
    let dev = parts.next()?;
    let bus = parts.next()?;
    let domain = parts.next().unwrap_or("0");
    if parts.next().is_some() {
        return None;
    }
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    Some([hex(domain)?, hex(bus)?, hex(dev)?, hex(function)?])
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetByPCIBusId(
    device: *mut c_int,
    bus_id: *const c_char,
) -> cudaError_t {
    call(|m| {
        if device.is_null() || bus_id.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL and NUL-terminated, by the API's contract.
        let text = unsafe { core::ffi::CStr::from_ptr(bus_id) }.to_string_lossy();
        let Some(want) = parse_bus_id(&text) else {
            return cudaErrorInvalidValue;
        };
        let found = m.profile.devices.iter().position(|d| d.pci == want);
        match found {
            Some(i) => {
                // SAFETY: non-NULL, the caller's int.
                unsafe { *device = i as c_int };
                cudaSuccess
            }
            None => cudaErrorInvalidDevice,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaChooseDevice(
    device: *mut c_int,
    prop: *const cudaDeviceProp,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's properties.
        let Some(want) = (unsafe { prop.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        if device.is_null() {
            return cudaErrorInvalidValue;
        }
        // The device whose compute capability is nearest the one asked for (the runtime's own
        // choice weighs the same fields first); the first of equals.
        let cc = |d: &crate::device::profile::DeviceProfile| {
            (
                d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"),
                d.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"),
            )
        };
        let distance = |d: &crate::device::profile::DeviceProfile| {
            let (major, minor) = cc(d);
            (
                (i64::from(major) - i64::from(want.major)).abs(),
                (i64::from(minor) - i64::from(want.minor)).abs(),
            )
        };
        let best = (0..m.count()).min_by_key(|&i| distance(&m.profile.devices[i]));
        match best {
            Some(i) => {
                // SAFETY: non-NULL, the caller's int.
                unsafe { *device = i as c_int };
                cudaSuccess
            }
            None => cudaErrorNoDevice,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaInitDevice(
    device: c_int,
    device_flags: c_uint,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        // cudaInitDeviceFlagsAreValid (1): `device_flags` are then set as by cudaSetDeviceFlags.
        if flags > 1 || (flags == 1 && device_flags & !context::DEVICE_FLAGS != 0) {
            return cudaErrorInvalidValue;
        }
        if flags == 1 {
            context::set_flags(device as usize, device_flags);
        }
        context::retain(device as usize);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceReset() -> cudaError_t {
    crate::code::printf::flush();
    call(|m| {
        let d = match device(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        m.free_all(d);
        crate::device::handles::destroy_streams_of(d);
        context::reset(d);
        cudaSuccess
    })
}
