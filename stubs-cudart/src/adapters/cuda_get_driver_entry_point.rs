//! `cudaGetDriverEntryPoint` and `cudaGetDriverEntryPoint_ptsz` (cuda_runtime_api.h).
//!
//! - 12.0+ (12.9, 13.0 headers): `cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags, cudaDriverEntryPointQueryResult *driverStatus)`
//!   — the exported ABI; forwarded on 12.x and 13.x.
//! - 11.x (11.8 header): `cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags)`.
//!   The adapter calls it and translates the outcome: success → `cudaDriverEntryPointSuccess`;
//!   `cudaErrorSymbolNotFound` (500) → success with a NULL `*funcPtr` and
//!   `cudaDriverEntryPointSymbolNotFound` (12.0+ report a missing symbol that way, whether or
//!   not `driverStatus` is given, never through the return code); `driverStatus` is written
//!   only when non-NULL. Any other error is returned as is, outputs untouched.

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target, with_ptsz};
use crate::abi_fns;
use crate::types::{
    cudaDriverEntryPointQueryResult, cudaDriverEntryPointSuccess,
    cudaDriverEntryPointSymbolNotFound, cudaError_t,
};
use core::ffi::{c_char, c_ulonglong, c_void};

static V11: RawFn = RawFn::new(c"cudaGetDriverEntryPoint");
static V11_PTSZ: RawFn = RawFn::new(c"cudaGetDriverEntryPoint_ptsz");

/// The 11.x translation.
///
/// # Safety
/// The CUDA API contract of `cudaGetDriverEntryPoint`.
unsafe fn older(
    raw: &RawFn,
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    // `raw` is either name; the `_ptsz` twin has the same 11.x prototype.
    let status = call_raw!(
        raw,
        abi_fns::v11::cudaGetDriverEntryPoint,
        (symbol, funcPtr, flags)
    );
    let (code, query) = match status {
        SUCCESS => (SUCCESS, cudaDriverEntryPointSuccess),
        // A path pattern: a bare lower-case constant would read as a binding to the lint.
        crate::types::cudaErrorSymbolNotFound => {
            if !funcPtr.is_null() {
                // SAFETY: writable by contract.
                unsafe { funcPtr.write(core::ptr::null_mut()) };
            }
            (SUCCESS, cudaDriverEntryPointSymbolNotFound)
        }
        other => return other,
    };
    if !driverStatus.is_null() {
        // SAFETY: non-NULL and writable by contract.
        unsafe { driverStatus.write(query) };
    }
    code
}

with_ptsz! {
    /// `cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags, cudaDriverEntryPointQueryResult *driverStatus)` (12.0+ ABI).
    ///
    /// # Safety
    /// The CUDA API contract of `cudaGetDriverEntryPoint`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn cudaGetDriverEntryPoint / cudaGetDriverEntryPoint_ptsz(
        symbol: *const c_char,
        funcPtr: *mut *mut c_void,
        flags: c_ulonglong,
        driverStatus: *mut cudaDriverEntryPointQueryResult,
    ) -> cudaError_t
    where {
        v11 = &V11, &V11_PTSZ;
        forward = crate::api::cudaGetDriverEntryPoint::Forward::call,
            crate::api::cudaGetDriverEntryPoint_ptsz::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            // SAFETY: forwarded contract.
            Target::Major(11) => unsafe { older(v11, symbol, funcPtr, flags, driverStatus) },
            // SAFETY: forwarded contract; same prototype on 12.x and 13.x.
            Target::Major(_) => unsafe {
                forward(symbol, funcPtr, flags, driverStatus)
            },
        }
    }
}
