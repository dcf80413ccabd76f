//! `cudaGraphInstantiate` (cuda_runtime_api.h).
//!
//! - 12.0 and later (12.9, 13.0 headers):
//!   `cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)`
//!   — the ABI the stub exports; forwarded unchanged on 12.x and 13.x.
//! - 11.x (11.8 header):
//!   `cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize)`;
//!   11.4+ also exports `cudaGraphInstantiateWithFlags(pGraphExec, graph, unsigned long long flags)`,
//!   which takes the flags as 13.x does. The adapter calls it; a runtime without it
//!   (11.0–11.3) gets the legacy 5-argument call with no error node and no log when `flags`
//!   is 0, and the call is refused (801) otherwise.

use super::{RawFn, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraph_t, cudaGraphExec_t};
use core::ffi::c_ulonglong;

static WITH_FLAGS: RawFn = RawFn::new(c"cudaGraphInstantiateWithFlags");
static LEGACY: RawFn = RawFn::new(c"cudaGraphInstantiate");

/// `cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)`
/// (12.0+ ABI). See the module documentation for 11.x.
///
/// # Safety
/// The CUDA API contract of `cudaGraphInstantiate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphInstantiate(
    pGraphExec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: c_ulonglong,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(11) => {
            if WITH_FLAGS.get().is_some() {
                call_raw!(
                    WITH_FLAGS,
                    abi_fns::v11::cudaGraphInstantiateWithFlags,
                    (pGraphExec, graph, flags)
                )
            } else if flags == 0 {
                call_raw!(
                    LEGACY,
                    abi_fns::v11::cudaGraphInstantiate,
                    (
                        pGraphExec,
                        graph,
                        core::ptr::null_mut(),
                        core::ptr::null_mut(),
                        0
                    )
                )
            } else {
                refusal()
            }
        }
        // SAFETY: forwarded contract; same prototype on 12.x and 13.x.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphInstantiate::Forward::call(pGraphExec, graph, flags)
        },
    }
}
