//! `cudaStreamGetCaptureInfo` and `cudaStreamGetCaptureInfo_ptsz` (cuda_runtime_api.h).
//!
//! - 13.x (13.0 header): `cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)`
//!   — this version's ABI; forwarded.
//! - 12.x (12.9 header): the plain name is the 3-argument legacy form
//!   `(stream, captureStatus_out, id_out)`; `cudaStreamGetCaptureInfo_v2` (11.3+) has the
//!   6-argument form without edge data and `cudaStreamGetCaptureInfo_v3` (12.3+) the 13.x
//!   7-argument form. The adapter calls `_v3` when present, else `_v2`.
//! - 11.x (11.8 header): plain 3-argument form, `_v2` (11.3+) 6-argument; the adapter calls `_v2`.
//!
//! Without `_v3` every edge is a default edge (edge data arrived in 12.3), so a requested
//! `edgeData_out` gets a zeroed array of `*numDependencies_out` entries (thread-owned, valid
//! until the thread's next such call). Requesting edge data without `numDependencies_out` is
//! refused (801): the array's length could not be known. The `_ptsz` twins are the same with
//! the per-thread default stream.

use super::super::{RawFn, SUCCESS, Target, call_raw, default_edges, refusal, target, with_ptsz};
// Older runtimes are called with 12.9's prototypes (`abi_fns::v12`); 11.x declares the same
// where it exports the name.
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphEdgeData, cudaGraphNode_t, cudaStream_t,
    cudaStreamCaptureStatus,
};
use core::ffi::c_ulonglong;

static V2_PLAIN: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_v2");
static V3_PLAIN: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_v3");
static V2_PTSZ: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_v2_ptsz");
static V3_PTSZ: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_v3_ptsz");

/// The translation for 11.x / 12.x, given that major's `_v2` and `_v3` entry points.
#[allow(clippy::too_many_arguments)]
unsafe fn older(
    v2: &RawFn,
    v3: &RawFn,
    major: u32,
    stream: cudaStream_t,
    captureStatus_out: *mut cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    edgeData_out: *mut *const cudaGraphEdgeData,
    numDependencies_out: *mut usize,
) -> cudaError_t {
    if major >= 12 && v3.get().is_some() {
        return call_raw!(
            v3,
            abi_fns::v12::cudaStreamGetCaptureInfo_v3,
            (
                stream,
                captureStatus_out,
                id_out,
                graph_out,
                dependencies_out,
                edgeData_out,
                numDependencies_out
            )
        );
    }
    if edgeData_out.is_null() {
        return call_raw!(
            v2,
            abi_fns::v12::cudaStreamGetCaptureInfo_v2,
            (
                stream,
                captureStatus_out,
                id_out,
                graph_out,
                dependencies_out,
                numDependencies_out
            )
        );
    }
    if numDependencies_out.is_null() {
        return refusal();
    }
    let mut count: usize = 0;
    let status = call_raw!(
        v2,
        abi_fns::v12::cudaStreamGetCaptureInfo_v2,
        (
            stream,
            captureStatus_out,
            id_out,
            graph_out,
            dependencies_out,
            &mut count
        )
    );
    if status != SUCCESS {
        return status;
    }
    let Some(edges) = default_edges(count) else {
        return refusal();
    };
    // SAFETY: both non-NULL out pointers, writable by the API contract.
    unsafe {
        numDependencies_out.write(count);
        edgeData_out.write(edges);
    }
    SUCCESS
}

with_ptsz! {
    /// `cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, cudaStreamCaptureStatus *, unsigned long long *, cudaGraph_t *, const cudaGraphNode_t **, const cudaGraphEdgeData **, size_t *)` (13.0 ABI).
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamGetCaptureInfo`.
    pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo / cudaStreamGetCaptureInfo_ptsz(
        stream: cudaStream_t,
        captureStatus_out: *mut cudaStreamCaptureStatus,
        id_out: *mut c_ulonglong,
        graph_out: *mut cudaGraph_t,
        dependencies_out: *mut *const cudaGraphNode_t,
        edgeData_out: *mut *const cudaGraphEdgeData,
        numDependencies_out: *mut usize,
    ) -> cudaError_t
    where {
        v2 = &V2_PLAIN, &V2_PTSZ;
        v3 = &V3_PLAIN, &V3_PTSZ;
        forward = crate::api::abi13::cudaStreamGetCaptureInfo::Forward::call,
            crate::api::abi13::cudaStreamGetCaptureInfo_ptsz::Forward::call;
    }
    {
        match target() {
            Target::NoLibrary => refusal(),
            // SAFETY: forwarded contract.
            Target::Major(m @ (11 | 12)) => unsafe {
                older(
                    v2,
                    v3,
                    m,
                    stream,
                    captureStatus_out,
                    id_out,
                    graph_out,
                    dependencies_out,
                    edgeData_out,
                    numDependencies_out,
                )
            },
            // SAFETY: forwarded contract; 13.x has the exported prototype.
            Target::Major(_) => unsafe {
                forward(
                    stream,
                    captureStatus_out,
                    id_out,
                    graph_out,
                    dependencies_out,
                    edgeData_out,
                    numDependencies_out,
                )
            },
        }
    }
}
