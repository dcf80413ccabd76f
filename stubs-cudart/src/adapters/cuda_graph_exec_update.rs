//! `cudaGraphExecUpdate` (cuda_runtime_api.h).
//!
//! - 12.0+ (12.9, 13.0 headers): `cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo)`
//!   — the exported ABI; forwarded on 12.x and 13.x.
//! - 11.x (11.8 header): `cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphNode_t *hErrorNode_out, enum cudaGraphExecUpdateResult *updateResult_out)`.
//!   The adapter calls it and fills `resultInfo->result` and `resultInfo->errorNode`;
//!   `errorFromNode` (which 11.x cannot report) is NULL. `resultInfo` is written whenever the
//!   11.x call wrote its outputs (success, and the update-failure codes that carry a result),
//!   as 12.x does.

use super::{RawFn, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaErrorGraphExecUpdateFailure, cudaGraph_t, cudaGraphExec_t,
    cudaGraphExecUpdateResult, cudaGraphExecUpdateResultInfo, cudaGraphNode_t,
};

static V11: RawFn = RawFn::new(c"cudaGraphExecUpdate");

/// `cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo)` (12.0+ ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphExecUpdate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecUpdate(
    hGraphExec: cudaGraphExec_t,
    hGraph: cudaGraph_t,
    resultInfo: *mut cudaGraphExecUpdateResultInfo,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(11) => {
            if resultInfo.is_null() {
                return 1; // cudaErrorInvalidValue
            }
            let mut error_node: cudaGraphNode_t = core::ptr::null_mut();
            let mut result: cudaGraphExecUpdateResult = 0;
            let status = call_raw!(
                V11,
                abi_fns::v11::cudaGraphExecUpdate,
                (hGraphExec, hGraph, &mut error_node, &mut result)
            );
            if status == 0 || status == cudaErrorGraphExecUpdateFailure {
                let info = cudaGraphExecUpdateResultInfo {
                    result,
                    errorNode: error_node,
                    errorFromNode: core::ptr::null_mut(),
                };
                // SAFETY: non-NULL and writable by contract.
                unsafe { resultInfo.write(info) };
            }
            status
        }
        // SAFETY: forwarded contract; same prototype on 12.x and 13.x.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphExecUpdate::Forward::call(hGraphExec, hGraph, resultInfo)
        },
    }
}
