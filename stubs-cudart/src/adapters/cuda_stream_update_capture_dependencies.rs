//! `cudaStreamUpdateCaptureDependencies` and its `_ptsz` twin (cuda_runtime_api.h): 13.x's
//! plain name takes the `cudaGraphEdgeData` array 12.x's lacks (12.3+ has it as `_v2`), so it
//! is exported once per ABI.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! `cudaStreamUpdateCaptureDependencies` and its `_ptsz` twin (cuda_runtime_api.h).
//!
//! - 13.x (13.0+ header): `cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)`
//!   — the CUDA 13 version's ABI; forwarded.
//! - 12.x (12.9 header): the plain name is the 4-argument form
//!   `(stream, dependencies, size_t numDependencies, unsigned int flags)`;
//!   `cudaStreamUpdateCaptureDependencies_v2` (12.3+) has 13.x's 5-argument form.
//! - 11.x (11.3+, 11.8 header): only the 4-argument form.
//!
//! On 12.x a non-NULL `dependencyData` goes to `_v2` when the runtime has it. Otherwise the
//! 4-argument form: before 12.3 every edge is a default (all-zero) `cudaGraphEdgeData`, so NULL
//! or all-default edge data is dropped and anything else is refused with
//! `cudaErrorNotSupported` (801) without calling the runtime (a programmatic edge cannot be
//! expressed). The `_ptsz` twin is the same with the per-thread default stream.
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! `cudaStreamUpdateCaptureDependencies` and `cudaStreamUpdateCaptureDependencies_ptsz` in the CUDA
//! 12 version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), the CUDA 12 version's ABI, forwarded:
//!   `cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags)`
//!   (12.3+'s edge-data form is the separate `_v2` name, exported as it is).
//! - 13.x (13.0 header): `(stream, dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)`.
//!
//! On 13.x the adapter passes NULL edge data: 13.x documents it as all default edges, the only
//! kind a 12.x caller of the plain name can mean. Nothing is refused.

use super::cuda_graph_edges::all_default;
use super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraphEdgeData, cudaGraphNode_t, cudaStream_t};
use core::ffi::c_uint;

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

static PLAIN: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies");
static PLAIN_PTSZ: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies_ptsz");
static V2: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies_v2");
static V2_PTSZ: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies_v2_ptsz");

/// The translation for 11.x / 12.x.
///
/// # Safety
/// The CUDA API contract of `cudaStreamUpdateCaptureDependencies`.
#[allow(clippy::too_many_arguments)]
unsafe fn older(
    plain: &RawFn,
    v2: &RawFn,
    major: u32,
    stream: cudaStream_t,
    dependencies: *mut cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> cudaError_t {
    if major == 12 && !dependencyData.is_null() && v2.get().is_some() {
        return call_raw!(
            v2,
            abi_fns::v12::cudaStreamUpdateCaptureDependencies_v2,
            (stream, dependencies, dependencyData, numDependencies, flags)
        );
    }
    // SAFETY: `dependencyData` is NULL or has `numDependencies` entries by contract.
    if !unsafe { all_default(dependencyData, numDependencies) } {
        return refusal();
    }
    call_raw!(
        plain,
        abi_fns::v12::cudaStreamUpdateCaptureDependencies,
        (stream, dependencies, numDependencies, flags)
    )
}

with_ptsz! {
    /// `cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)` (13.0 ABI).
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamUpdateCaptureDependencies`.
    pub(crate) unsafe extern "C" fn cudaStreamUpdateCaptureDependencies_abi13 / cudaStreamUpdateCaptureDependencies_ptsz_abi13(
        stream: cudaStream_t,
        dependencies: *mut cudaGraphNode_t,
        dependencyData: *const cudaGraphEdgeData,
        numDependencies: usize,
        flags: c_uint,
    ) -> cudaError_t
    where {
        plain = &PLAIN, &PLAIN_PTSZ;
        v2 = &V2, &V2_PTSZ;
        forward = crate::api::cudaStreamUpdateCaptureDependencies_abi13::Forward::call,
            crate::api::cudaStreamUpdateCaptureDependencies_ptsz_abi13::Forward::call;
    }
    {
        match target() {
            // SAFETY: forwarded contract.
            Target::Major(m @ (11 | 12)) => unsafe {
                older(
                    plain,
                    v2,
                    m,
                    stream,
                    dependencies,
                    dependencyData,
                    numDependencies,
                    flags,
                )
            },
            // SAFETY: forwarded contract (13.x, or the typed refusal).
            _ => unsafe {
                forward(
                    stream,
                    dependencies,
                    dependencyData,
                    numDependencies,
                    flags,
                )
            },
        }
    }
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

with_ptsz! {
    /// `cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags)`
    /// (12.9 ABI). 13.x: the 5-argument form with NULL edge data.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamUpdateCaptureDependencies`.
    pub(crate) unsafe extern "C" fn cudaStreamUpdateCaptureDependencies_abi12 / cudaStreamUpdateCaptureDependencies_ptsz_abi12(
        stream: cudaStream_t,
        dependencies: *mut cudaGraphNode_t,
        numDependencies: usize,
        flags: c_uint,
    ) -> cudaError_t
    where {
        update = &PLAIN, &PLAIN_PTSZ;
        forward = crate::api::cudaStreamUpdateCaptureDependencies_abi12::Forward::call,
            crate::api::cudaStreamUpdateCaptureDependencies_ptsz_abi12::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            Target::Major(13) => call_raw!(
                update,
                abi_fns::v13::cudaStreamUpdateCaptureDependencies,
                (
                    stream,
                    dependencies,
                    core::ptr::null(),
                    numDependencies,
                    flags
                )
            ),
            // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
            Target::Major(_) => unsafe {
                forward(
                    stream,
                    dependencies,
                    numDependencies,
                    flags,
                )
            },
        }
    }
}
