//! `cudaStreamGetCaptureInfo` (+`_ptsz`, cuda_runtime_api.h): the plain name is 12.x's
//! 3-argument legacy form and 13.x's 7-argument form, so it is exported once per ABI; also
//! 12.x's `cudaStreamGetCaptureInfo_v2` (+`_v2_ptsz`), exported once, which 13.x removed.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! `cudaStreamGetCaptureInfo` and `cudaStreamGetCaptureInfo_ptsz` (cuda_runtime_api.h).
//!
//! - 13.x (13.0 header): `cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)`
//!   — the CUDA 13 version's ABI; forwarded.
//! - 12.x (12.9 header): the plain name is the 3-argument legacy form
//!   `(stream, captureStatus_out, id_out)`; `cudaStreamGetCaptureInfo_v2` (11.3+) has the
//!   6-argument form without edge data and `cudaStreamGetCaptureInfo_v3` (12.3+) the 13.x
//!   7-argument form. The adapter calls `_v3` when present, else `_v2`.
//! - 11.x (11.8 header): plain 3-argument form, `_v2` (11.3+) 6-argument; the adapter calls `_v2`.
//!
//! Without `_v3` every edge is a default edge (edge data arrived in 12.3), so a requested
//! `edgeData_out` gets a zeroed array of `*numDependencies_out` entries (one read-only buffer
//! shared by every thread, valid for the life of the process: `default_edges`). Requesting edge data without `numDependencies_out` is
//! refused (801): the array's length could not be known. The `_ptsz` twins are the same with
//! the per-thread default stream.
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! `cudaStreamGetCaptureInfo` and `cudaStreamGetCaptureInfo_ptsz` in their CUDA 12 version
//! (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), the CUDA 12 version's ABI, forwarded: the plain names are the
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

use super::{RawFn, SUCCESS, Target, call_raw, default_edges, refusal, target, with_ptsz};
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphEdgeData, cudaGraphNode_t, cudaStream_t,
    cudaStreamCaptureStatus,
};
use core::ffi::c_ulonglong;
use core::ptr::null_mut;

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

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
    pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo_abi13 / cudaStreamGetCaptureInfo_ptsz_abi13(
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
        forward = crate::api::cudaStreamGetCaptureInfo_abi13::Forward::call,
            crate::api::cudaStreamGetCaptureInfo_ptsz_abi13::Forward::call;
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

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

static INFO: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo");
static INFO_PTSZ: RawFn = RawFn::new(c"cudaStreamGetCaptureInfo_ptsz");

with_ptsz! {
    /// `cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus, unsigned long long *pId)`
    /// (12.9 ABI, the legacy form). 13.x: the 7-argument form, graph / dependencies / edge data
    /// not requested.
    ///
    /// # Safety
    /// The CUDA API contract of `cudaStreamGetCaptureInfo`.
    pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo_abi12 / cudaStreamGetCaptureInfo_ptsz_abi12(
        stream: cudaStream_t,
        pCaptureStatus: *mut cudaStreamCaptureStatus,
        pId: *mut c_ulonglong,
    ) -> cudaError_t
    where {
        info = &INFO, &INFO_PTSZ;
        forward = crate::api::cudaStreamGetCaptureInfo_abi12::Forward::call,
            crate::api::cudaStreamGetCaptureInfo_ptsz_abi12::Forward::call;
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
