//! `struct cudaGraphNodeParams` in their CUDA 12 version (`@CUDA_STUBS_CUDART_12`) (driver_types.h,
//! cuda_runtime_api.h): `cudaGraphAddNode`, `cudaGraphNodeSetParams`, `cudaGraphExecNodeSetParams`.
//!
//! - 12.x (12.9 header; 12.2+ / 12.4+), this version's ABI, forwarded:
//!   `cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, struct cudaGraphNodeParams *nodeParams)`,
//!   `cudaGraphNodeSetParams(node, nodeParams)`, `cudaGraphExecNodeSetParams(graphExec, node, nodeParams)`.
//! - 13.x (13.0 header): `cudaGraphAddNode` takes `const cudaGraphEdgeData *edgeData` before
//!   the count; the set-params prototypes are the same. The struct is 256 bytes in both, but
//!   13.0 appended fields to several union members (after the 12.x fields, or over bytes 12.x
//!   declared reserved): `kernel.ctx`, `kernel.functionType`, `memcpy.ctx`, `memset.ctx`,
//!   `host.syncMode`, `host.ctx`, `eventRecord.ctx`, `extSemSignal.ctx`, `extSemWait.ctx`,
//!   `conditional.ctx` (see `cuda_graph_node_set_params.rs` for the table).
//! - 11.x: none of these functions (refused by the gated slot).
//!
//! On 13.x the caller's 256 bytes are copied into a local and the 13-only fields of the member
//! `type` selects set to their defaults (NULL context, unspecified function type, blocking
//! host task): a 12.x caller never wrote them, and may have left anything there.
//! `cudaGraphAddNode` passes NULL edge data (default edges). Outputs the runtime writes into
//! the struct (`alloc.dptr`, `conditional.phGraph_out`, at the same offsets in both) are copied
//! back on success only. Node types 12.9 lacks (14 and up, `cudaGraphNodeTypeMemcpyBatch` …)
//! are refused with `cudaErrorNotSupported` (801), nothing called; a NULL `nodeParams` is passed
//! on (the runtime's own error).

use super::super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphExec_t, cudaGraphNode_t, cudaGraphNodeParams,
};

/// `cudaGraphNodeType` values (driver_types.h 12.9 / 13.x), short names for the matches below.
const KERNEL: u32 = crate::types::cudaGraphNodeTypeKernel;
const MEMCPY: u32 = crate::types::cudaGraphNodeTypeMemcpy;
const MEMSET: u32 = crate::types::cudaGraphNodeTypeMemset;
const HOST: u32 = crate::types::cudaGraphNodeTypeHost;
const EVENT_RECORD: u32 = crate::types::cudaGraphNodeTypeEventRecord;
const EXT_SEM_SIGNAL: u32 = crate::types::cudaGraphNodeTypeExtSemaphoreSignal;
const EXT_SEM_WAIT: u32 = crate::types::cudaGraphNodeTypeExtSemaphoreWait;
const MEM_ALLOC: u32 = crate::types::cudaGraphNodeTypeMemAlloc;
const CONDITIONAL: u32 = crate::types::cudaGraphNodeTypeConditional;
/// `cudaGraphNodeTypeMemcpyBatch`: the first type 12.9 lacks.
const FIRST_NEW_TYPE: u32 = crate::types::cudaGraphNodeTypeMemcpyBatch;

static ADD_NODE: RawFn = RawFn::new(c"cudaGraphAddNode");
static SET_PARAMS: RawFn = RawFn::new(c"cudaGraphNodeSetParams");
static EXEC_SET_PARAMS: RawFn = RawFn::new(c"cudaGraphExecNodeSetParams");

/// 13.x's struct from a 12.x caller's: `None` for a node type 12.9 lacks.
fn to_13(p: &cudaGraphNodeParams) -> Option<cudaGraphNodeParams> {
    let mut n = *p;
    let u = &mut n.__bindgen_anon_1;
    // SAFETY (writes): plain-data members of a union living in a local; the member written
    // is the one `type_` selects.
    match n.type_ {
        KERNEL => {
            u.kernel.ctx = core::ptr::null_mut();
            u.kernel.functionType = 0; // cudaKernelFunctionTypeUnspecified
        }
        MEMCPY => u.memcpy.ctx = core::ptr::null_mut(),
        MEMSET => u.memset.ctx = core::ptr::null_mut(),
        HOST => {
            u.host.syncMode = 0; // cudaHostTaskBlocking
            u.host.ctx = core::ptr::null_mut();
        }
        EVENT_RECORD => u.eventRecord.ctx = core::ptr::null_mut(),
        EXT_SEM_SIGNAL => u.extSemSignal.ctx = core::ptr::null_mut(),
        EXT_SEM_WAIT => u.extSemWait.ctx = core::ptr::null_mut(),
        CONDITIONAL => u.conditional.ctx = core::ptr::null_mut(),
        t if t >= FIRST_NEW_TYPE => return None,
        _ => {}
    }
    Some(n)
}

/// Copies the runtime's outputs back into the caller's struct (same offsets in 12.x and 13.x).
fn outputs_back(local: &cudaGraphNodeParams, caller: &mut cudaGraphNodeParams) {
    // SAFETY: the members read and written are the ones `type_` selects; plain data.
    unsafe {
        match local.type_ {
            MEM_ALLOC => caller.__bindgen_anon_1.alloc.dptr = local.__bindgen_anon_1.alloc.dptr,
            CONDITIONAL => {
                caller.__bindgen_anon_1.conditional.phGraph_out =
                    local.__bindgen_anon_1.conditional.phGraph_out;
            }
            _ => {}
        }
    }
}

/// Converts `params` (NULL passed on), calls `call` with the 13.x struct, copies outputs back
/// on success.
///
/// # Safety
/// `params` is NULL or readable and writable for one 12.x `cudaGraphNodeParams` (256 bytes).
unsafe fn with_13(
    params: *mut cudaGraphNodeParams,
    call: impl FnOnce(*mut cudaGraphNodeParams) -> cudaError_t,
) -> cudaError_t {
    // SAFETY: NULL or valid by contract.
    let Some(caller) = (unsafe { params.as_mut() }) else {
        return call(core::ptr::null_mut());
    };
    let Some(mut local) = to_13(caller) else {
        return refusal();
    };
    let status = call(&mut local);
    if status == SUCCESS {
        outputs_back(&local, caller);
    }
    status
}

/// `cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, struct cudaGraphNodeParams *nodeParams)`
/// (12.9 ABI). 13.x: NULL edge data, the struct converted.
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddNode`.
pub(crate) unsafe extern "C" fn cudaGraphAddNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::abi12::cudaGraphAddNode::Forward::call(
                pGraphNode,
                graph,
                pDependencies,
                numDependencies,
                nodeParams,
            )
        };
    }
    let call = |p| {
        call_raw!(
            ADD_NODE,
            abi_fns::v13::cudaGraphAddNode,
            (
                pGraphNode,
                graph,
                pDependencies,
                core::ptr::null(),
                numDependencies,
                p
            )
        )
    };
    // SAFETY: NULL or valid by contract.
    unsafe { with_13(nodeParams, call) }
}

/// `cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)`
/// (12.9 ABI). 13.x: the struct converted.
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeSetParams`.
pub(crate) unsafe extern "C" fn cudaGraphNodeSetParams(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::abi12::cudaGraphNodeSetParams::Forward::call(node, nodeParams)
        };
    }
    let call = |p| call_raw!(SET_PARAMS, abi_fns::v13::cudaGraphNodeSetParams, (node, p));
    // SAFETY: NULL or valid by contract.
    unsafe { with_13(nodeParams, call) }
}

/// `cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)`
/// (12.9 ABI). 13.x: the struct converted.
///
/// # Safety
/// The CUDA API contract of `cudaGraphExecNodeSetParams`.
pub(crate) unsafe extern "C" fn cudaGraphExecNodeSetParams(
    graphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::abi12::cudaGraphExecNodeSetParams::Forward::call(
                graphExec, node, nodeParams,
            )
        };
    }
    let call = |p| {
        call_raw!(
            EXEC_SET_PARAMS,
            abi_fns::v13::cudaGraphExecNodeSetParams,
            (graphExec, node, p)
        )
    };
    // SAFETY: NULL or valid by contract.
    unsafe { with_13(nodeParams, call) }
}
