//! The runtime's driver entry points, `cudaGetDriverEntryPoint` and
//! `cudaGetDriverEntryPointByVersion` (cuda_runtime_api.h, CUDA 12+ ABI) and their per-thread
//! default stream variants: as NVIDIA's runtime, they ask the driver's `cuGetProcAddress_v2`
//! through its C entry point (the mock's own, `driver/entry_points.rs`; the runtime's face
//! imports nothing of the driver's): at the runtime's version for the former, with the stream
//! flags mapped one to one (`cudaEnableDefault` is the legacy stream, or the per-thread one for
//! code built with `--default-stream per-thread`, which calls the `_ptsz` export). A name the
//! driver lacks is no error: `cudaSuccess`, a NULL `*funcPtr` and `driverStatus` saying why.

// NVIDIA's parameter names (cuda_runtime_api.h).
#![allow(non_snake_case)]

use crate::runtime::{RUNTIME_VERSION, call};
use crate::types::cudart::*;
use core::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};

unsafe extern "C" {
    /// The driver's getter, by its C entry point (`driver/entry_points.rs` defines it).
    fn cuGetProcAddress_v2(
        symbol: *const c_char,
        pfn: *mut *mut c_void,
        cudaVersion: c_int,
        flags: crate::types::cuda::cuuint64_t,
        symbolStatus: *mut crate::types::cuda::CUdriverProcAddressQueryResult,
    ) -> crate::types::cuda::CUresult;
}

/// `cudaEnablePerThreadDefaultStream`.
const PER_THREAD: c_ulonglong = 2;

/// The lookup of `symbol` at `version` with the runtime's `flags` (the per-thread stream when
/// `per_thread` and the flags leave it to the build).
///
/// # Safety
/// `symbol` is NULL or NUL-terminated; `funcPtr` and `driverStatus` NULL or writable.
unsafe fn entry_point(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    version: c_int,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
    per_thread: bool,
) -> cudaError_t {
    call(|_| {
        if symbol.is_null() || funcPtr.is_null() || flags > PER_THREAD {
            return cudaErrorInvalidValue;
        }
        let flags = match flags {
            0 if per_thread => PER_THREAD,
            0 => 1,
            f => f,
        };
        let mut status = 0;
        // SAFETY: the driver's contract, met by the caller's pointers.
        unsafe { cuGetProcAddress_v2(symbol, funcPtr, version, flags, &mut status) };
        if !driverStatus.is_null() {
            // SAFETY: non-NULL, the caller's status; the two enums number alike.
            unsafe { *driverStatus = status as cudaDriverEntryPointQueryResult };
        }
        cudaSuccess
    })
}

/// `cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long
/// flags, cudaDriverEntryPointQueryResult *driverStatus)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPoint(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { entry_point(symbol, funcPtr, RUNTIME_VERSION, flags, driverStatus, false) }
}

/// `cudaGetDriverEntryPoint` of code built with `--default-stream per-thread`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPoint_ptsz(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { entry_point(symbol, funcPtr, RUNTIME_VERSION, flags, driverStatus, true) }
}

/// `cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned
/// int cudaVersion, unsigned long long flags, cudaDriverEntryPointQueryResult *driverStatus)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    cudaVersion: c_uint,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    let version = c_int::try_from(cudaVersion).unwrap_or(c_int::MAX);
    // SAFETY: forwarded contract.
    unsafe { entry_point(symbol, funcPtr, version, flags, driverStatus, false) }
}

/// `cudaGetDriverEntryPointByVersion` of code built with `--default-stream per-thread`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion_ptsz(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    cudaVersion: c_uint,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    let version = c_int::try_from(cudaVersion).unwrap_or(c_int::MAX);
    // SAFETY: forwarded contract.
    unsafe { entry_point(symbol, funcPtr, version, flags, driverStatus, true) }
}
