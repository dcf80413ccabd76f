//! `cudaMemAdvise`, `cudaMemPrefetchAsync` and `cudaMemPrefetchAsync_ptsz` (cuda_runtime_api.h):
//! where the memory should live, given as an `int device` before CUDA 13 and as a
//! `struct cudaMemLocation` (8 bytes, by value) since.
//!
//! | runtime | plain names | location forms |
//! |---|---|---|
//! | 11.x (11.8 header) | `cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device)`, `cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)` | – |
//! | 12.x (12.9 header) | the same `int` forms | `cudaMemAdvise_v2`, `cudaMemPrefetchAsync_v2` (`_v2_ptsz`), 12.2+ |
//! | 13.x (13.0 header) | `cudaMemAdvise(devPtr, count, advice, struct cudaMemLocation location)`, `cudaMemPrefetchAsync(devPtr, count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream)` | (the plain names) |
//!
//! The plain names are exported once per ABI; 12.x's `_v2` names are exported as they are and
//! bound to the plain names on 13.x (`REPLACEMENTS` in `lib.rs`).
//!
//! - The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`, the location forms): forwarded on 13.x. On
//!   12.x it calls `_v2` when the runtime has it; otherwise (11.x, 12.0 / 12.1) the `int` form,
//!   the location mapped as CUDA 12 documents it ([`device_of`]). `cudaMemAdviseSetReadMostly` /
//!   `UnsetReadMostly` ignore the location (device 0 is passed). Locations an `int` cannot
//!   express (`HostNuma`, `HostNumaCurrent`, invalid) and non-zero prefetch `flags` are refused
//!   with `cudaErrorNotSupported` (801), nothing called.
//! - The CUDA 12 version (`@CUDA_STUBS_CUDART_12`, the `int` forms): forwarded on 11.x / 12.x.
//!   On 13.x the location form, the device mapped the other way ([`location_of`]; an invalid
//!   ordinal gets the runtime's own error, as on 12.x), prefetch `flags` 0 (12.x had none).
//!   Nothing is refused.

use super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
// Each runtime is called with its own major's prototypes (`abi_fns::v12`: 11.x declares the
// `int` forms the same).
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaMemAdviseSetReadMostly, cudaMemAdviseUnsetReadMostly, cudaMemLocation,
    cudaMemLocation__bindgen_ty_1, cudaMemLocationTypeDevice, cudaMemLocationTypeHost,
    cudaMemoryAdvise, cudaStream_t,
};
use core::ffi::{c_int, c_uint, c_void};

/// `cudaCpuDeviceId`: the host, as an `int device`.
const CPU_DEVICE_ID: c_int = -1;
/// Advice whose location is ignored.
const READ_MOSTLY: [cudaMemoryAdvise; 2] =
    [cudaMemAdviseSetReadMostly, cudaMemAdviseUnsetReadMostly];

// The plain names are the `int` forms on 11.x / 12.x and the location forms on 13.x.
static ADVISE: RawFn = RawFn::new(c"cudaMemAdvise");
static ADVISE_V2: RawFn = RawFn::new(c"cudaMemAdvise_v2");
static PREFETCH: RawFn = RawFn::new(c"cudaMemPrefetchAsync");
static PREFETCH_V2: RawFn = RawFn::new(c"cudaMemPrefetchAsync_v2");
static PREFETCH_PTSZ: RawFn = RawFn::new(c"cudaMemPrefetchAsync_ptsz");
static PREFETCH_V2_PTSZ: RawFn = RawFn::new(c"cudaMemPrefetchAsync_v2_ptsz");

/// The `int device` an older runtime takes for `location`, if it has one (the CUDA 13 version
/// on 11.x / 12.x).
fn device_of(location: cudaMemLocation) -> Option<c_int> {
    match location.type_ {
        // SAFETY: for a Device location, 13.x headers define the union's `id` member (13.5
        // added a `localized` view of the same 4 bytes for other location types).
        t if t == cudaMemLocationTypeDevice => Some(unsafe { location.__bindgen_anon_1.id }),
        t if t == cudaMemLocationTypeHost => Some(CPU_DEVICE_ID),
        _ => None,
    }
}

/// The 13.x location of a 12.x `int device` (the CUDA 12 version on 13.x): the inverse of
/// [`device_of`].
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

// The CUDA 13 version: location forms, forwarded to 13.x, translated for 11.x / 12.x.

/// `cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaMemAdvise`.
pub(crate) unsafe extern "C" fn cudaMemAdvise_abi13(
    devPtr: *const c_void,
    count: usize,
    advice: cudaMemoryAdvise,
    location: cudaMemLocation,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(m @ (11 | 12)) => {
            if m == 12 && ADVISE_V2.get().is_some() {
                return call_raw!(
                    ADVISE_V2,
                    abi_fns::v12::cudaMemAdvise_v2,
                    (devPtr, count, advice, location)
                );
            }
            let device = if READ_MOSTLY.contains(&advice) {
                Some(0)
            } else {
                device_of(location)
            };
            match device {
                Some(d) => call_raw!(
                    ADVISE,
                    abi_fns::v12::cudaMemAdvise,
                    (devPtr, count, advice, d)
                ),
                None => refusal(),
            }
        }
        // SAFETY: forwarded contract; 13.x has the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaMemAdvise_abi13::Forward::call(devPtr, count, advice, location)
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn prefetch_older(
    int_form: &RawFn,
    v2: &RawFn,
    major: u32,
    devPtr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    if major == 12 && v2.get().is_some() {
        return call_raw!(
            v2,
            abi_fns::v12::cudaMemPrefetchAsync_v2,
            (devPtr, count, location, flags, stream)
        );
    }
    match device_of(location) {
        Some(d) if flags == 0 => call_raw!(
            int_form,
            abi_fns::v12::cudaMemPrefetchAsync,
            (devPtr, count, d, stream)
        ),
        _ => refusal(),
    }
}

with_ptsz! {
    /// `cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream)` (13.0 ABI).
    ///
    /// # Safety
    /// The CUDA API contract of `cudaMemPrefetchAsync`.
    pub(crate) unsafe extern "C" fn cudaMemPrefetchAsync_abi13 / cudaMemPrefetchAsync_ptsz_abi13(
        devPtr: *const c_void,
        count: usize,
        location: cudaMemLocation,
        flags: c_uint,
        stream: cudaStream_t,
    ) -> cudaError_t
    where {
        int_form = &PREFETCH, &PREFETCH_PTSZ;
        v2 = &PREFETCH_V2, &PREFETCH_V2_PTSZ;
        forward = crate::api::cudaMemPrefetchAsync_abi13::Forward::call,
            crate::api::cudaMemPrefetchAsync_ptsz_abi13::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            Target::Major(m @ (11 | 12)) => prefetch_older(
                int_form,
                v2,
                m,
                devPtr,
                count,
                location,
                flags,
                stream,
            ),
            // SAFETY: forwarded contract; 13.x has the exported prototype.
            Target::Major(_) => unsafe {
                forward(
                    devPtr, count, location, flags, stream,
                )
            },
        }
    }
}

// The CUDA 12 version: `int` forms, forwarded to 11.x / 12.x, translated for 13.x.

/// `cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device)`
/// (12.9 ABI). 13.x: the location form.
///
/// # Safety
/// The CUDA API contract of `cudaMemAdvise`.
pub(crate) unsafe extern "C" fn cudaMemAdvise_abi12(
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
            crate::api::cudaMemAdvise_abi12::Forward::call(devPtr, count, advice, device)
        },
    }
}

with_ptsz! {
    /// `cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)`
    /// (12.9 ABI). 13.x: the location form, flags 0.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaMemPrefetchAsync`.
    pub(crate) unsafe extern "C" fn cudaMemPrefetchAsync_abi12 / cudaMemPrefetchAsync_ptsz_abi12(
        devPtr: *const c_void,
        count: usize,
        dstDevice: c_int,
        stream: cudaStream_t,
    ) -> cudaError_t
    where {
        prefetch = &PREFETCH, &PREFETCH_PTSZ;
        forward = crate::api::cudaMemPrefetchAsync_abi12::Forward::call,
            crate::api::cudaMemPrefetchAsync_ptsz_abi12::Forward::call;
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
