//! The runtime's memory beyond `cudaMalloc` (`cuda_runtime_api.h`, CUDA 13 ABI): managed memory
//! (counted against its device, read and written by the host as it is), the caller's host
//! memory registered as page-locked, page-locked memory's flags and device pointers (the same
//! addresses: unified addressing), and the stream-ordered `cudaMallocAsync` / `cudaFreeAsync`,
//! which allocate and free when issued (streams are always idle), and in a capture add memory
//! nodes.

use crate::device::handles;
use crate::device::model::{Kind, Model};
use crate::queue::graph;
use crate::queue::mem_pools;
use crate::queue::ops::Op;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_uint, c_void};

/// `cudaMemAttachGlobal` (1), `cudaMemAttachHost` (2): one of them.
fn attach_flags_valid(flags: c_uint) -> bool {
    flags == 1 || flags == 2
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocManaged(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if !attach_flags_valid(flags) {
            return cudaErrorInvalidValue;
        }
        crate::runtime::allocate(m, ptr, size, Kind::Managed)
    })
}

/// `cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
/// unsigned int flags)`: checked (`Model::attachable`: `cudaErrorInvalidValue` otherwise; an
/// unknown stream `cudaErrorInvalidResourceHandle`), with nothing more to do: the mock's
/// managed memory is the host's and every stream's at all times, so which of them it is
/// associated with changes no access.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamAttachMemAsync(
    stream: cudaStream_t,
    dev_ptr: *mut c_void,
    length: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        if m.attachable(dev_ptr as usize, length, flags) {
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

/// `cudaHostAllocMapped` / `cudaHostRegisterMapped` (a `#define` of driver_types.h): every
/// page-locked allocation is mapped under unified addressing, whatever its flags; the others
/// are reported as given (an H200: registered with the default flags, 2; allocated portable
/// and mapped, 3).
const MAPPED: c_uint = 2;

/// `cudaHostRegisterDefault | …Portable | …Mapped | …IoMemory | …ReadOnly`.
const REGISTER_FLAGS: c_uint = 0xf;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostRegister(
    ptr: *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if ptr.is_null() || size == 0 || flags & !REGISTER_FLAGS != 0 {
            return cudaErrorInvalidValue;
        }
        if m.register(ptr as usize, size, flags) {
            cudaSuccess
        } else {
            cudaErrorHostMemoryAlreadyRegistered
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostUnregister(ptr: *mut c_void) -> cudaError_t {
    call(|m| match m.free(ptr as usize, |k| k == Kind::Registered) {
        Ok(()) if !ptr.is_null() => cudaSuccess,
        _ => cudaErrorHostMemoryNotRegistered,
    })
}

/// The page-locked allocation (allocated or registered) that `ptr` lies in.
fn page_locked(m: &Model, ptr: *mut c_void) -> Option<crate::device::model::Found> {
    m.find(ptr as usize)
        .filter(|f| matches!(f.kind, Kind::Host | Kind::Registered))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostGetDevicePointer(
    device_ptr: *mut *mut c_void,
    host: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if device_ptr.is_null() || flags != 0 || page_locked(m, host).is_none() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's pointer: unified addressing, the same address.
        unsafe { *device_ptr = host };
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> cudaError_t {
    call(|m| {
        let Some(found) = page_locked(m, host).filter(|_| !flags.is_null()) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: non-NULL, the caller's unsigned.
        unsafe { *flags = found.flags | MAPPED };
        cudaSuccess
    })
}

/// `cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)`: `size`
/// bytes of the current device's memory from its default pool (`queue/mem_pools.rs`), made
/// now; in a capture, a memory allocation node whose memory is made now and kept for the
/// graph's launches (`Op::MemAlloc`), as `cudaGraphAddMemAllocNode` does.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocAsync(
    ptr: *mut *mut c_void,
    size: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        if ptr.is_null() {
            return cudaErrorInvalidValue;
        }
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let Ok(p) = m.allocate(size, Kind::Device(d)) else {
            return cudaErrorMemoryAllocation;
        };
        match graph::capture(stream as usize, Op::MemAlloc { ptr: p, size }) {
            Ok(Err(code)) => {
                m.free(p, |_| true).ok();
                return code;
            }
            Ok(Ok(())) => {}
            Err(_) => mem_pools::allocated(d, p, size),
        }
        // SAFETY: non-NULL, the caller's pointer.
        unsafe { *ptr = p as *mut c_void };
        cudaSuccess
    })
}

/// `cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)`: `devPtr` must start a
/// device allocation (`cudaErrorInvalidValue`); freed now, or in a capture a memory free node
/// (`Op::MemFree`: the memory stays for the graph's next launch).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFreeAsync(ptr: *mut c_void, stream: cudaStream_t) -> cudaError_t {
    call(|m| {
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        let start = ptr as usize;
        if graph::is_capturing(stream as usize) {
            if m.device_range(start, 1).map_or(true, |f| f.start != start) {
                return cudaErrorInvalidValue;
            }
            return match graph::capture(stream as usize, Op::MemFree { ptr: start }) {
                Ok(Ok(())) => cudaSuccess,
                Ok(Err(code)) => code,
                Err(_) => cudaErrorInvalidValue,
            };
        }
        // A graph's memory stays for its next launch (`graph::owns_allocation`).
        if graph::owns_allocation(start) {
            return cudaSuccess;
        }
        match m.free(start, |k| k.device().is_some()) {
            Ok(()) => {
                mem_pools::freed(start);
                cudaSuccess
            }
            Err(_) => cudaErrorInvalidValue,
        }
    })
}
