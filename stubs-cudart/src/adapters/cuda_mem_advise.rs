//! `cudaMemAdvise`, `cudaMemPrefetchAsync`, `cudaMemPrefetchAsync_ptsz` (cuda_runtime_api.h).
//!
//! - 13.x (13.0 header), this version's ABI, forwarded:
//!   `cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)`,
//!   `cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream)`.
//! - 12.x (12.9 header): the plain names take an `int device`
//!   (`cudaMemAdvise(devPtr, count, advice, int device)`,
//!   `cudaMemPrefetchAsync(devPtr, count, int dstDevice, cudaStream_t stream)`); 12.2+ also
//!   exports `cudaMemAdvise_v2` / `cudaMemPrefetchAsync_v2` (`_v2_ptsz`) with the 13.x
//!   prototypes, which the adapter calls when present.
//! - 11.x (11.8 header): only the `int device` forms.
//!
//! For the `int` forms the location maps as CUDA 12 documents it: `cudaMemLocationTypeDevice`
//! → its `id`, `cudaMemLocationTypeHost` → `cudaCpuDeviceId` (-1). `cudaMemAdviseSetReadMostly`
//! / `UnsetReadMostly` ignore the location (device 0 is passed). Locations an `int` cannot
//! express (`HostNuma`, `HostNumaCurrent`, invalid) and non-zero prefetch `flags` are refused
//! with `cudaErrorNotSupported` (801).

use super::super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
// Older runtimes are called with 12.9's prototypes (`abi_fns::v12`); 11.x declares the same
// where it exports the name.
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaMemAdviseSetReadMostly, cudaMemAdviseUnsetReadMostly, cudaMemLocation,
    cudaMemLocationTypeDevice, cudaMemLocationTypeHost, cudaMemoryAdvise, cudaStream_t,
};
use core::ffi::{c_int, c_uint, c_void};

/// `cudaCpuDeviceId`.
const CPU_DEVICE_ID: c_int = -1;
/// Advice whose location is ignored.
const READ_MOSTLY: [cudaMemoryAdvise; 2] =
    [cudaMemAdviseSetReadMostly, cudaMemAdviseUnsetReadMostly];

static ADVISE_INT: RawFn = RawFn::new(c"cudaMemAdvise");
static ADVISE_V2: RawFn = RawFn::new(c"cudaMemAdvise_v2");
static PREFETCH_INT: RawFn = RawFn::new(c"cudaMemPrefetchAsync");
static PREFETCH_V2: RawFn = RawFn::new(c"cudaMemPrefetchAsync_v2");
static PREFETCH_INT_PTSZ: RawFn = RawFn::new(c"cudaMemPrefetchAsync_ptsz");
static PREFETCH_V2_PTSZ: RawFn = RawFn::new(c"cudaMemPrefetchAsync_v2_ptsz");

/// The `int device` an older runtime takes for `location`, if it has one.
fn device_of(location: cudaMemLocation) -> Option<c_int> {
    match location.type_ {
        // SAFETY: for a Device location, 13.x headers define the union's `id` member (13.5
        // added a `localized` view of the same 4 bytes for other location types).
        t if t == cudaMemLocationTypeDevice => Some(unsafe { location.__bindgen_anon_1.id }),
        t if t == cudaMemLocationTypeHost => Some(CPU_DEVICE_ID),
        _ => None,
    }
}

/// `cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaMemAdvise`.
pub(crate) unsafe extern "C" fn cudaMemAdvise(
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
                    ADVISE_INT,
                    abi_fns::v12::cudaMemAdvise,
                    (devPtr, count, advice, d)
                ),
                None => refusal(),
            }
        }
        // SAFETY: forwarded contract; 13.x has the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::abi13::cudaMemAdvise::Forward::call(devPtr, count, advice, location)
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
    pub(crate) unsafe extern "C" fn cudaMemPrefetchAsync / cudaMemPrefetchAsync_ptsz(
        devPtr: *const c_void,
        count: usize,
        location: cudaMemLocation,
        flags: c_uint,
        stream: cudaStream_t,
    ) -> cudaError_t
    where {
        int_form = &PREFETCH_INT, &PREFETCH_INT_PTSZ;
        v2 = &PREFETCH_V2, &PREFETCH_V2_PTSZ;
        forward = crate::api::abi13::cudaMemPrefetchAsync::Forward::call,
            crate::api::abi13::cudaMemPrefetchAsync_ptsz::Forward::call;
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
