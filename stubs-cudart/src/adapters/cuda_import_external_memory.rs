//! External memory and semaphores (cuda_runtime_api.h, driver_types.h):
//! `cudaImportExternalMemory`, `cudaExternalMemoryGetMappedBuffer`,
//! `cudaExternalMemoryGetMappedMipmappedArray`, `cudaImportExternalSemaphore`,
//! `cudaSignalExternalSemaphoresAsync`, `cudaWaitExternalSemaphoresAsync` (and the `_ptsz`
//! twins of the last two): the same prototypes in every major, but descriptor and parameter
//! structs that 13.0 widened.
//!
//! Descriptors: CUDA 13.0 appended `unsigned int reserved[16]` ("must be zero") to each; the
//! fields before it are those of 11.8 and 12.9 (same names, types and offsets):
//!
//! | struct | 11.8 / 12.9 | 13.x |
//! |---|---|---|
//! | `cudaExternalMemoryHandleDesc` | 40 B | 104 B |
//! | `cudaExternalMemoryBufferDesc` | 24 B | 88 B |
//! | `cudaExternalMemoryMipmappedArrayDesc` | 64 B | 128 B |
//! | `cudaExternalSemaphoreHandleDesc` | 32 B | 96 B |
//!
//! Signal / wait parameters: 11.8's and 12.9's plain `cudaSignalExternalSemaphoresAsync` /
//! `cudaWaitExternalSemaphoresAsync` take the 11.1-era parameter structs
//! `cudaExternalSemaphoreSignalParams_v1` (32 B) / `cudaExternalSemaphoreWaitParams_v1` (40 B);
//! the current 144-byte `cudaExternalSemaphoreSignalParams` / `WaitParams` (the `_v1` fields at
//! the same offsets, then `reserved`; same layout in 11.8, 12.9 and 13.x) go to their `_v2`
//! names (11.2+; `_v2_ptsz` for the per-thread default stream), which is what an 11.x / 12.x
//! header `#define`s the plain names to, so the plain `_v1` names are what binaries built
//! against 11.0 / 11.1 call. 13.x's plain names take the 144-byte structs.
//!
//! - The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`, 13.x's structs): forwarded on 13.x. On
//!   11.x / 12.x the descriptor is copied field by field into the older layout (a local) and
//!   the runtime's own entry point called; non-zero `reserved` words have no meaning there and
//!   are refused with `cudaErrorNotSupported` (801), nothing called, outputs untouched. Signal /
//!   wait go to `_v2` (`_v2_ptsz`).
//! - The CUDA 12 version (`@CUDA_STUBS_CUDART_12`, 12.9's structs): forwarded on 11.x / 12.x. On
//!   13.x the descriptor is copied field by field into 13.x's layout (a local, `reserved`
//!   zero); the `_v1` parameter array is converted element by element into a local array (on
//!   the stack up to [`STACK_PARAMS`] entries, else `malloc`; allocation failure:
//!   `cudaErrorMemoryAllocation`, 2, nothing called).
//!
//! Both: a NULL descriptor is passed on as NULL (the runtime's own `cudaErrorInvalidValue`).

use super::{RawFn, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::{v11, v12};
use crate::types::{
    cudaError_t, cudaErrorMemoryAllocation, cudaExternalMemory_t, cudaExternalMemoryBufferDesc,
    cudaExternalMemoryHandleDesc, cudaExternalMemoryMipmappedArrayDesc, cudaExternalSemaphore_t,
    cudaExternalSemaphoreHandleDesc, cudaExternalSemaphoreSignalParams,
    cudaExternalSemaphoreSignalParams_v1, cudaExternalSemaphoreWaitParams,
    cudaExternalSemaphoreWaitParams_v1, cudaMipmappedArray_t, cudaStream_t,
};
use core::ffi::{c_uint, c_void};
use core::mem::{MaybeUninit, size_of};

// The CUDA 13 version: 13.x's structs, forwarded to 13.x, narrowed for 11.x / 12.x.

// 11.8 and 12.9 share these layouts: the 12.9 types serve both majors.
const _: () = assert!(
    size_of::<v11::cudaExternalMemoryHandleDesc>()
        == size_of::<v12::cudaExternalMemoryHandleDesc>()
);
const _: () = assert!(
    size_of::<v11::cudaExternalMemoryBufferDesc>()
        == size_of::<v12::cudaExternalMemoryBufferDesc>()
);
const _: () = assert!(
    size_of::<v11::cudaExternalMemoryMipmappedArrayDesc>()
        == size_of::<v12::cudaExternalMemoryMipmappedArrayDesc>()
);
const _: () = assert!(
    size_of::<v11::cudaExternalSemaphoreHandleDesc>()
        == size_of::<v12::cudaExternalSemaphoreHandleDesc>()
);
// The handle unions are the same 16 bytes in every major (copied as bytes below).
const _: () = assert!(
    size_of::<v12::cudaExternalMemoryHandleDesc__bindgen_ty_1>()
        == size_of::<crate::types::cudaExternalMemoryHandleDesc__bindgen_ty_1>()
);
const _: () = assert!(
    size_of::<v12::cudaExternalSemaphoreHandleDesc__bindgen_ty_1>()
        == size_of::<crate::types::cudaExternalSemaphoreHandleDesc__bindgen_ty_1>()
);

static IMPORT_MEM: RawFn = RawFn::new(c"cudaImportExternalMemory");
static MAPPED_BUFFER: RawFn = RawFn::new(c"cudaExternalMemoryGetMappedBuffer");
static MAPPED_MIPMAP: RawFn = RawFn::new(c"cudaExternalMemoryGetMappedMipmappedArray");
static IMPORT_SEM: RawFn = RawFn::new(c"cudaImportExternalSemaphore");
static SIGNAL_V2: RawFn = RawFn::new(c"cudaSignalExternalSemaphoresAsync_v2");
static SIGNAL_V2_PTSZ: RawFn = RawFn::new(c"cudaSignalExternalSemaphoresAsync_v2_ptsz");
static WAIT_V2: RawFn = RawFn::new(c"cudaWaitExternalSemaphoresAsync_v2");
static WAIT_V2_PTSZ: RawFn = RawFn::new(c"cudaWaitExternalSemaphoresAsync_v2_ptsz");

/// True when the loaded runtime is 11.x or 12.x (the older descriptor layouts).
fn older() -> bool {
    matches!(target(), Target::Major(11 | 12))
}

/// Copies `size_of::<T>()` bytes of a handle union (whichever member the caller set).
///
/// # Safety
/// `T` and `U` have the same size.
unsafe fn copy_union<T, U>(src: &T, dst: &mut U) {
    // SAFETY: same size (asserted above for the two unions used); plain bytes.
    unsafe {
        core::ptr::copy_nonoverlapping(
            (src as *const T).cast::<u8>(),
            (dst as *mut U).cast::<u8>(),
            size_of::<T>(),
        );
    }
}

/// `cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out, const struct cudaExternalMemoryHandleDesc *memHandleDesc)` (13.0 ABI, 104-byte descriptor).
///
/// # Safety
/// The CUDA API contract of `cudaImportExternalMemory`.
pub(crate) unsafe extern "C" fn cudaImportExternalMemory_abi13(
    extMem_out: *mut cudaExternalMemory_t,
    memHandleDesc: *const cudaExternalMemoryHandleDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaImportExternalMemory_abi13::Forward::call(extMem_out, memHandleDesc)
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { memHandleDesc.as_ref() }) else {
        return call_raw!(
            IMPORT_MEM,
            abi_fns::v12::cudaImportExternalMemory,
            (extMem_out, core::ptr::null())
        );
    };
    if d.reserved.iter().any(|w| *w != 0) {
        return refusal();
    }
    let mut old = v12::cudaExternalMemoryHandleDesc {
        type_: d.type_,
        size: d.size,
        flags: d.flags,
        ..Default::default()
    };
    // SAFETY: same-size unions.
    unsafe { copy_union(&d.handle, &mut old.handle) };
    call_raw!(
        IMPORT_MEM,
        abi_fns::v12::cudaImportExternalMemory,
        (extMem_out, &old)
    )
}

/// `cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem, const struct cudaExternalMemoryBufferDesc *bufferDesc)` (13.0 ABI, 88-byte descriptor).
///
/// # Safety
/// The CUDA API contract of `cudaExternalMemoryGetMappedBuffer`.
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedBuffer_abi13(
    devPtr: *mut *mut c_void,
    extMem: cudaExternalMemory_t,
    bufferDesc: *const cudaExternalMemoryBufferDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaExternalMemoryGetMappedBuffer_abi13::Forward::call(
                devPtr, extMem, bufferDesc,
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { bufferDesc.as_ref() }) else {
        return call_raw!(
            MAPPED_BUFFER,
            abi_fns::v12::cudaExternalMemoryGetMappedBuffer,
            (devPtr, extMem, core::ptr::null())
        );
    };
    if d.reserved.iter().any(|w| *w != 0) {
        return refusal();
    }
    let old = v12::cudaExternalMemoryBufferDesc {
        offset: d.offset,
        size: d.size,
        flags: d.flags,
    };
    call_raw!(
        MAPPED_BUFFER,
        abi_fns::v12::cudaExternalMemoryGetMappedBuffer,
        (devPtr, extMem, &old)
    )
}

/// `cudaError_t cudaExternalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem, const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)` (13.0 ABI, 128-byte descriptor).
///
/// # Safety
/// The CUDA API contract of `cudaExternalMemoryGetMappedMipmappedArray`.
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedMipmappedArray_abi13(
    mipmap: *mut cudaMipmappedArray_t,
    extMem: cudaExternalMemory_t,
    mipmapDesc: *const cudaExternalMemoryMipmappedArrayDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaExternalMemoryGetMappedMipmappedArray_abi13::Forward::call(
                mipmap, extMem, mipmapDesc,
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { mipmapDesc.as_ref() }) else {
        return call_raw!(
            MAPPED_MIPMAP,
            abi_fns::v12::cudaExternalMemoryGetMappedMipmappedArray,
            (mipmap, extMem, core::ptr::null())
        );
    };
    if d.reserved.iter().any(|w| *w != 0) {
        return refusal();
    }
    let old = v12::cudaExternalMemoryMipmappedArrayDesc {
        offset: d.offset,
        formatDesc: d.formatDesc,
        extent: d.extent,
        flags: d.flags,
        numLevels: d.numLevels,
    };
    call_raw!(
        MAPPED_MIPMAP,
        abi_fns::v12::cudaExternalMemoryGetMappedMipmappedArray,
        (mipmap, extMem, &old)
    )
}

/// `cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out, const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)` (13.0 ABI, 96-byte descriptor).
///
/// # Safety
/// The CUDA API contract of `cudaImportExternalSemaphore`.
pub(crate) unsafe extern "C" fn cudaImportExternalSemaphore_abi13(
    extSem_out: *mut cudaExternalSemaphore_t,
    semHandleDesc: *const cudaExternalSemaphoreHandleDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaImportExternalSemaphore_abi13::Forward::call(extSem_out, semHandleDesc)
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { semHandleDesc.as_ref() }) else {
        return call_raw!(
            IMPORT_SEM,
            abi_fns::v12::cudaImportExternalSemaphore,
            (extSem_out, core::ptr::null())
        );
    };
    if d.reserved.iter().any(|w| *w != 0) {
        return refusal();
    }
    let mut old = v12::cudaExternalSemaphoreHandleDesc {
        type_: d.type_,
        flags: d.flags,
        ..Default::default()
    };
    // SAFETY: same-size unions.
    unsafe { copy_union(&d.handle, &mut old.handle) };
    call_raw!(
        IMPORT_SEM,
        abi_fns::v12::cudaImportExternalSemaphore,
        (extSem_out, &old)
    )
}

/// Defines one signal / wait export: 13.x forwarded, 11.x / 12.x through `$v2`.
macro_rules! semaphores_async_abi13 {
    ($name:ident, $params:ty, $ty:ty, $v2:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// The CUDA API contract of the function.
        pub(crate) unsafe extern "C" fn $name(
            extSemArray: *const cudaExternalSemaphore_t,
            paramsArray: *const $params,
            numExtSems: c_uint,
            stream: cudaStream_t,
        ) -> cudaError_t {
            if older() {
                return call_raw!($v2, $ty, (extSemArray, paramsArray, numExtSems, stream));
            }
            // SAFETY: forwarded contract (13.x, or the typed refusal).
            unsafe {
                crate::api::$name::Forward::call(extSemArray, paramsArray, numExtSems, stream)
            }
        }
    };
}

semaphores_async_abi13!(
    cudaSignalExternalSemaphoresAsync_abi13,
    cudaExternalSemaphoreSignalParams,
    abi_fns::v12::cudaSignalExternalSemaphoresAsync_v2,
    SIGNAL_V2,
    "`cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (13.0 ABI); 11.x / 12.x: `cudaSignalExternalSemaphoresAsync_v2`."
);
semaphores_async_abi13!(
    cudaSignalExternalSemaphoresAsync_ptsz_abi13,
    cudaExternalSemaphoreSignalParams,
    abi_fns::v12::cudaSignalExternalSemaphoresAsync_v2_ptsz,
    SIGNAL_V2_PTSZ,
    "`cudaSignalExternalSemaphoresAsync` with the per-thread default stream; 11.x / 12.x: `cudaSignalExternalSemaphoresAsync_v2_ptsz`."
);
semaphores_async_abi13!(
    cudaWaitExternalSemaphoresAsync_abi13,
    cudaExternalSemaphoreWaitParams,
    abi_fns::v12::cudaWaitExternalSemaphoresAsync_v2,
    WAIT_V2,
    "`cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (13.0 ABI); 11.x / 12.x: `cudaWaitExternalSemaphoresAsync_v2`."
);
semaphores_async_abi13!(
    cudaWaitExternalSemaphoresAsync_ptsz_abi13,
    cudaExternalSemaphoreWaitParams,
    abi_fns::v12::cudaWaitExternalSemaphoresAsync_v2_ptsz,
    WAIT_V2_PTSZ,
    "`cudaWaitExternalSemaphoresAsync` with the per-thread default stream; 11.x / 12.x: `cudaWaitExternalSemaphoresAsync_v2_ptsz`."
);

// The CUDA 12 version: 12.9's structs, forwarded to 11.x / 12.x, widened for 13.x.

/// Parameter entries converted on the stack; larger arrays are `malloc`ed.
const STACK_PARAMS: usize = 8;

static SIGNAL: RawFn = RawFn::new(c"cudaSignalExternalSemaphoresAsync");
static SIGNAL_PTSZ: RawFn = RawFn::new(c"cudaSignalExternalSemaphoresAsync_ptsz");
static WAIT: RawFn = RawFn::new(c"cudaWaitExternalSemaphoresAsync");
static WAIT_PTSZ: RawFn = RawFn::new(c"cudaWaitExternalSemaphoresAsync_ptsz");

/// True when the loaded runtime is 13.x (the widened layouts).
fn on_13() -> bool {
    matches!(target(), Target::Major(13))
}

/// `cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out, const struct cudaExternalMemoryHandleDesc *memHandleDesc)`
/// (12.9 ABI, 40-byte descriptor; 104 on 13.x).
///
/// # Safety
/// The CUDA API contract of `cudaImportExternalMemory`.
pub(crate) unsafe extern "C" fn cudaImportExternalMemory_abi12(
    extMem_out: *mut cudaExternalMemory_t,
    memHandleDesc: *const v12::cudaExternalMemoryHandleDesc,
) -> cudaError_t {
    if !on_13() {
        // SAFETY: forwarded contract (11.x / 12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaImportExternalMemory_abi12::Forward::call(
                extMem_out,
                memHandleDesc.cast(),
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { memHandleDesc.as_ref() }) else {
        return call_raw!(
            IMPORT_MEM,
            abi_fns::v13::cudaImportExternalMemory,
            (extMem_out, core::ptr::null())
        );
    };
    let mut new = cudaExternalMemoryHandleDesc {
        type_: d.type_,
        size: d.size,
        flags: d.flags,
        ..Default::default()
    };
    // SAFETY: same-size unions.
    unsafe { copy_union(&d.handle, &mut new.handle) };
    call_raw!(
        IMPORT_MEM,
        abi_fns::v13::cudaImportExternalMemory,
        (extMem_out, &new)
    )
}

/// `cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem, const struct cudaExternalMemoryBufferDesc *bufferDesc)`
/// (12.9 ABI, 24-byte descriptor; 88 on 13.x).
///
/// # Safety
/// The CUDA API contract of `cudaExternalMemoryGetMappedBuffer`.
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedBuffer_abi12(
    devPtr: *mut *mut c_void,
    extMem: cudaExternalMemory_t,
    bufferDesc: *const v12::cudaExternalMemoryBufferDesc,
) -> cudaError_t {
    if !on_13() {
        // SAFETY: forwarded contract (11.x / 12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaExternalMemoryGetMappedBuffer_abi12::Forward::call(
                devPtr,
                extMem,
                bufferDesc.cast(),
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { bufferDesc.as_ref() }) else {
        return call_raw!(
            MAPPED_BUFFER,
            abi_fns::v13::cudaExternalMemoryGetMappedBuffer,
            (devPtr, extMem, core::ptr::null())
        );
    };
    let new = cudaExternalMemoryBufferDesc {
        offset: d.offset,
        size: d.size,
        flags: d.flags,
        reserved: [0; 16],
    };
    call_raw!(
        MAPPED_BUFFER,
        abi_fns::v13::cudaExternalMemoryGetMappedBuffer,
        (devPtr, extMem, &new)
    )
}

/// `cudaError_t cudaExternalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem, const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)`
/// (12.9 ABI, 64-byte descriptor; 128 on 13.x).
///
/// # Safety
/// The CUDA API contract of `cudaExternalMemoryGetMappedMipmappedArray`.
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedMipmappedArray_abi12(
    mipmap: *mut cudaMipmappedArray_t,
    extMem: cudaExternalMemory_t,
    mipmapDesc: *const v12::cudaExternalMemoryMipmappedArrayDesc,
) -> cudaError_t {
    if !on_13() {
        // SAFETY: forwarded contract (11.x / 12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaExternalMemoryGetMappedMipmappedArray_abi12::Forward::call(
                mipmap,
                extMem,
                mipmapDesc.cast(),
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { mipmapDesc.as_ref() }) else {
        return call_raw!(
            MAPPED_MIPMAP,
            abi_fns::v13::cudaExternalMemoryGetMappedMipmappedArray,
            (mipmap, extMem, core::ptr::null())
        );
    };
    let new = cudaExternalMemoryMipmappedArrayDesc {
        offset: d.offset,
        formatDesc: d.formatDesc,
        extent: d.extent,
        flags: d.flags,
        numLevels: d.numLevels,
        reserved: [0; 16],
    };
    call_raw!(
        MAPPED_MIPMAP,
        abi_fns::v13::cudaExternalMemoryGetMappedMipmappedArray,
        (mipmap, extMem, &new)
    )
}

/// `cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out, const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)`
/// (12.9 ABI, 32-byte descriptor; 96 on 13.x).
///
/// # Safety
/// The CUDA API contract of `cudaImportExternalSemaphore`.
pub(crate) unsafe extern "C" fn cudaImportExternalSemaphore_abi12(
    extSem_out: *mut cudaExternalSemaphore_t,
    semHandleDesc: *const v12::cudaExternalSemaphoreHandleDesc,
) -> cudaError_t {
    if !on_13() {
        // SAFETY: forwarded contract (11.x / 12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaImportExternalSemaphore_abi12::Forward::call(
                extSem_out,
                semHandleDesc.cast(),
            )
        };
    }
    // SAFETY: NULL or readable by contract.
    let Some(d) = (unsafe { semHandleDesc.as_ref() }) else {
        return call_raw!(
            IMPORT_SEM,
            abi_fns::v13::cudaImportExternalSemaphore,
            (extSem_out, core::ptr::null())
        );
    };
    let mut new = cudaExternalSemaphoreHandleDesc {
        type_: d.type_,
        flags: d.flags,
        ..Default::default()
    };
    // SAFETY: same-size unions.
    unsafe { copy_union(&d.handle, &mut new.handle) };
    call_raw!(
        IMPORT_SEM,
        abi_fns::v13::cudaImportExternalSemaphore,
        (extSem_out, &new)
    )
}

fn signal_from_v1(p: &cudaExternalSemaphoreSignalParams_v1) -> cudaExternalSemaphoreSignalParams {
    let mut n = cudaExternalSemaphoreSignalParams::default();
    n.params.fence.value = p.params.fence.value;
    // SAFETY: both members of the 8-byte union are plain data; `reserved` covers all of it.
    n.params.nvSciSync.reserved = unsafe { p.params.nvSciSync.reserved };
    n.params.keyedMutex.key = p.params.keyedMutex.key;
    n.flags = p.flags;
    n
}

fn wait_from_v1(p: &cudaExternalSemaphoreWaitParams_v1) -> cudaExternalSemaphoreWaitParams {
    let mut n = cudaExternalSemaphoreWaitParams::default();
    n.params.fence.value = p.params.fence.value;
    // SAFETY: both members of the 8-byte union are plain data; `reserved` covers all of it.
    n.params.nvSciSync.reserved = unsafe { p.params.nvSciSync.reserved };
    n.params.keyedMutex.key = p.params.keyedMutex.key;
    n.params.keyedMutex.timeoutMs = p.params.keyedMutex.timeoutMs;
    n.flags = p.flags;
    n
}

/// Converts `n` parameter entries with `f` into a local array (stack up to [`STACK_PARAMS`],
/// else `malloc`) and calls `call` with it; `cudaErrorMemoryAllocation` when `malloc` fails.
/// A NULL or empty `params` is passed on as is (the runtime's own validation).
///
/// # Safety
/// `params` is NULL or readable for `n` entries.
unsafe fn with_converted<T, U: Copy + Default>(
    params: *const T,
    n: c_uint,
    f: fn(&T) -> U,
    call: impl FnOnce(*const U) -> cudaError_t,
) -> cudaError_t {
    let n = n as usize;
    if params.is_null() || n == 0 {
        return call(core::ptr::null());
    }
    // SAFETY: readable for `n` entries by contract.
    let src = unsafe { core::slice::from_raw_parts(params, n) };
    if n <= STACK_PARAMS {
        let mut local = [U::default(); STACK_PARAMS];
        for (d, s) in local.iter_mut().zip(src) {
            *d = f(s);
        }
        return call(local.as_ptr());
    }
    let Some(bytes) = n.checked_mul(size_of::<U>()) else {
        return cudaErrorMemoryAllocation;
    };
    // SAFETY: malloc of `bytes`; malloc's alignment suits any C struct.
    let heap: *mut MaybeUninit<U> = unsafe { libc::malloc(bytes) }.cast();
    if heap.is_null() {
        return cudaErrorMemoryAllocation;
    }
    for (i, s) in src.iter().enumerate() {
        // SAFETY: `i < n`, inside the allocation.
        unsafe { heap.add(i).write(MaybeUninit::new(f(s))) };
    }
    let status = call(heap.cast_const().cast());
    // SAFETY: allocated above, not kept by the runtime past the call.
    unsafe { libc::free(heap.cast()) };
    status
}

/// Defines one signal / wait export: 13.x converts the `_v1` array, 11.x / 12.x forwarded.
macro_rules! semaphores_async_abi12 {
    ($name:ident, $v1:ty, $ty:ty, $raw:expr, $convert:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// The CUDA API contract of the function.
        pub(crate) unsafe extern "C" fn $name(
            extSemArray: *const cudaExternalSemaphore_t,
            paramsArray: *const $v1,
            numExtSems: c_uint,
            stream: cudaStream_t,
        ) -> cudaError_t {
            match target() {
                Target::NoLibrary => refusal(),
                Target::Major(13) => {
                    let call = |p| call_raw!($raw, $ty, (extSemArray, p, numExtSems, stream));
                    // SAFETY: NULL or readable for `numExtSems` entries by contract.
                    unsafe { with_converted(paramsArray, numExtSems, $convert, call) }
                }
                // SAFETY: forwarded contract (11.x / 12.x, or the typed refusal).
                Target::Major(_) => unsafe {
                    crate::api::$name::Forward::call(extSemArray, paramsArray, numExtSems, stream)
                },
            }
        }
    };
}

semaphores_async_abi12!(
    cudaSignalExternalSemaphoresAsync_abi12,
    cudaExternalSemaphoreSignalParams_v1,
    abi_fns::v13::cudaSignalExternalSemaphoresAsync,
    SIGNAL,
    signal_from_v1,
    "`cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams_v1 *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (12.9 ABI, 32-byte entries); 13.x: converted to 144-byte entries."
);
semaphores_async_abi12!(
    cudaSignalExternalSemaphoresAsync_ptsz_abi12,
    cudaExternalSemaphoreSignalParams_v1,
    abi_fns::v13::cudaSignalExternalSemaphoresAsync_ptsz,
    SIGNAL_PTSZ,
    signal_from_v1,
    "`cudaSignalExternalSemaphoresAsync` with the per-thread default stream."
);
semaphores_async_abi12!(
    cudaWaitExternalSemaphoresAsync_abi12,
    cudaExternalSemaphoreWaitParams_v1,
    abi_fns::v13::cudaWaitExternalSemaphoresAsync,
    WAIT,
    wait_from_v1,
    "`cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams_v1 *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (12.9 ABI, 40-byte entries); 13.x: converted to 144-byte entries."
);
semaphores_async_abi12!(
    cudaWaitExternalSemaphoresAsync_ptsz_abi12,
    cudaExternalSemaphoreWaitParams_v1,
    abi_fns::v13::cudaWaitExternalSemaphoresAsync_ptsz,
    WAIT_PTSZ,
    wait_from_v1,
    "`cudaWaitExternalSemaphoresAsync` with the per-thread default stream."
);
