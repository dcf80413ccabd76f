//! The driver's memory beyond `cuMemAlloc` (`cuda.h`, CUDA 13 ABI): managed memory,
//! page-locked host memory allocated (`cuMemAllocHost`, `cuMemHostAlloc`) and registered
//! (`cuMemHostRegister`), device pointers of host memory (the same addresses: unified
//! addressing), and what a pointer is (`cuPointerGetAttribute`, `cuMemGetAddressRange`), over
//! the same allocations as the runtime's (`runtime/memory.rs`).

use crate::device::context;
use crate::device::model::{Kind, Model};
use crate::driver::in_context;
use crate::queue::graph;
use crate::types::cuda::*;
use core::ffi::{c_uint, c_void};

/// `CU_MEM_ATTACH_GLOBAL` (1), `CU_MEM_ATTACH_HOST` (2): one of them.
fn attach_flags_valid(flags: c_uint) -> bool {
    flags == 1 || flags == 2
}

/// `CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
/// unsigned int flags)`: checked as the runtime's twin (`Model::attachable`:
/// `CUDA_ERROR_INVALID_VALUE` otherwise; an unknown stream `CUDA_ERROR_INVALID_HANDLE`), with
/// nothing more to do: the mock's managed memory is the host's and every stream's at all times.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamAttachMemAsync(
    stream: CUstream,
    dptr: CUdeviceptr,
    length: usize,
    flags: c_uint,
) -> CUresult {
    in_context(|m, _| {
        if !crate::device::handles::is_stream(stream as usize) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        if m.attachable(dptr as usize, length, flags) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemAllocManaged(
    ptr: *mut CUdeviceptr,
    size: usize,
    flags: c_uint,
) -> CUresult {
    if let Err(code) = graph::unsafe_call() {
        return code;
    }
    in_context(|m, d| {
        if ptr.is_null() || size == 0 || !attach_flags_valid(flags) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match m.allocate(size, Kind::Managed(d)) {
            Ok(p) => {
                // SAFETY: non-NULL, the caller's pointer.
                unsafe { *ptr = p as CUdeviceptr };
                CUDA_SUCCESS
            }
            Err(_) => CUDA_ERROR_OUT_OF_MEMORY,
        }
    })
}

/// `size` bytes of page-locked host memory with `flags` into `*ptr`.
fn allocate_host(m: &Model, ptr: *mut *mut c_void, size: usize, flags: c_uint) -> CUresult {
    if ptr.is_null() || size == 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    match m.allocate_host(size, flags) {
        Ok(p) => {
            // SAFETY: non-NULL, the caller's pointer.
            unsafe { *ptr = p as *mut c_void };
            CUDA_SUCCESS
        }
        Err(_) => CUDA_ERROR_OUT_OF_MEMORY,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemAllocHost_v2(ptr: *mut *mut c_void, size: usize) -> CUresult {
    in_context(|m, _| allocate_host(m, ptr, size, 0))
}

/// `CU_MEMHOSTALLOC_PORTABLE | …DEVICEMAP | …WRITECOMBINED`.
const HOST_ALLOC_FLAGS: c_uint = 0x7;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemHostAlloc(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> CUresult {
    in_context(|m, _| {
        if flags & !HOST_ALLOC_FLAGS != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        allocate_host(m, ptr, size, flags)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemFreeHost(ptr: *mut c_void) -> CUresult {
    in_context(|m, _| match m.free(ptr as usize, |k| k == Kind::Host) {
        Ok(()) if !ptr.is_null() => CUDA_SUCCESS,
        _ => CUDA_ERROR_INVALID_VALUE,
    })
}

/// `CU_MEMHOSTREGISTER_PORTABLE | …DEVICEMAP | …IOMEMORY | …READ_ONLY`.
const REGISTER_FLAGS: c_uint = 0xf;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemHostRegister_v2(
    ptr: *mut c_void,
    size: usize,
    flags: c_uint,
) -> CUresult {
    in_context(|m, _| {
        if ptr.is_null() || size == 0 || flags & !REGISTER_FLAGS != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if m.register(ptr as usize, size, flags) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemHostUnregister(ptr: *mut c_void) -> CUresult {
    in_context(
        |m, _| match m.free(ptr as usize, |k| k == Kind::Registered) {
            Ok(()) if !ptr.is_null() => CUDA_SUCCESS,
            _ => CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
        },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemHostGetDevicePointer_v2(
    device_ptr: *mut CUdeviceptr,
    host: *mut c_void,
    flags: c_uint,
) -> CUresult {
    in_context(|m, _| {
        let page_locked = m
            .find(host as usize)
            .is_some_and(|f| matches!(f.kind, Kind::Host | Kind::Registered));
        if device_ptr.is_null() || flags != 0 || !page_locked {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's pointer: unified addressing, the same address.
        unsafe { *device_ptr = host as CUdeviceptr };
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemGetAddressRange_v2(
    base: *mut CUdeviceptr,
    size: *mut usize,
    ptr: CUdeviceptr,
) -> CUresult {
    in_context(|m, _| {
        let Some(f) = m.find(ptr as usize).filter(|f| f.kind.device().is_some()) else {
            return CUDA_ERROR_NOT_FOUND;
        };
        // Either may be NULL (the header's "ignored if NULL").
        // SAFETY: NULL or the caller's storage.
        unsafe {
            if let Some(b) = base.as_mut() {
                *b = f.start as CUdeviceptr;
            }
            if let Some(s) = size.as_mut() {
                *s = f.size;
            }
        }
        CUDA_SUCCESS
    })
}

/// Writes `value` as the `T` an attribute is documented to be.
///
/// # Safety
/// `data` is the caller's storage for a `T`.
unsafe fn put<T>(data: *mut c_void, value: T) -> CUresult {
    if data.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: non-NULL, by the contract storage for a `T`.
    unsafe { data.cast::<T>().write_unaligned(value) };
    CUDA_SUCCESS
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuPointerGetAttribute(
    data: *mut c_void,
    attribute: CUpointer_attribute,
    ptr: CUdeviceptr,
) -> CUresult {
    in_context(|m, current| {
        // Memory the driver does not know: CUDA_ERROR_INVALID_VALUE, as for a stray pointer.
        let Some(f) = m.find(ptr as usize) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let device = f.kind.device();
        let owner = device.unwrap_or(current);
        // SAFETY: `data` is the caller's storage for the attribute's type (cuda.h).
        unsafe {
            match attribute {
                CU_POINTER_ATTRIBUTE_CONTEXT => put(data, context::primary(owner) as CUcontext),
                CU_POINTER_ATTRIBUTE_MEMORY_TYPE => put::<c_uint>(
                    data,
                    if device.is_some() {
                        CU_MEMORYTYPE_DEVICE
                    } else {
                        CU_MEMORYTYPE_HOST
                    },
                ),
                CU_POINTER_ATTRIBUTE_DEVICE_POINTER => put(data, ptr),
                CU_POINTER_ATTRIBUTE_HOST_POINTER => {
                    if matches!(f.kind, Kind::Device(_)) {
                        return CUDA_ERROR_INVALID_VALUE;
                    }
                    put(data, ptr as usize as *mut c_void)
                }
                CU_POINTER_ATTRIBUTE_IS_MANAGED => {
                    put::<c_uint>(data, c_uint::from(matches!(f.kind, Kind::Managed(_))))
                }
                CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL => put(data, owner as core::ffi::c_int),
                CU_POINTER_ATTRIBUTE_RANGE_START_ADDR => put(data, f.start as CUdeviceptr),
                CU_POINTER_ATTRIBUTE_RANGE_SIZE => put(data, f.size),
                CU_POINTER_ATTRIBUTE_MAPPED => put::<c_uint>(data, 1),
                _ => {
                    stub_loader::debug_line(
                        "mock",
                        format_args!(
                            "cuPointerGetAttribute({attribute}): not modelled by the mock device"
                        ),
                    );
                    CUDA_ERROR_NOT_SUPPORTED
                }
            }
        }
    })
}
