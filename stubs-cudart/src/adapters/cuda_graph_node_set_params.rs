//! `struct cudaGraphNodeParams` (driver_types.h) for `cudaGraphNodeSetParams`,
//! `cudaGraphExecNodeSetParams` and `cudaGraphAddNode` (its edge-data translation is in
//! `cuda_graph_edges.rs`).
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
//! So a 13.x struct whose 13.0-only fields hold their defaults (NULL `ctx`, `functionType`
//! unspecified or device entry, `syncMode` blocking) reads on a 12.x runtime exactly as the
//! 12.x struct with the same 12.x fields, and the runtime's outputs (`alloc.dptr`,
//! `conditional.phGraph_out`) land at the same offsets: the caller's struct is passed as is.
//! Anything else has no 12.x equivalent and is refused with `cudaErrorNotSupported` (801),
//! nothing called: a non-NULL execution context, a `cudaKernel_t` / `cudaFunction_t` handle
//! type, a spin-wait host node, a node type 12.x lacks. 11.x has none of these functions
//! (12.2+ / 12.4+): refused by the gated slot. 13.x: forwarded.

use super::super::{RawFn, Target, call_raw, refusal, target};
// A 12.x runtime is called with its own prototypes (`abi_fns::v12`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraphExec_t, cudaGraphNode_t, cudaGraphNodeParams};

/// `cudaGraphNodeType` values (driver_types.h 12.9 / 13.x), short names for the matches below.
const KERNEL: u32 = crate::types::cudaGraphNodeTypeKernel;
const MEMCPY: u32 = crate::types::cudaGraphNodeTypeMemcpy;
const MEMSET: u32 = crate::types::cudaGraphNodeTypeMemset;
const HOST: u32 = crate::types::cudaGraphNodeTypeHost;
const EVENT_RECORD: u32 = crate::types::cudaGraphNodeTypeEventRecord;
const EXT_SEM_SIGNAL: u32 = crate::types::cudaGraphNodeTypeExtSemaphoreSignal;
const EXT_SEM_WAIT: u32 = crate::types::cudaGraphNodeTypeExtSemaphoreWait;
const CONDITIONAL: u32 = crate::types::cudaGraphNodeTypeConditional;
/// `cudaGraphNodeTypeMemcpyBatch`: the first type 12.9 lacks (14, 16 and 17 are 13.x's).
const FIRST_NEW_TYPE: u32 = crate::types::cudaGraphNodeTypeMemcpyBatch;
/// `cudaKernelFunctionTypeDeviceEntry`: a `__global__` function pointer, what 12.x's `func` is.
const DEVICE_ENTRY: u32 = crate::types::cudaKernelFunctionTypeDeviceEntry;
/// `cudaHostTaskBlocking` (enum `cudaHostTaskSyncMode`, which `types.rs` lacks: no prototype
/// names it, and `syncMode` is a plain `unsigned int`).
const BLOCKING: u32 = 0;

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

static SET_PARAMS: RawFn = RawFn::new(c"cudaGraphNodeSetParams");
static EXEC_SET_PARAMS: RawFn = RawFn::new(c"cudaGraphExecNodeSetParams");

/// `cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)` (13.0 ABI; 12.x: same prototype, 12.9 members).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeSetParams`.
pub(crate) unsafe extern "C" fn cudaGraphNodeSetParams(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(12) {
        // SAFETY: forwarded contract (13.x, or the typed refusal on 11.x / no library).
        return unsafe {
            crate::api::abi13::cudaGraphNodeSetParams::Forward::call(node, nodeParams)
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
pub(crate) unsafe extern "C" fn cudaGraphExecNodeSetParams(
    graphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    if target() != Target::Major(12) {
        // SAFETY: forwarded contract (13.x, or the typed refusal on 11.x / no library).
        return unsafe {
            crate::api::abi13::cudaGraphExecNodeSetParams::Forward::call(
                graphExec, node, nodeParams,
            )
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
