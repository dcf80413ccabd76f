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
//!
//! Also here, exported once (no other major has the name): `cudaStreamGetCaptureInfo_v2` and
//! `_v2_ptsz`, what a program compiled against 12.x headers calls for `cudaStreamGetCaptureInfo`
//! (the header `#define`s it, 11.3+):
//! `(stream, captureStatus_out, id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)`.
//! 11.x / 12.x: forwarded. 13.x, which removed the name: its 7-argument plain form with
//! `edgeData_out` NULL, which is what `_v2` means there (12.3+ documents `_v2` as returning
//! `cudaErrorLossyQuery` when a dependency has non-default edge data; 13.x does the same for a
//! NULL `edgeData_out`).

use super::super::{RawFn, Target, call_raw, refusal, target, with_ptsz};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphNode_t, cudaStream_t, cudaStreamCaptureStatus,
};
use core::ffi::c_ulonglong;
use core::ptr::null_mut;

static INFO: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo");
static INFO_PTSZ: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_ptsz");

with_ptsz! {
    /// `cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus, unsigned long long *pId)`
    /// (12.9 ABI, the legacy form). 13.x: the 7-argument form, graph / dependencies / edge data
    /// not requested.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamGetCaptureInfo`.
    pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo / cudaStreamGetCaptureInfo_ptsz(
        stream: cudaStream_t,
        pCaptureStatus: *mut cudaStreamCaptureStatus,
        pId: *mut c_ulonglong,
    ) -> cudaError_t
    where {
        info = &INFO, &INFO_PTSZ;
        forward = crate::api::abi12::cudaStreamGetCaptureInfo::Forward::call,
            crate::api::abi12::cudaStreamGetCaptureInfo_ptsz::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            Target::Major(13) => call_raw!(
                info,
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
                forward(stream, pCaptureStatus, pId)
            },
        }
    }
}

/// The 7-argument form of a 13.x runtime for a `_v2` call: edge data not requested.
#[allow(clippy::too_many_arguments)]
fn v2_on_13(
    raw: &RawFn,
    stream: cudaStream_t,
    captureStatus_out: *mut cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    numDependencies_out: *mut usize,
) -> cudaError_t {
    call_raw!(
        raw,
        abi_fns::v13::cudaStreamGetCaptureInfo,
        (
            stream,
            captureStatus_out,
            id_out,
            graph_out,
            dependencies_out,
            null_mut(),
            numDependencies_out
        )
    )
}

with_ptsz! {
    /// `cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)`
    /// (cuda_runtime_api.h 11.3+ / 12.x ABI, what 12.x headers call for `cudaStreamGetCaptureInfo`).
    /// 11.x / 12.x: forwarded. 13.x: the 7-argument plain form, edge data not requested.
    /// Errors: the runtime's own (13.x: `cudaErrorLossyQuery` when a dependency carries non-default
    /// edge data, as 12.3+'s `_v2`); `cudaErrorStubLibrary` (34) without a runtime.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamGetCaptureInfo_v2`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn cudaStreamGetCaptureInfo_v2 / cudaStreamGetCaptureInfo_v2_ptsz(
        stream: cudaStream_t,
        captureStatus_out: *mut cudaStreamCaptureStatus,
        id_out: *mut c_ulonglong,
        graph_out: *mut cudaGraph_t,
        dependencies_out: *mut *const cudaGraphNode_t,
        numDependencies_out: *mut usize,
    ) -> cudaError_t
    where {
        info = &INFO, &INFO_PTSZ;
        forward = crate::api::cudaStreamGetCaptureInfo_v2::Forward::call,
            crate::api::cudaStreamGetCaptureInfo_v2_ptsz::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            Target::Major(13) => v2_on_13(
                info,
                stream,
                captureStatus_out,
                id_out,
                graph_out,
                dependencies_out,
                numDependencies_out,
            ),
            // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
            Target::Major(_) => unsafe {
                forward(
                    stream,
                    captureStatus_out,
                    id_out,
                    graph_out,
                    dependencies_out,
                    numDependencies_out,
                )
            },
        }
    }
}
