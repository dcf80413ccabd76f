//! Devices' default memory pools and graph memory (`cuda_runtime_api.h`, CUDA 13 ABI): each
//! device's one pool (`queue/mem_pools.rs`), its attributes, and the graph memory attributes:
//! the memory of the memory nodes of the executable graphs launched and not destroyed
//! (`graph::graph_memory`; the mock keeps none in reserve beyond it, so reserved is used, and
//! a trim has nothing to release).
// C names, as the headers spell them (parameters, and constants matched in patterns).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::queue::{graph, mem_pools};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_int, c_void};

/// Device `device`'s default pool's handle; `cudaErrorInvalidDevice` for no such device.
fn pool_of(m: &crate::device::model::Model, device: c_int) -> Result<cudaMemPool_t, cudaError_t> {
    m.device(device.into()).ok_or(cudaErrorInvalidDevice)?;
    let handle = mem_pools::handle(device as usize).ok_or(cudaErrorInvalidDevice)?;
    Ok(handle as cudaMemPool_t)
}

/// `cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetDefaultMemPool(
    memPool: *mut cudaMemPool_t,
    device: c_int,
) -> cudaError_t {
    call(|m| {
        if let Err(e) = current(m) {
            return e;
        }
        match pool_of(m, device) {
            Ok(_) if memPool.is_null() => cudaErrorInvalidValue,
            Ok(pool) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *memPool = pool };
                cudaSuccess
            }
            Err(e) => e,
        }
    })
}

/// `cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)`: the device's
/// current pool, its default one (no other pool is modelled).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetMemPool(
    memPool: *mut cudaMemPool_t,
    device: c_int,
) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaDeviceGetDefaultMemPool(memPool, device) }
}

/// `cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void
/// *value)`: the three reuse policies (an int, any value nonzero taken as 1), the release
/// threshold (a `cuuint64_t`), and the high watermarks (`…ReservedMemHigh`,
/// `…UsedMemHigh`), which take only 0, a reset to the current value; any other attribute is
/// read-only (`cudaErrorInvalidValue`), as is a NULL value; an unknown pool
/// `cudaErrorInvalidValue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolSetAttribute(
    memPool: cudaMemPool_t,
    attr: cudaMemPoolAttr,
    value: *mut c_void,
) -> cudaError_t {
    call(|m| {
        let Some(d) =
            mem_pools::device_of(memPool as usize).filter(|&d| m.device(d as i64).is_some())
        else {
            return cudaErrorInvalidValue;
        };
        if value.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL; the caller's int or cuuint64_t, as the attribute says.
        let int = || unsafe { *value.cast::<c_int>() };
        // SAFETY: the same.
        let long = || unsafe { *value.cast::<u64>() };
        let ok = mem_pools::set_attribute(d, attr, int, long);
        if ok {
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

/// `cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void
/// *value)`: into an int (reuse policies, allocation type `cudaMemAllocationTypePinned` 1,
/// export handle types 0, location id the device, location type
/// `cudaMemLocationTypeDevice` 1) or a `cuuint64_t` (release threshold, reserved and used bytes
/// and their high watermarks, the maximum size 0: none); `cudaErrorInvalidValue` for another
/// attribute, a NULL value or an unknown pool.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolGetAttribute(
    memPool: cudaMemPool_t,
    attr: cudaMemPoolAttr,
    value: *mut c_void,
) -> cudaError_t {
    call(|m| {
        let Some(d) =
            mem_pools::device_of(memPool as usize).filter(|&d| m.device(d as i64).is_some())
        else {
            return cudaErrorInvalidValue;
        };
        if value.is_null() {
            return cudaErrorInvalidValue;
        }
        match mem_pools::attribute(d, attr, m.profile.cuda_version) {
            // SAFETY: non-NULL; the caller's int or cuuint64_t, as the attribute says.
            Some(mem_pools::Value::Int(i)) => unsafe { *value.cast::<c_int>() = i },
            // SAFETY: the same.
            Some(mem_pools::Value::Long(l)) => unsafe { *value.cast::<u64>() = l },
            None => return cudaErrorInvalidValue,
        }
        cudaSuccess
    })
}

/// `cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)`: nothing is
/// held back to release (module docs of `queue/mem_pools.rs`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolTrimTo(memPool: cudaMemPool_t, _min: usize) -> cudaError_t {
    call(|m| {
        match mem_pools::device_of(memPool as usize).filter(|&d| m.device(d as i64).is_some()) {
            Some(_) => cudaSuccess,
            None => cudaErrorInvalidValue,
        }
    })
}

/// `cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType
/// attr, void *value)`: a `cuuint64_t`, the device's graph memory now (used and reserved
/// alike) or its high watermark (module docs); `cudaErrorInvalidDevice`, `cudaErrorInvalidValue` for another attribute or
/// a NULL value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetGraphMemAttribute(
    device: c_int,
    attr: cudaGraphMemAttributeType,
    value: *mut c_void,
) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        if value.is_null() || attr > cudaGraphMemAttrReservedMemHigh {
            return cudaErrorInvalidValue;
        }
        let current = graph::graph_memory(m, device as usize);
        let answer = match attr {
            cudaGraphMemAttrUsedMemHigh | cudaGraphMemAttrReservedMemHigh => {
                mem_pools::graph_high(device as usize, current)
            }
            _ => current,
        };
        // SAFETY: non-NULL, the caller's cuuint64_t.
        unsafe { *value.cast::<u64>() = answer };
        cudaSuccess
    })
}

/// `cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType
/// attr, void *value)`: only the high watermarks (`…UsedMemHigh`, `…ReservedMemHigh`, one
/// watermark in the mock), and only to 0: a reset to the current bytes; else
/// `cudaErrorInvalidValue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceSetGraphMemAttribute(
    device: c_int,
    attr: cudaGraphMemAttributeType,
    value: *mut c_void,
) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        let high = attr == cudaGraphMemAttrUsedMemHigh || attr == cudaGraphMemAttrReservedMemHigh;
        // SAFETY: non-NULL, the caller's cuuint64_t.
        if !high || value.is_null() || unsafe { *value.cast::<u64>() } != 0 {
            return cudaErrorInvalidValue;
        }
        mem_pools::reset_graph_high(device as usize, graph::graph_memory(m, device as usize));
        cudaSuccess
    })
}

/// `cudaError_t cudaDeviceGraphMemTrim(int device)`: nothing held back to release.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGraphMemTrim(device: c_int) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        cudaSuccess
    })
}

/// `cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc
/// *descList, size_t count)`: devices given read-write access to a device's default pool or
/// none (`mem_pools::set_access`, which says what changes); `cudaErrorInvalidValue` for an
/// unknown pool, a NULL list, a location that is no device, other flags or the pool's own
/// device given none; read-only access is not modelled (`cudaErrorNotSupported`, a debug line).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolSetAccess(
    memPool: cudaMemPool_t,
    descList: *const cudaMemAccessDesc,
    count: usize,
) -> cudaError_t {
    call(|m| {
        let Some(d) =
            mem_pools::device_of(memPool as usize).filter(|&d| m.device(d as i64).is_some())
        else {
            return cudaErrorInvalidValue;
        };
        if descList.is_null() && count != 0 {
            return cudaErrorInvalidValue;
        }
        let descs: alloc::vec::Vec<(u32, i32, u32)> = (0..count)
            .map(|i| {
                // SAFETY: `count` descriptors at `descList`, by the API's contract.
                let a = unsafe { &*descList.add(i) };
                // SAFETY: `id` is the union's member for a device location.
                let id = unsafe { a.location.__bindgen_anon_1.id };
                (a.location.type_, id, a.flags)
            })
            .collect();
        match mem_pools::set_access(d, m.count(), &descs) {
            Ok(()) => cudaSuccess,
            Err(mem_pools::AccessRefused::Invalid) => cudaErrorInvalidValue,
            Err(mem_pools::AccessRefused::ReadOnly) => {
                stub_loader::debug_line(
                    "mock",
                    format_args!(
                        "cudaMemPoolSetAccess: read-only access (cudaMemAccessFlagsProtRead): \
                         not modelled by the mock device: not supported (801)"
                    ),
                );
                cudaErrorNotSupported
            }
        }
    })
}

/// `cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
/// struct cudaMemLocation *location)`: read-write for the pool's device and those given it,
/// none for the others (`mem_pools::access`); `cudaErrorInvalidValue` for an unknown pool, a
/// NULL pointer or a location that is no device.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolGetAccess(
    flags: *mut cudaMemAccessFlags,
    memPool: cudaMemPool_t,
    location: *mut cudaMemLocation,
) -> cudaError_t {
    call(|m| {
        let Some(d) =
            mem_pools::device_of(memPool as usize).filter(|&d| m.device(d as i64).is_some())
        else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: NULL or the caller's location.
        let Some(loc) = (unsafe { location.as_ref() }).filter(|_| !flags.is_null()) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: `id` is the union's member for a device location.
        let id = unsafe { loc.__bindgen_anon_1.id };
        match mem_pools::access(d, m.count(), (loc.type_, id)) {
            Some(a) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *flags = a };
                cudaSuccess
            }
            None => cudaErrorInvalidValue,
        }
    })
}
