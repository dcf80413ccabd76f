//! `cudaStreamGetCaptureInfo` and `cudaStreamGetCaptureInfo_ptsz` in their CUDA 12 version
//! (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), this version's ABI, forwarded: the plain names are the
//!   3-argument legacy form
//!   `cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus, unsigned long long *pId)`
//!   (the 6- and 7-argument forms are the separate `_v2` / `_v3` names, exported as they are).
//! - 13.x (13.0 header): the plain names take 7 arguments,
//!   `(stream, captureStatus_out, id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)`,
//!   the last four optional (NULL: not returned).
//!
//! On 13.x the adapter passes the two outputs the legacy form has and NULL for the rest; the
//! runtime writes the outputs (only on success) and returns its own errors. Nothing is refused.

use super::super::{RawFn, Target, call_raw, refusal, target};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaStream_t, cudaStreamCaptureStatus};
use core::ffi::c_ulonglong;
use core::ptr::null_mut;

static INFO: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo");
static INFO_PTSZ: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_ptsz");

/// `cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus, unsigned long long *pId)`
/// (12.9 ABI, the legacy form). 13.x: the 7-argument form, graph / dependencies / edge data
/// not requested.
///
/// # Safety
/// The CUDA API contract of `cudaStreamGetCaptureInfo`.
pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    pCaptureStatus: *mut cudaStreamCaptureStatus,
    pId: *mut c_ulonglong,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            INFO,
            abi_fns::v13::cudaStreamGetCaptureInfo,
            (
                stream,
                pCaptureStatus,
                pId,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut()
            )
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::abi12::cudaStreamGetCaptureInfo::Forward::call(stream, pCaptureStatus, pId)
        },
    }
}

/// `cudaStreamGetCaptureInfo_ptsz`: [`cudaStreamGetCaptureInfo`] with the per-thread default
/// stream.
///
/// # Safety
/// The CUDA API contract of `cudaStreamGetCaptureInfo`.
pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo_ptsz(
    stream: cudaStream_t,
    pCaptureStatus: *mut cudaStreamCaptureStatus,
    pId: *mut c_ulonglong,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            INFO_PTSZ,
            abi_fns::v13::cudaStreamGetCaptureInfo,
            (
                stream,
                pCaptureStatus,
                pId,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut()
            )
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::abi12::cudaStreamGetCaptureInfo_ptsz::Forward::call(
                stream,
                pCaptureStatus,
                pId,
            )
        },
    }
}
