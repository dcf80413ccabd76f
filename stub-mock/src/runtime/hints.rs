//! Runtime calls that are hints, whose effects the mock's results never show
//! (`cuda_runtime_api.h`, `cuda_profiler_api.h`, CUDA 13 ABI): the profiler's start and stop
//! (no profiler is attached to the mock: success, as on a board run without one), the reset
//! of the L2 cache's persisting lines (none to reset), streams'
//! attributes (kept and given back: `queue/stream_attributes.rs`), and the prefetch of managed
//! memory (checked, then nothing to move: the mock's device memory is the host's).
// C names, as the headers spell them (parameters, and constants matched in patterns).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::device::handles;
use crate::device::model::Kind;
use crate::queue::stream_attributes;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_uint, c_void};

/// `cudaError_t cudaProfilerStart(void)`: success (no profiler attached).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaProfilerStart() -> cudaError_t {
    call(|m| current(m).err().unwrap_or(cudaSuccess))
}

/// `cudaError_t cudaProfilerStop(void)`: success (no profiler attached).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaProfilerStop() -> cudaError_t {
    call(|m| current(m).err().unwrap_or(cudaSuccess))
}

/// `cudaError_t cudaCtxResetPersistingL2Cache(void)`: success (the mock has no L2 cache whose
/// persisting lines could be demoted).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCtxResetPersistingL2Cache() -> cudaError_t {
    call(|m| current(m).err().unwrap_or(cudaSuccess))
}

/// `cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const
/// cudaStreamAttrValue *value)`: `value` kept as `hStream`'s `attr` (a stream attribute:
/// access policy window, synchronization policy, priority, memory synchronization domain and
/// its map); `cudaErrorInvalidValue` for another attribute, a NULL value or one out of range
/// (`stream_attributes::is_valid`), `cudaErrorInvalidResourceHandle` for a stream that is not
/// one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamSetAttribute(
    hStream: cudaStream_t,
    attr: cudaLaunchAttributeID,
    value: *const cudaLaunchAttributeValue,
) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if handles::stream(hStream as usize, d).is_none() {
            return cudaErrorInvalidResourceHandle;
        }
        // SAFETY: NULL or the caller's value.
        let Some(v) = (unsafe { value.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        if !stream_attributes::is_stream_attribute(attr) || !stream_attributes::is_valid(attr, v) {
            return cudaErrorInvalidValue;
        }
        // SAFETY: the union's bytes, all of them plain data (`pad` spans it).
        stream_attributes::set(hStream as usize, attr, unsafe { v.pad }.map(|b| b as u8));
        cudaSuccess
    })
}

/// `cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
/// cudaStreamAttrValue *value_out)`: the value last set, else the default: zeros (no access
/// policy window, domain 0), except the priority, the stream's own; errors as
/// [`cudaStreamSetAttribute`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetAttribute(
    hStream: cudaStream_t,
    attr: cudaLaunchAttributeID,
    value_out: *mut cudaLaunchAttributeValue,
) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let Some(stream) = handles::stream(hStream as usize, d) else {
            return cudaErrorInvalidResourceHandle;
        };
        if value_out.is_null() || !stream_attributes::is_stream_attribute(attr) {
            return cudaErrorInvalidValue;
        }
        let mut value = cudaLaunchAttributeValue { pad: [0; 64] };
        match stream_attributes::get(hStream as usize, attr) {
            Some(bytes) => value.pad = bytes.map(|b| b as core::ffi::c_char),
            None if attr == cudaLaunchAttributePriority => value.priority = stream.priority,
            None => {}
        }
        // SAFETY: non-NULL, the caller's value.
        unsafe { *value_out = value };
        cudaSuccess
    })
}

/// `cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation
/// location, unsigned int flags, cudaStream_t stream)` (CUDA 13's prototype; the 12.x one, a
/// device number with `cudaCpuDeviceId` for the host, reaches it through the stub's adapter):
/// `[devPtr, devPtr + count)` must lie in one managed allocation
/// (`cudaErrorInvalidValue`), `location` a device of the profile (`cudaErrorInvalidDevice`)
/// or the host, `flags` 0; nothing moves, the mock's device memory being the host's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPrefetchAsync(
    devPtr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if handles::stream(stream as usize, d).is_none() {
            return cudaErrorInvalidResourceHandle;
        }
        // SAFETY: every member of the union is an int's worth of bytes.
        let id = unsafe { location.__bindgen_anon_1.id };
        match location.type_ {
            cudaMemLocationTypeDevice if m.device(id.into()).is_none() => {
                return cudaErrorInvalidDevice;
            }
            cudaMemLocationTypeDevice
            | cudaMemLocationTypeHost
            | cudaMemLocationTypeHostNuma
            | cudaMemLocationTypeHostNumaCurrent => {}
            _ => return cudaErrorInvalidValue,
        }
        let managed = m.find(devPtr as usize).is_some_and(|f| {
            matches!(f.kind, Kind::Managed(_))
                && (devPtr as usize - f.start)
                    .checked_add(count)
                    .is_some_and(|end| end <= f.size)
        });
        if flags != 0 || count == 0 || !managed {
            return cudaErrorInvalidValue;
        }
        cudaSuccess
    })
}
