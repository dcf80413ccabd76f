//! Devices' default memory pools and graph memory (`cuda.h`, CUDA 13 ABI), the runtime's
//! twins (`runtime/mem_pools.rs`, over the same pools: `queue/mem_pools.rs`), and the
//! stream-ordered allocations drawn from them (`cuMemAllocAsync`, `cuMemFreeAsync`), which
//! allocate and free when issued (streams are always idle) and in a capture add memory nodes.
// C names, as the headers spell them (parameters, and constants matched in patterns).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::device::model::{Kind, Model};
use crate::driver::{call, in_context, on_stream};
use crate::queue::graph;
use crate::queue::mem_pools;
use crate::queue::ops::Op;
use crate::types::cuda::*;
use core::ffi::{c_int, c_void};

/// The device a pool handle is the default pool of, if of the profile.
fn pool_device(m: &Model, pool: CUmemoryPool) -> Option<usize> {
    mem_pools::device_of(pool as usize).filter(|&d| m.device(d as i64).is_some())
}

/// `CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetDefaultMemPool(
    pool_out: *mut CUmemoryPool,
    dev: CUdevice,
) -> CUresult {
    call(|m| {
        if m.device(dev.into()).is_none() {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        let Some(handle) = mem_pools::handle(dev as usize) else {
            return CUDA_ERROR_INVALID_DEVICE;
        };
        if pool_out.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *pool_out = handle as CUmemoryPool };
        CUDA_SUCCESS
    })
}

/// `CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)`: the default pool (no
/// other is modelled).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetMemPool(pool: *mut CUmemoryPool, dev: CUdevice) -> CUresult {
    // SAFETY: the same contract.
    unsafe { cuDeviceGetDefaultMemPool(pool, dev) }
}

/// `CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)`:
/// as `cudaMemPoolSetAttribute` (`mem_pools::set_attribute`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPoolSetAttribute(
    pool: CUmemoryPool,
    attr: CUmemPool_attribute,
    value: *mut c_void,
) -> CUresult {
    call(|m| {
        let Some(d) = pool_device(m, pool).filter(|_| !value.is_null()) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: non-NULL; the caller's int or cuuint64_t, as the attribute says.
        let int = || unsafe { *value.cast::<c_int>() };
        // SAFETY: the same.
        let long = || unsafe { *value.cast::<u64>() };
        if mem_pools::set_attribute(d, attr, int, long) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

/// `CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)`:
/// as `cudaMemPoolGetAttribute` (`mem_pools::attribute`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPoolGetAttribute(
    pool: CUmemoryPool,
    attr: CUmemPool_attribute,
    value: *mut c_void,
) -> CUresult {
    call(|m| {
        let Some(d) = pool_device(m, pool).filter(|_| !value.is_null()) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        match mem_pools::attribute(d, attr, m.profile.cuda_version) {
            // SAFETY: non-NULL; the caller's int or cuuint64_t, as the attribute says.
            Some(mem_pools::Value::Int(i)) => unsafe { *value.cast::<c_int>() = i },
            // SAFETY: the same.
            Some(mem_pools::Value::Long(l)) => unsafe { *value.cast::<u64>() = l },
            None => return CUDA_ERROR_INVALID_VALUE,
        }
        CUDA_SUCCESS
    })
}

/// `CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)`: nothing held back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPoolTrimTo(pool: CUmemoryPool, _min: usize) -> CUresult {
    call(|m| match pool_device(m, pool) {
        Some(_) => CUDA_SUCCESS,
        None => CUDA_ERROR_INVALID_VALUE,
    })
}

/// `CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void
/// *value)`: as `cudaDeviceGetGraphMemAttribute` (`runtime/mem_pools.rs`' module docs).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetGraphMemAttribute(
    device: CUdevice,
    attr: CUgraphMem_attribute,
    value: *mut c_void,
) -> CUresult {
    call(|m| {
        if m.device(device.into()).is_none() {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        if value.is_null() || attr > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let current = graph::graph_memory(m, device as usize);
        let answer = match attr {
            CU_GRAPH_MEM_ATTR_USED_MEM_HIGH | CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH => {
                mem_pools::graph_high(device as usize, current)
            }
            _ => current,
        };
        // SAFETY: non-NULL, the caller's cuuint64_t.
        unsafe { *value.cast::<u64>() = answer };
        CUDA_SUCCESS
    })
}

/// `CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void
/// *value)`: the high watermarks reset (to the current bytes) by 0, nothing else.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceSetGraphMemAttribute(
    device: CUdevice,
    attr: CUgraphMem_attribute,
    value: *mut c_void,
) -> CUresult {
    call(|m| {
        if m.device(device.into()).is_none() {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        let high =
            attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH || attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH;
        // SAFETY: non-NULL, the caller's cuuint64_t.
        if !high || value.is_null() || unsafe { *value.cast::<u64>() } != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        mem_pools::reset_graph_high(device as usize, graph::graph_memory(m, device as usize));
        CUDA_SUCCESS
    })
}

/// `CUresult cuDeviceGraphMemTrim(CUdevice device)`: nothing held back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGraphMemTrim(device: CUdevice) -> CUresult {
    in_context(|m, _| match m.device(device.into()) {
        Some(_) => CUDA_SUCCESS,
        None => CUDA_ERROR_INVALID_DEVICE,
    })
}

/// `CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)`:
/// `bytesize` bytes (not 0) of the current context's device from its default pool, made now;
/// in a capture, a memory allocation node whose memory is made now and kept for the graph's
/// launches (`Op::MemAlloc`), as `cuGraphAddMemAllocNode` does.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemAllocAsync(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
    hStream: CUstream,
) -> CUresult {
    on_stream(hStream, |m| {
        let Some(d) = crate::device::context::current() else {
            return CUDA_ERROR_INVALID_CONTEXT;
        };
        if dptr.is_null() || bytesize == 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let Ok(p) = m.allocate(bytesize, Kind::Device(d)) else {
            return CUDA_ERROR_OUT_OF_MEMORY;
        };
        let op = Op::MemAlloc {
            ptr: p,
            size: bytesize,
        };
        match graph::capture(hStream as usize, op) {
            Ok(Err(code)) => {
                m.free(p, |_| true).ok();
                return code;
            }
            Ok(Ok(())) => {}
            Err(_) => mem_pools::allocated(d, p, bytesize),
        }
        // SAFETY: non-NULL, the caller's pointer.
        unsafe { *dptr = p as CUdeviceptr };
        CUDA_SUCCESS
    })
}

/// `CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)`: `dptr` must start a device
/// allocation (`CUDA_ERROR_INVALID_VALUE`); freed now, or in a capture a memory free node
/// (`Op::MemFree`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemFreeAsync(dptr: CUdeviceptr, hStream: CUstream) -> CUresult {
    on_stream(hStream, |m| {
        let start = dptr as usize;
        if graph::is_capturing(hStream as usize) {
            if m.device_range(start, 1).map_or(true, |f| f.start != start) {
                return CUDA_ERROR_INVALID_VALUE;
            }
            return match graph::capture(hStream as usize, Op::MemFree { ptr: start }) {
                Ok(Ok(())) => CUDA_SUCCESS,
                Ok(Err(code)) => code,
                Err(_) => CUDA_ERROR_INVALID_VALUE,
            };
        }
        if start == 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // A graph's memory stays for its next launch (`graph::owns_allocation`).
        if graph::owns_allocation(start) {
            return CUDA_SUCCESS;
        }
        match m.free(start, |k| k.device().is_some()) {
            Ok(()) => {
                mem_pools::freed(start);
                CUDA_SUCCESS
            }
            Err(_) => CUDA_ERROR_INVALID_VALUE,
        }
    })
}

/// `CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)`:
/// as `cudaMemPoolSetAccess` (`mem_pools::set_access`); read-only access is not modelled
/// (`CUDA_ERROR_NOT_SUPPORTED`, a debug line).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPoolSetAccess(
    pool: CUmemoryPool,
    map: *const CUmemAccessDesc,
    count: usize,
) -> CUresult {
    call(|m| {
        let Some(d) = pool_device(m, pool) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if map.is_null() && count != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let descs: alloc::vec::Vec<(u32, i32, u32)> = (0..count)
            .map(|i| {
                // SAFETY: `count` descriptors at `map`, by the API's contract.
                let a = unsafe { &*map.add(i) };
                // SAFETY: `id` is the union's member for a device location.
                let id = unsafe { a.location.__bindgen_anon_1.id };
                (a.location.type_, id, a.flags)
            })
            .collect();
        match mem_pools::set_access(d, m.count(), &descs) {
            Ok(()) => CUDA_SUCCESS,
            Err(mem_pools::AccessRefused::Invalid) => CUDA_ERROR_INVALID_VALUE,
            Err(mem_pools::AccessRefused::ReadOnly) => {
                stub_loader::debug_line(
                    "mock",
                    format_args!(
                        "cuMemPoolSetAccess: read-only access (CU_MEM_ACCESS_FLAGS_PROT_READ): \
                         not modelled by the mock device: not supported (801)"
                    ),
                );
                CUDA_ERROR_NOT_SUPPORTED
            }
        }
    })
}

/// `CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation
/// *location)`: as `cudaMemPoolGetAccess` (`mem_pools::access`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemPoolGetAccess(
    flags: *mut CUmemAccess_flags,
    pool: CUmemoryPool,
    location: *mut CUmemLocation,
) -> CUresult {
    call(|m| {
        let Some(d) = pool_device(m, pool) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: NULL or the caller's location.
        let Some(loc) = (unsafe { location.as_ref() }).filter(|_| !flags.is_null()) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: `id` is the union's member for a device location.
        let id = unsafe { loc.__bindgen_anon_1.id };
        match mem_pools::access(d, m.count(), (loc.type_, id)) {
            Some(a) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *flags = a };
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_VALUE,
        }
    })
}
