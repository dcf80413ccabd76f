//! `cudaStreamUpdateCaptureDependencies` and `cudaStreamUpdateCaptureDependencies_ptsz` in the CUDA
//! 12 version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), this version's ABI, forwarded:
//!   `cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags)`
//!   (12.3+'s edge-data form is the separate `_v2` name, exported as it is).
//! - 13.x (13.0 header): `(stream, dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)`.
//!
//! On 13.x the adapter passes NULL edge data: 13.x documents it as all default edges, the only
//! kind a 12.x caller of the plain name can mean. Nothing is refused.

use super::super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraphNode_t, cudaStream_t};
use core::ffi::c_uint;

static UPDATE: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies");
static UPDATE_PTSZ: RawFn = RawFn::new(c"cudaStreamUpdateCaptureDependencies_ptsz");

with_ptsz! {
    /// `cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags)`
    /// (12.9 ABI). 13.x: the 5-argument form with NULL edge data.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamUpdateCaptureDependencies`.
    pub(crate) unsafe extern "C" fn cudaStreamUpdateCaptureDependencies / cudaStreamUpdateCaptureDependencies_ptsz(
        stream: cudaStream_t,
        dependencies: *mut cudaGraphNode_t,
        numDependencies: usize,
        flags: c_uint,
    ) -> cudaError_t
    where {
        update = &UPDATE, &UPDATE_PTSZ;
        forward = crate::api::abi12::cudaStreamUpdateCaptureDependencies::Forward::call,
            crate::api::abi12::cudaStreamUpdateCaptureDependencies_ptsz::Forward::call;
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
