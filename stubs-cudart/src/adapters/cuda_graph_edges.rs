//! The graph-edge family (cuda_runtime_api.h): `cudaGraphAddDependencies`,
//! `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`, `cudaGraphNodeGetDependencies`,
//! `cudaGraphNodeGetDependentNodes`, `cudaGraphAddNode`.
//!
//! CUDA 13.0 gives each a `cudaGraphEdgeData` array parameter (this version's ABI, forwarded on
//! 13.x), e.g. `cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies)`.
//! 12.9 and 11.8 have the plain names without it
//! (`cudaGraphAddDependencies(graph, from, to, size_t numDependencies)`,
//! `cudaGraphGetEdges(graph, from, to, size_t *numEdges)`,
//! `cudaGraphNodeGetDependencies(node, pDependencies, size_t *pNumDependencies)`,
//! `cudaGraphAddNode(pGraphNode, graph, pDependencies, numDependencies, nodeParams)` — 12.2+
//! only); 12.3+ adds `_v2` twins with 13.x's prototypes.
//!
//! On 12.x with a non-NULL edge-data argument the `_v2` twin is called when present. Otherwise
//! the plain form: edge data arrived in 12.3, so before it every edge is a default (all-zero)
//! edge. Add/Remove/AddNode accept NULL or all-zero edge data and refuse (801) anything else;
//! the Get functions fill a caller's edge-data array with zeroed entries for the edges
//! returned. `cudaGraphAddNode` does not exist on 11.x (refused by the gated slot).

use super::super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
// Older runtimes are called with 12.9's prototypes (`abi_fns::v12`); 11.x declares the same
// where it exports the name.
use crate::abi_fns;
use crate::types::{
    cudaError_t, cudaGraph_t, cudaGraphEdgeData, cudaGraphNode_t, cudaGraphNodeParams,
};

static ADD_DEPS: RawFn = RawFn::new(c"cudaGraphAddDependencies");
static ADD_DEPS_V2: RawFn = RawFn::new(c"cudaGraphAddDependencies_v2");
static REMOVE_DEPS: RawFn = RawFn::new(c"cudaGraphRemoveDependencies");
static REMOVE_DEPS_V2: RawFn = RawFn::new(c"cudaGraphRemoveDependencies_v2");
static GET_EDGES: RawFn = RawFn::new(c"cudaGraphGetEdges");
static GET_EDGES_V2: RawFn = RawFn::new(c"cudaGraphGetEdges_v2");
static NODE_DEPS: RawFn = RawFn::new(c"cudaGraphNodeGetDependencies");
static NODE_DEPS_V2: RawFn = RawFn::new(c"cudaGraphNodeGetDependencies_v2");
static NODE_DEPENDENTS: RawFn = RawFn::new(c"cudaGraphNodeGetDependentNodes");
static NODE_DEPENDENTS_V2: RawFn = RawFn::new(c"cudaGraphNodeGetDependentNodes_v2");
static ADD_NODE: RawFn = RawFn::new(c"cudaGraphAddNode");
static ADD_NODE_V2: RawFn = RawFn::new(c"cudaGraphAddNode_v2");

/// The loaded major when it is 11 or 12 (the ones translated here).
fn older_major() -> Option<u32> {
    match target() {
        Target::Major(m @ (11 | 12)) => Some(m),
        _ => None,
    }
}

/// Whether the `_v2` twin (12.3+) should take a call that carries edge data.
fn use_v2(major: u32, edge_data_given: bool, v2: &RawFn) -> bool {
    major == 12 && edge_data_given && v2.get().is_some()
}

/// True when `edges[..n]` is NULL or every entry is a default (all-zero) edge.
///
/// # Safety
/// `edges` is NULL or readable for `n` entries.
pub(super) unsafe fn all_default(edges: *const cudaGraphEdgeData, n: usize) -> bool {
    if edges.is_null() || n == 0 {
        return true;
    }
    // SAFETY: readable for `n` entries by the caller's contract.
    let slice = unsafe { core::slice::from_raw_parts(edges, n) };
    slice.iter().all(|e| {
        e.from_port == 0 && e.to_port == 0 && e.type_ == 0 && e.reserved.iter().all(|b| *b == 0)
    })
}

/// Zeroes `edges[..min(before, after)]` for a Get call that returned `after` of the `before`
/// entries the caller provided; nothing when the caller gave no arrays.
///
/// # Safety
/// `edges` is NULL or writable for `before` entries.
unsafe fn zero_edges(
    edges: *mut cudaGraphEdgeData,
    nodes_given: bool,
    before: usize,
    after: usize,
) {
    if edges.is_null() || !nodes_given {
        return;
    }
    for i in 0..before.min(after) {
        // SAFETY: in bounds of the caller's array.
        unsafe { edges.add(i).write(cudaGraphEdgeData::default()) };
    }
}

/// Add/Remove with optional edge data on 11.x/12.x.
///
/// # Safety
/// The CUDA API contract of the function.
#[allow(clippy::too_many_arguments)]
unsafe fn deps_older(
    plain: &RawFn,
    v2: &RawFn,
    major: u32,
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    if use_v2(major, !edgeData.is_null(), v2) {
        return call_raw!(
            v2,
            abi_fns::v12::cudaGraphAddDependencies_v2,
            (graph, from, to, edgeData, numDependencies)
        );
    }
    // SAFETY: `edgeData` has `numDependencies` entries by contract.
    if !unsafe { all_default(edgeData, numDependencies) } {
        return refusal();
    }
    call_raw!(
        plain,
        abi_fns::v12::cudaGraphAddDependencies,
        (graph, from, to, numDependencies)
    )
}

/// `cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphAddDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    match older_major() {
        // SAFETY: forwarded contract.
        Some(m) => unsafe {
            deps_older(
                &ADD_DEPS,
                &ADD_DEPS_V2,
                m,
                graph,
                from,
                to,
                edgeData,
                numDependencies,
            )
        },
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        None => unsafe {
            crate::api::abi13::cudaGraphAddDependencies::Forward::call(
                graph,
                from,
                to,
                edgeData,
                numDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphRemoveDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphRemoveDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    match older_major() {
        // SAFETY: forwarded contract.
        Some(m) => unsafe {
            deps_older(
                &REMOVE_DEPS,
                &REMOVE_DEPS_V2,
                m,
                graph,
                from,
                to,
                edgeData,
                numDependencies,
            )
        },
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        None => unsafe {
            crate::api::abi13::cudaGraphRemoveDependencies::Forward::call(
                graph,
                from,
                to,
                edgeData,
                numDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edgeData, size_t *numEdges)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphGetEdges`.
pub(crate) unsafe extern "C" fn cudaGraphGetEdges(
    graph: cudaGraph_t,
    from: *mut cudaGraphNode_t,
    to: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    numEdges: *mut usize,
) -> cudaError_t {
    let Some(m) = older_major() else {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::abi13::cudaGraphGetEdges::Forward::call(graph, from, to, edgeData, numEdges)
        };
    };
    if use_v2(m, !edgeData.is_null(), &GET_EDGES_V2) {
        return call_raw!(
            GET_EDGES_V2,
            abi_fns::v12::cudaGraphGetEdges_v2,
            (graph, from, to, edgeData, numEdges)
        );
    }
    // SAFETY: `numEdges` is readable when non-NULL by contract.
    let before = if numEdges.is_null() {
        0
    } else {
        unsafe { numEdges.read() }
    };
    let status = call_raw!(
        GET_EDGES,
        abi_fns::v12::cudaGraphGetEdges,
        (graph, from, to, numEdges)
    );
    if status == SUCCESS && !numEdges.is_null() {
        // SAFETY: written by the runtime; `edgeData` has `before` entries by contract.
        unsafe { zero_edges(edgeData, !from.is_null(), before, numEdges.read()) };
    }
    status
}

/// Node dependencies / dependents on 11.x/12.x.
///
/// # Safety
/// The CUDA API contract of the function.
unsafe fn node_older(
    plain: &RawFn,
    v2: &RawFn,
    major: u32,
    node: cudaGraphNode_t,
    nodes: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    count: *mut usize,
) -> cudaError_t {
    if use_v2(major, !edgeData.is_null(), v2) {
        return call_raw!(
            v2,
            abi_fns::v12::cudaGraphNodeGetDependencies_v2,
            (node, nodes, edgeData, count)
        );
    }
    // SAFETY: `count` is readable when non-NULL by contract.
    let before = if count.is_null() {
        0
    } else {
        unsafe { count.read() }
    };
    let status = call_raw!(
        plain,
        abi_fns::v12::cudaGraphNodeGetDependencies,
        (node, nodes, count)
    );
    if status == SUCCESS && !count.is_null() {
        // SAFETY: written by the runtime; `edgeData` has `before` entries by contract.
        unsafe { zero_edges(edgeData, !nodes.is_null(), before, count.read()) };
    }
    status
}

/// `cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData, size_t *pNumDependencies)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeGetDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependencies(
    node: cudaGraphNode_t,
    pDependencies: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependencies: *mut usize,
) -> cudaError_t {
    match older_major() {
        // SAFETY: forwarded contract.
        Some(m) => unsafe {
            node_older(
                &NODE_DEPS,
                &NODE_DEPS_V2,
                m,
                node,
                pDependencies,
                edgeData,
                pNumDependencies,
            )
        },
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        None => unsafe {
            crate::api::abi13::cudaGraphNodeGetDependencies::Forward::call(
                node,
                pDependencies,
                edgeData,
                pNumDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeGetDependentNodes`.
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
    node: cudaGraphNode_t,
    pDependentNodes: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependentNodes: *mut usize,
) -> cudaError_t {
    match older_major() {
        // SAFETY: forwarded contract.
        Some(m) => unsafe {
            node_older(
                &NODE_DEPENDENTS,
                &NODE_DEPENDENTS_V2,
                m,
                node,
                pDependentNodes,
                edgeData,
                pNumDependentNodes,
            )
        },
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        None => unsafe {
            crate::api::abi13::cudaGraphNodeGetDependentNodes::Forward::call(
                node,
                pDependentNodes,
                edgeData,
                pNumDependentNodes,
            )
        },
    }
}

/// `cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams)` (13.0 ABI).
/// 12.x: `_v2` for edge data when present, else the 5-argument 12.2+ form with default edges;
/// node parameters 12.x cannot express are refused (801, see `cuda_graph_node_set_params.rs`);
/// 11.x lacks it (801).
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddNode`.
pub(crate) unsafe extern "C" fn cudaGraphAddNode(
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
            crate::api::abi13::cudaGraphAddNode::Forward::call(
                pGraphNode,
                graph,
                pDependencies,
                dependencyData,
                numDependencies,
                nodeParams,
            )
        };
    }
    // The 12.x reading of 13.x's node parameters (cuda_graph_node_set_params.rs).
    // SAFETY: `nodeParams` is NULL or readable by contract.
    if !unsafe { super::cuda_graph_node_set_params::expressible_on_12(nodeParams) } {
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
