//! `cuGraphAddNode`, `cuGraphAddNode_v2`, `cuGraphNodeSetParams`, `cuGraphExecNodeSetParams`
//! (cuda.h), which take a `CUgraphNodeParams` (256 bytes in 12.9 and 13.5: `type`,
//! `reserved0[3]`, a 232-byte union of per-type structs, `reserved2`).
//!
//! - 13.x (13.5 header), the exported ABI, forwarded unchanged. Prototypes:
//!   `CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, CUgraphNodeParams *nodeParams)` (12.2 ABI),
//!   `CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies, CUgraphNodeParams *nodeParams)` (12.3 ABI),
//!   `CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)` and
//!   `CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)` (12.2 ABI).
//! - 12.x (12.9 header): the same prototypes and the same 256 bytes, but 13.x grew four of the
//!   union's member structs into bytes a 12.x driver never reads: `CUDA_HOST_NODE_PARAMS_v2`
//!   16 → 32 bytes (`syncMode` at 16, preferred context `ctx`/`gCtx` at 24),
//!   `CUDA_EVENT_RECORD_NODE_PARAMS` 8 → 16 (`ctx`/`gCtx` at 8), and
//!   `CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2` / `_WAIT_` 24 → 32 (`ctx`/`gCtx` at 24). Every field
//!   a 12.x driver reads is at the same offset with the same type, so the call is forwarded to
//!   the same ABI name when those added fields hold their zero default (sync mode 0, no
//!   preferred context: what a 12.x caller's zeroed struct means); a non-zero one is something a
//!   12.x driver cannot express and is refused with `CUDA_ERROR_NOT_SUPPORTED` (801), nothing
//!   called. Node types 12.x lacks (memcpy-batch, fabric-copy-batch) are left to the driver,
//!   which rejects a type it does not know with an error.
//! - 11.x: none of these exist (`cuGraphAddNode` is CUDA 12.2); refused with 801.
//!
//! Errors: `CUDA_ERROR_STUB_LIBRARY` (34) without a driver; 801 as above, or when the driver
//! lacks the entry point; otherwise the driver's own status. `nodeParams` NULL is passed on
//! (the driver reports it).

use super::{RawFn, Target, call_raw, refusal, target};
use crate::types::{
    CU_GRAPH_NODE_TYPE_EVENT_RECORD, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, CU_GRAPH_NODE_TYPE_HOST, CUgraph, CUgraphEdgeData,
    CUgraphExec, CUgraphNode, CUgraphNodeParams, CUresult,
};

static ADD_NODE: RawFn = RawFn::new(c"cuGraphAddNode");
static ADD_NODE_V2: RawFn = RawFn::new(c"cuGraphAddNode_v2");
static NODE_SET_PARAMS: RawFn = RawFn::new(c"cuGraphNodeSetParams");
static EXEC_NODE_SET_PARAMS: RawFn = RawFn::new(c"cuGraphExecNodeSetParams");

// The driver's own prototypes, as codegen read them from cuda.h: 12.x (12.2+) and 13.x declare
// the same ones (checked below), so one type serves whichever major is loaded.
use crate::abi_fns::v12;
use crate::abi_fns::v13::{
    cuGraphAddNode as AddNode, cuGraphAddNode_v2 as AddNodeV2,
    cuGraphExecNodeSetParams as ExecNodeSetParams, cuGraphNodeSetParams as NodeSetParams,
};
const _: fn(v12::cuGraphAddNode) -> AddNode = |f| f;
const _: fn(v12::cuGraphAddNode_v2) -> AddNodeV2 = |f| f;
const _: fn(v12::cuGraphNodeSetParams) -> NodeSetParams = |f| f;
const _: fn(v12::cuGraphExecNodeSetParams) -> ExecNodeSetParams = |f| f;

/// Whether the loaded driver can take `params` as the caller laid it out: any 13.x or newer
/// driver; a 12.x one when the fields 13.x added to the selected node type are zero.
///
/// # Safety
/// `params` is NULL or points to a readable `CUgraphNodeParams` (the API's own contract).
unsafe fn fits(params: *const CUgraphNodeParams) -> bool {
    match target() {
        Target::Major(m) if m >= 13 => true,
        Target::Major(12) => {
            if params.is_null() {
                return true;
            }
            // SAFETY: readable per the contract; every union member is plain data, and the one
            // read is the member `type` selects.
            unsafe {
                let p = &*params;
                let u = &p.__bindgen_anon_1;
                match p.type_ {
                    t if t == CU_GRAPH_NODE_TYPE_HOST => {
                        u.host.syncMode == 0 && u.host.__bindgen_anon_1.ctx.is_null()
                    }
                    t if t == CU_GRAPH_NODE_TYPE_EVENT_RECORD => {
                        u.eventRecord.__bindgen_anon_1.ctx.is_null()
                    }
                    t if t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL => {
                        u.extSemSignal.__bindgen_anon_1.ctx.is_null()
                    }
                    t if t == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT => {
                        u.extSemWait.__bindgen_anon_1.ctx.is_null()
                    }
                    _ => true,
                }
            }
        }
        _ => false,
    }
}

/// `CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, CUgraphNodeParams *nodeParams)`
/// (CUDA 12.2 ABI, 13.5 layouts; see the module docs).
///
/// # Safety
/// The CUDA API contract of `cuGraphAddNode`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: forwarded contract.
    if !unsafe { fits(nodeParams) } {
        return refusal();
    }
    call_raw!(
        ADD_NODE,
        AddNode,
        (
            phGraphNode,
            hGraph,
            dependencies,
            numDependencies,
            nodeParams
        )
    )
}

/// `CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies, CUgraphNodeParams *nodeParams)`
/// (CUDA 12.3 ABI, what 12.3+ and 13.x headers call `cuGraphAddNode`; 13.5 layouts).
///
/// # Safety
/// The CUDA API contract of `cuGraphAddNode`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddNode_v2(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    dependencyData: *const CUgraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: forwarded contract.
    if !unsafe { fits(nodeParams) } {
        return refusal();
    }
    call_raw!(
        ADD_NODE_V2,
        AddNodeV2,
        (
            phGraphNode,
            hGraph,
            dependencies,
            dependencyData,
            numDependencies,
            nodeParams
        )
    )
}

/// `CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)` (CUDA 12.2
/// ABI, 13.5 layouts).
///
/// # Safety
/// The CUDA API contract of `cuGraphNodeSetParams`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphNodeSetParams(
    hNode: CUgraphNode,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: forwarded contract.
    if !unsafe { fits(nodeParams) } {
        return refusal();
    }
    call_raw!(NODE_SET_PARAMS, NodeSetParams, (hNode, nodeParams))
}

/// `CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)`
/// (CUDA 12.2 ABI, 13.5 layouts).
///
/// # Safety
/// The CUDA API contract of `cuGraphExecNodeSetParams`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecNodeSetParams(
    hGraphExec: CUgraphExec,
    hNode: CUgraphNode,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: forwarded contract.
    if !unsafe { fits(nodeParams) } {
        return refusal();
    }
    call_raw!(
        EXEC_NODE_SET_PARAMS,
        ExecNodeSetParams,
        (hGraphExec, hNode, nodeParams)
    )
}
