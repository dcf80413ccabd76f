//! `struct cudaGraphNodeParams` (driver_types.h) for `cudaGraphAddNode`,
//! `cudaGraphNodeSetParams` and `cudaGraphExecNodeSetParams` (cuda_runtime_api.h; 12.2+ /
//! 12.4+, none of them in 11.x, where the gated slot refuses them).
//!
//! Prototypes: the set-params calls have the same in 12.9 and 13.x,
//! `cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)`,
//! `cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, node, nodeParams)`; 13.0's
//! `cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams)`
//! takes the edge data 12.9's lacks (12.3+ has it as `cudaGraphAddNode_v2`; the edge-data
//! rules are the graph-edge family's, `cuda_graph_edges.rs`). The names are still exported once
//! per ABI because the struct's members differ.
//!
//! The struct is 256 bytes in 12.9 and 13.x (`type`, `reserved0[3]`, a 232-byte union,
//! `reserved2`), but 13.0 grew several union members. Every addition is appended after the
//! 12.x fields, or takes over bytes that 12.x declared reserved (which 12.x requires zero), so
//! the 12.x prefix of each member sits at the same offsets:
//!
//! | member | 12.9 | 13.x additions |
//! |---|---|---|
//! | `kernel` (`cudaKernelNodeParamsV2`) | 56 B | `func` became a union with `kern` / `cuFunc`; appended `ctx`, `functionType` (72 B) |
//! | `memcpy` (`cudaMemcpyNodeParams`) | `int flags, reserved[3]` + copy | `reserved[1..3]` became `ctx` (176 B both) |
//! | `memset` (`cudaMemsetParamsV2`) | 40 B | appended `ctx` (48 B) |
//! | `host` (`cudaHostNodeParamsV2`) | 16 B | appended `syncMode`, `ctx` (32 B) |
//! | `eventRecord` (`cudaEventRecordNodeParams`) | 8 B | appended `ctx` (16 B) |
//! | `extSemSignal` / `extSemWait` (`...NodeParamsV2`) | 24 B | appended `ctx` (32 B) |
//! | `conditional` (`cudaConditionalNodeParams`) | 24 B | appended `ctx` (32 B) |
//! | `memcpyBatch` (node type 14), node types 16, 17 | – | new |
//!
//! The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`, `NAME_abi13`): forwarded on 13.x. On 12.x, a
//! 13.x struct whose 13.0-only fields hold their defaults (NULL `ctx`, `functionType`
//! unspecified or device entry, `syncMode` blocking) reads exactly as the 12.x struct with the
//! same 12.x fields, and the runtime's outputs (`alloc.dptr`, `conditional.phGraph_out`) land at
//! the same offsets: the caller's struct is passed as is. Anything else has no 12.x equivalent
//! and is refused with `cudaErrorNotSupported` (801), nothing called: a non-NULL execution
//! context, a `cudaKernel_t` / `cudaFunction_t` handle type, a spin-wait host node, a node type
//! 12.x lacks. `cudaGraphAddNode` calls `_v2` for edge data when present, else the 5-argument
//! form with default edges.
//!
//! The CUDA 12 version (`@CUDA_STUBS_CUDART_12`, `NAME_abi12`): forwarded on 12.x. On 13.x the
//! caller's 256 bytes are copied into a local and the 13-only fields of the member `type`
//! selects set to their defaults (NULL context, unspecified function type, blocking host task):
//! a 12.x caller never wrote them, and may have left anything there. `cudaGraphAddNode` passes
//! NULL edge data (default edges). Outputs the runtime writes into the struct are copied back
//! on success only. Node types 12.9 lacks (14 and up, `cudaGraphNodeTypeMemcpyBatch` …) are
//! refused with `cudaErrorNotSupported` (801), nothing called; a NULL `nodeParams` is passed on
//! (the runtime's own error).

use super::cuda_graph_edges::{all_default, use_v2};
use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphEdgeData, cudaGraphExec_t, cudaGraphNode_t,
    cudaGraphNodeParams,
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
/// `cudaGraphNodeTypeMemcpyBatch`: the first type 12.9 lacks (14, 16 and 17 are 13.x's).
const FIRST_NEW_TYPE: u32 = crate::types::cudaGraphNodeTypeMemcpyBatch;
/// `cudaKernelFunctionTypeDeviceEntry`: a `__global__` function pointer, what 12.x's `func` is.
const DEVICE_ENTRY: u32 = crate::types::cudaKernelFunctionTypeDeviceEntry;
/// `cudaHostTaskBlocking` (enum `cudaHostTaskSyncMode`, which `types.rs` lacks: no prototype
/// names it, and `syncMode` is a plain `unsigned int`).
const BLOCKING: u32 = 0;

static ADD_NODE: RawFn = RawFn::new(c"cudaGraphAddNode");
static ADD_NODE_V2: RawFn = RawFn::new(c"cudaGraphAddNode_v2");
static SET_PARAMS: RawFn = RawFn::new(c"cudaGraphNodeSetParams");
static EXEC_SET_PARAMS: RawFn = RawFn::new(c"cudaGraphExecNodeSetParams");

// The CUDA 13 version: 13.x's struct, forwarded to 13.x, passed as is to 12.x when it reads
// the same.

/// True when a 12.x runtime reads `params` as the caller meant it (module docs). NULL is
/// passed on (the runtime's own error).
///
/// # Safety
/// `params` is NULL or readable for one 13.x `cudaGraphNodeParams`.
pub(super) unsafe fn expressible_on_12(params: *const cudaGraphNodeParams) -> bool {
    // SAFETY: NULL or readable by the caller's contract.
    let Some(p) = (unsafe { params.as_ref() }) else {
        return true;
    };
    let u = &p.__bindgen_anon_1;
    // SAFETY: the member read is the one `type_` selects (the API contract).
    unsafe {
        match p.type_ {
            KERNEL => u.kernel.ctx.is_null() && u.kernel.functionType <= DEVICE_ENTRY,
            MEMCPY => u.memcpy.ctx.is_null(),
            MEMSET => u.memset.ctx.is_null(),
            HOST => u.host.ctx.is_null() && u.host.syncMode == BLOCKING,
            EVENT_RECORD => u.eventRecord.ctx.is_null(),
            EXT_SEM_SIGNAL => u.extSemSignal.ctx.is_null(),
            EXT_SEM_WAIT => u.extSemWait.ctx.is_null(),
            CONDITIONAL => u.conditional.ctx.is_null(),
            t => t < FIRST_NEW_TYPE,
        }
    }
}

/// `cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)` (13.0 ABI; 12.x: same prototype, 12.9 members).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeSetParams`.
pub(crate) unsafe extern "C" fn cudaGraphNodeSetParams_abi13(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(12) {
        // SAFETY: forwarded contract (13.x, or the typed refusal on 11.x / no library).
        return unsafe {
            crate::api::cudaGraphNodeSetParams_abi13::Forward::call(node, nodeParams)
        };
    }
    // SAFETY: NULL or readable by contract.
    if !unsafe { expressible_on_12(nodeParams) } {
        return refusal();
    }
    call_raw!(
        SET_PARAMS,
        abi_fns::v12::cudaGraphNodeSetParams,
        (node, nodeParams)
    )
}

/// `cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)` (13.0 ABI; 12.x: same prototype, 12.9 members).
///
/// # Safety
/// The CUDA API contract of `cudaGraphExecNodeSetParams`.
pub(crate) unsafe extern "C" fn cudaGraphExecNodeSetParams_abi13(
    graphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(12) {
        // SAFETY: forwarded contract (13.x, or the typed refusal on 11.x / no library).
        return unsafe {
            crate::api::cudaGraphExecNodeSetParams_abi13::Forward::call(graphExec, node, nodeParams)
        };
    }
    // SAFETY: NULL or readable by contract.
    if !unsafe { expressible_on_12(nodeParams) } {
        return refusal();
    }
    call_raw!(
        EXEC_SET_PARAMS,
        abi_fns::v12::cudaGraphExecNodeSetParams,
        (graphExec, node, nodeParams)
    )
}

/// `cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams)` (13.0 ABI).
/// 12.x: `_v2` for edge data when present, else the 5-argument 12.2+ form with default edges;
/// node parameters 12.x cannot express are refused (801, module documentation);
/// 11.x lacks it (801).
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddNode`.
pub(crate) unsafe extern "C" fn cudaGraphAddNode_abi13(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(12) {
        // SAFETY: forwarded contract (13.x, or the typed refusal on 11.x / no library).
        return unsafe {
            crate::api::cudaGraphAddNode_abi13::Forward::call(
                pGraphNode,
                graph,
                pDependencies,
                dependencyData,
                numDependencies,
                nodeParams,
            )
        };
    }
    // SAFETY: `nodeParams` is NULL or readable by contract.
    if !unsafe { expressible_on_12(nodeParams) } {
        return refusal();
    }
    if use_v2(12, !dependencyData.is_null(), &ADD_NODE_V2) {
        return call_raw!(
            ADD_NODE_V2,
            abi_fns::v12::cudaGraphAddNode_v2,
            (
                pGraphNode,
                graph,
                pDependencies,
                dependencyData,
                numDependencies,
                nodeParams
            )
        );
    }
    // SAFETY: `dependencyData` has `numDependencies` entries by contract.
    if !unsafe { all_default(dependencyData, numDependencies) } {
        return refusal();
    }
    call_raw!(
        ADD_NODE,
        abi_fns::v12::cudaGraphAddNode,
        (
            pGraphNode,
            graph,
            pDependencies,
            numDependencies,
            nodeParams
        )
    )
}

// The CUDA 12 version: 12.9's struct, forwarded to 12.x, widened for 13.x.

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
            u.host.syncMode = BLOCKING;
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
pub(crate) unsafe extern "C" fn cudaGraphAddNode_abi12(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaGraphAddNode_abi12::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphNodeSetParams_abi12(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaGraphNodeSetParams_abi12::Forward::call(node, nodeParams)
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
pub(crate) unsafe extern "C" fn cudaGraphExecNodeSetParams_abi12(
    graphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(13) {
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        return unsafe {
            crate::api::cudaGraphExecNodeSetParams_abi12::Forward::call(graphExec, node, nodeParams)
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
