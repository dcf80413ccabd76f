//! `cudaMemAdvise`, `cudaMemPrefetchAsync`, `cudaMemPrefetchAsync_ptsz` in their CUDA 12 version
//! (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), this version's ABI, forwarded: an `int device`,
//!   `cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device)`,
//!   `cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)`
//!   (12.2+'s location forms are the separate `_v2` names, exported as they are).
//! - 13.x (13.0 header): the plain names take a `struct cudaMemLocation` (8 bytes, by value),
//!   `cudaMemAdvise(devPtr, count, advice, struct cudaMemLocation location)`,
//!   `cudaMemPrefetchAsync(devPtr, count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream)`.
//!
//! On 13.x the device maps as the 12.x documentation defines it: `cudaCpuDeviceId` (-1) →
//! `{cudaMemLocationTypeHost, 0}`, any other value → `{cudaMemLocationTypeDevice, device}` (an
//! invalid ordinal gets the runtime's own error, as on 12.x); prefetch `flags` are 0 (12.x had
//! none). Nothing is refused.

use super::super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaMemLocation, cudaMemLocation__bindgen_ty_1, cudaMemLocationTypeDevice,
    cudaMemLocationTypeHost, cudaMemoryAdvise, cudaStream_t,
};
use core::ffi::{c_int, c_void};

/// `cudaCpuDeviceId`.
const CPU_DEVICE_ID: c_int = -1;

static ADVISE: RawFn = RawFn::new(c"cudaMemAdvise");
static PREFETCH: RawFn = RawFn::new(c"cudaMemPrefetchAsync");
static PREFETCH_PTSZ: RawFn = RawFn::new(c"cudaMemPrefetchAsync_ptsz");

/// The 13.x location of a 12.x `int device`.
fn location_of(device: c_int) -> cudaMemLocation {
    if device == CPU_DEVICE_ID {
        cudaMemLocation {
            type_: cudaMemLocationTypeHost,
            __bindgen_anon_1: cudaMemLocation__bindgen_ty_1 { id: 0 },
        }
    } else {
        cudaMemLocation {
            type_: cudaMemLocationTypeDevice,
            __bindgen_anon_1: cudaMemLocation__bindgen_ty_1 { id: device },
        }
    }
}

/// `cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device)`
/// (12.9 ABI). 13.x: the location form.
///
/// # Safety
/// The CUDA API contract of `cudaMemAdvise`.
pub(crate) unsafe extern "C" fn cudaMemAdvise(
    devPtr: *const c_void,
    count: usize,
    advice: cudaMemoryAdvise,
    device: c_int,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            ADVISE,
            abi_fns::v13::cudaMemAdvise,
            (devPtr, count, advice, location_of(device))
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::abi12::cudaMemAdvise::Forward::call(devPtr, count, advice, device)
        },
    }
}

with_ptsz! {
    /// `cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)`
    /// (12.9 ABI). 13.x: the location form, flags 0.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaMemPrefetchAsync`.
    pub(crate) unsafe extern "C" fn cudaMemPrefetchAsync / cudaMemPrefetchAsync_ptsz(
        devPtr: *const c_void,
        count: usize,
        dstDevice: c_int,
        stream: cudaStream_t,
    ) -> cudaError_t
    where {
        prefetch = &PREFETCH, &PREFETCH_PTSZ;
        forward = crate::api::abi12::cudaMemPrefetchAsync::Forward::call,
            crate::api::abi12::cudaMemPrefetchAsync_ptsz::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            Target::Major(13) => call_raw!(
                prefetch,
                abi_fns::v13::cudaMemPrefetchAsync,
                (devPtr, count, location_of(dstDevice), 0, stream)
            ),
            // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
            Target::Major(_) => unsafe {
                forward(devPtr, count, dstDevice, stream)
            },
        }
    }
}
