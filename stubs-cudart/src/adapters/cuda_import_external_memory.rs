//! External memory and semaphores (cuda_runtime_api.h, driver_types.h):
//! `cudaImportExternalMemory`, `cudaExternalMemoryGetMappedBuffer`,
//! `cudaExternalMemoryGetMappedMipmappedArray`, `cudaImportExternalSemaphore`,
//! `cudaSignalExternalSemaphoresAsync`, `cudaWaitExternalSemaphoresAsync` (and the `_ptsz`
//! twins of the last two).
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
//! On 11.x / 12.x the descriptor is copied field by field into the older layout (a local) and
//! the runtime's own entry point called; non-zero `reserved` words have no meaning there and
//! are refused with `cudaErrorNotSupported` (801), nothing called, outputs untouched. A NULL
//! descriptor is passed on as NULL (the runtime's own `cudaErrorInvalidValue`).
//!
//! Signal / wait: 11.8's and 12.9's plain `cudaSignalExternalSemaphoresAsync` /
//! `cudaWaitExternalSemaphoresAsync` take the 11.1-era `..._v1` parameter structs; the current
//! `cudaExternalSemaphoreSignalParams` / `WaitParams` (same layout in 11.8, 12.9 and 13.x) go
//! to their `_v2` names (11.2+; `_v2_ptsz` for the per-thread default stream), which is what
//! an 11.x / 12.x header `#define`s the plain names to. 13.x: everything forwarded.

use super::super::{RawFn, Target, call_raw, refusal, target};
// Older runtimes are called with 12.9's prototypes (`abi_fns::v12`); 11.x's declarations and
// descriptor layouts are the same.
use crate::abi_fns;
use crate::abi_types::{v11, v12};
use crate::types::{
    cudaError_t, cudaExternalMemory_t, cudaExternalMemoryBufferDesc, cudaExternalMemoryHandleDesc,
    cudaExternalMemoryMipmappedArrayDesc, cudaExternalSemaphore_t, cudaExternalSemaphoreHandleDesc,
    cudaExternalSemaphoreSignalParams, cudaExternalSemaphoreWaitParams, cudaMipmappedArray_t,
    cudaStream_t,
};
use core::ffi::{c_uint, c_void};
use core::mem::size_of;

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
pub(crate) unsafe extern "C" fn cudaImportExternalMemory(
    extMem_out: *mut cudaExternalMemory_t,
    memHandleDesc: *const cudaExternalMemoryHandleDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::abi13::cudaImportExternalMemory::Forward::call(extMem_out, memHandleDesc)
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
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedBuffer(
    devPtr: *mut *mut c_void,
    extMem: cudaExternalMemory_t,
    bufferDesc: *const cudaExternalMemoryBufferDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::abi13::cudaExternalMemoryGetMappedBuffer::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaExternalMemoryGetMappedMipmappedArray(
    mipmap: *mut cudaMipmappedArray_t,
    extMem: cudaExternalMemory_t,
    mipmapDesc: *const cudaExternalMemoryMipmappedArrayDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::abi13::cudaExternalMemoryGetMappedMipmappedArray::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaImportExternalSemaphore(
    extSem_out: *mut cudaExternalSemaphore_t,
    semHandleDesc: *const cudaExternalSemaphoreHandleDesc,
) -> cudaError_t {
    if !older() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::abi13::cudaImportExternalSemaphore::Forward::call(extSem_out, semHandleDesc)
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
macro_rules! semaphores_async {
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
                crate::api::abi13::$name::Forward::call(
                    extSemArray,
                    paramsArray,
                    numExtSems,
                    stream,
                )
            }
        }
    };
}

semaphores_async!(
    cudaSignalExternalSemaphoresAsync,
    cudaExternalSemaphoreSignalParams,
    abi_fns::v12::cudaSignalExternalSemaphoresAsync_v2,
    SIGNAL_V2,
    "`cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (13.0 ABI); 11.x / 12.x: `cudaSignalExternalSemaphoresAsync_v2`."
);
semaphores_async!(
    cudaSignalExternalSemaphoresAsync_ptsz,
    cudaExternalSemaphoreSignalParams,
    abi_fns::v12::cudaSignalExternalSemaphoresAsync_v2_ptsz,
    SIGNAL_V2_PTSZ,
    "`cudaSignalExternalSemaphoresAsync` with the per-thread default stream; 11.x / 12.x: `cudaSignalExternalSemaphoresAsync_v2_ptsz`."
);
semaphores_async!(
    cudaWaitExternalSemaphoresAsync,
    cudaExternalSemaphoreWaitParams,
    abi_fns::v12::cudaWaitExternalSemaphoresAsync_v2,
    WAIT_V2,
    "`cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems, cudaStream_t stream)` (13.0 ABI); 11.x / 12.x: `cudaWaitExternalSemaphoresAsync_v2`."
);
semaphores_async!(
    cudaWaitExternalSemaphoresAsync_ptsz,
    cudaExternalSemaphoreWaitParams,
    abi_fns::v12::cudaWaitExternalSemaphoresAsync_v2_ptsz,
    WAIT_V2_PTSZ,
    "`cudaWaitExternalSemaphoresAsync` with the per-thread default stream; 11.x / 12.x: `cudaWaitExternalSemaphoresAsync_v2_ptsz`."
);
