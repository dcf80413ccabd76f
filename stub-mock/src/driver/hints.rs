//! Driver calls that are hints, whose effects the mock's results never show (`cuda.h`,
//! `cudaProfiler.h`, CUDA 13 ABI), the runtime's twins (`runtime/hints.rs`): the profiler's
//! start and stop (no profiler attached: success), the reset of the L2 cache's persisting
//! lines, streams' attributes (`queue/stream_attributes.rs`), the prefetch of managed memory
//! (checked; nothing to move).
// C names, as the headers spell them (parameters, and constants matched in patterns).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::device::handles;
use crate::device::model::{Kind, Model};
use crate::driver::in_context;
use crate::queue::stream_attributes;
use crate::types::cuda::*;
use core::ffi::c_uint;

/// `CUresult cuProfilerStart(void)`: success in a context (no profiler attached).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuProfilerStart() -> CUresult {
    in_context(|_, _| CUDA_SUCCESS)
}

/// `CUresult cuProfilerStop(void)`: success in a context (no profiler attached).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuProfilerStop() -> CUresult {
    in_context(|_, _| CUDA_SUCCESS)
}

/// `CUresult cuCtxResetPersistingL2Cache(void)`: success in a context (no L2 cache's lines to
/// demote).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxResetPersistingL2Cache() -> CUresult {
    in_context(|_, _| CUDA_SUCCESS)
}

/// `CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const
/// CUstreamAttrValue *value)`: as `cudaStreamSetAttribute` (`CUDA_ERROR_INVALID_VALUE`,
/// `CUDA_ERROR_INVALID_HANDLE`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamSetAttribute(
    hStream: CUstream,
    attr: CUstreamAttrID,
    value: *const CUstreamAttrValue,
) -> CUresult {
    in_context(|_, d| {
        if handles::stream(hStream as usize, d).is_none() {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        // SAFETY: NULL or the caller's value; the driver's union is the runtime's
        // (`stream_attributes::Value`'s assertion).
        let Some(v) = (unsafe {
            value
                .cast::<crate::types::cudart::cudaLaunchAttributeValue>()
                .as_ref()
        }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if !stream_attributes::is_stream_attribute(attr) || !stream_attributes::is_valid(attr, v) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: the union's bytes, all plain data (`pad` spans it).
        stream_attributes::set(hStream as usize, attr, unsafe { v.pad }.map(|b| b as u8));
        CUDA_SUCCESS
    })
}

/// `CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue
/// *value_out)`: as `cudaStreamGetAttribute`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamGetAttribute(
    hStream: CUstream,
    attr: CUstreamAttrID,
    value_out: *mut CUstreamAttrValue,
) -> CUresult {
    in_context(|_, d| {
        let Some(stream) = handles::stream(hStream as usize, d) else {
            return CUDA_ERROR_INVALID_HANDLE;
        };
        if value_out.is_null() || !stream_attributes::is_stream_attribute(attr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let mut value = crate::types::cudart::cudaLaunchAttributeValue { pad: [0; 64] };
        match stream_attributes::get(hStream as usize, attr) {
            Some(bytes) => value.pad = bytes.map(|b| b as core::ffi::c_char),
            None if attr == CU_LAUNCH_ATTRIBUTE_PRIORITY => value.priority = stream.priority,
            None => {}
        }
        // SAFETY: non-NULL, the caller's value, of the same layout.
        unsafe { *value_out.cast() = value };
        CUDA_SUCCESS
    })
}

/// Checks a prefetch of `[ptr, ptr + count)` to device `device` (`None`: the host) as the
/// driver does: `CUDA_ERROR_INVALID_DEVICE` for no such device, `CUDA_ERROR_INVALID_VALUE`
/// unless the range lies in one managed allocation and `flags` is 0.
fn prefetch(m: &Model, ptr: usize, count: usize, device: Option<i32>, flags: c_uint) -> CUresult {
    if device.is_some_and(|d| m.device(d.into()).is_none()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    let managed = m.find(ptr).is_some_and(|f| {
        matches!(f.kind, Kind::Managed(_))
            && (ptr - f.start)
                .checked_add(count)
                .is_some_and(|end| end <= f.size)
    });
    if flags != 0 || count == 0 || !managed {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_SUCCESS
}

/// `CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
/// unsigned int flags, CUstream hStream)`: checked (`prefetch`), nothing moves.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPrefetchAsync_v2(
    devPtr: CUdeviceptr,
    count: usize,
    location: CUmemLocation,
    flags: c_uint,
    hStream: CUstream,
) -> CUresult {
    in_context(|m, d| {
        if handles::stream(hStream as usize, d).is_none() {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        // SAFETY: every member of the union is an int's worth of bytes.
        let id = unsafe { location.__bindgen_anon_1.id };
        let device = match location.type_ {
            CU_MEM_LOCATION_TYPE_DEVICE => Some(id),
            CU_MEM_LOCATION_TYPE_HOST
            | CU_MEM_LOCATION_TYPE_HOST_NUMA
            | CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT => None,
            _ => return CUDA_ERROR_INVALID_VALUE,
        };
        prefetch(m, devPtr as usize, count, device, flags)
    })
}

/// `CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream
/// hStream)` (the 12.x prototype): `CU_DEVICE_CPU` (-1) for the host.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPrefetchAsync(
    devPtr: CUdeviceptr,
    count: usize,
    dstDevice: CUdevice,
    hStream: CUstream,
) -> CUresult {
    in_context(|m, d| {
        if handles::stream(hStream as usize, d).is_none() {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        let device = (dstDevice != -1).then_some(dstDevice);
        prefetch(m, devPtr as usize, count, device, 0)
    })
}
