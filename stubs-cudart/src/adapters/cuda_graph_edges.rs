//! The graph-edge family (cuda_runtime_api.h): `cudaGraphAddDependencies`,
//! `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`, `cudaGraphNodeGetDependencies`,
//! `cudaGraphNodeGetDependentNodes`, whose 13.x prototypes take the `cudaGraphEdgeData` array
//! 12.x's plain names lack; exported once per ABI. The edge-data rules here also serve
//! `cudaGraphAddNode` (`cuda_graph_node_set_params.rs`) and
//! `cudaStreamUpdateCaptureDependencies`.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! The graph-edge family (cuda_runtime_api.h): `cudaGraphAddDependencies`,
//! `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`, `cudaGraphNodeGetDependencies`,
//! `cudaGraphNodeGetDependentNodes`, `cudaGraphAddNode`.
//!
//! CUDA 13.0 gives each a `cudaGraphEdgeData` array parameter (the CUDA 13 version's ABI, forwarded on
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
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! The graph-edge family in their CUDA 12 version (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h):
//! `cudaGraphAddDependencies`, `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`,
//! `cudaGraphNodeGetDependencies`, `cudaGraphNodeGetDependentNodes`.
//!
//! - 11.x / 12.x (11.8, 12.9 headers), the CUDA 12 version's ABI, forwarded: no edge data, e.g.
//!   `cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies)`,
//!   `cudaGraphGetEdges(graph, from, to, size_t *numEdges)`,
//!   `cudaGraphNodeGetDependencies(node, pDependencies, size_t *pNumDependencies)`
//!   (12.3+'s edge-data forms are the separate `_v2` names, exported as they are).
//! - 13.x (13.0 header): the plain names take a `cudaGraphEdgeData` array (8 bytes an entry)
//!   before the count, e.g. `cudaGraphAddDependencies(graph, from, to, const cudaGraphEdgeData *edgeData, size_t numDependencies)`.
//!
//! On 13.x the adapter passes NULL edge data, which 13.x documents as "all default edges" for
//! Add/Remove and "do not return edge data" for the Get functions; as with 12.3+'s own plain
//! names, a 13.x runtime answers a query of non-default edges without edge data with
//! `cudaErrorLossyQuery` (its own error, passed on). Nothing is refused.

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraph_t, cudaGraphEdgeData, cudaGraphNode_t};

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

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

/// The loaded major when it is 11 or 12 (the ones translated here).
fn older_major() -> Option<u32> {
    match target() {
        Target::Major(m @ (11 | 12)) => Some(m),
        _ => None,
    }
}

/// Whether the `_v2` twin (12.3+) should take a call that carries edge data.
pub(super) fn use_v2(major: u32, edge_data_given: bool, v2: &RawFn) -> bool {
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
pub(crate) unsafe extern "C" fn cudaGraphAddDependencies_abi13(
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
            crate::api::cudaGraphAddDependencies_abi13::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphRemoveDependencies_abi13(
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
            crate::api::cudaGraphRemoveDependencies_abi13::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphGetEdges_abi13(
    graph: cudaGraph_t,
    from: *mut cudaGraphNode_t,
    to: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    numEdges: *mut usize,
) -> cudaError_t {
    let Some(m) = older_major() else {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaGraphGetEdges_abi13::Forward::call(graph, from, to, edgeData, numEdges)
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
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependencies_abi13(
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
            crate::api::cudaGraphNodeGetDependencies_abi13::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependentNodes_abi13(
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
            crate::api::cudaGraphNodeGetDependentNodes_abi13::Forward::call(
                node,
                pDependentNodes,
                edgeData,
                pNumDependentNodes,
            )
        },
    }
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

/// `cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies)`
/// (12.9 ABI). 13.x: the 5-argument form with NULL edge data (default edges).
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphAddDependencies_abi12(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    numDependencies: usize,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            ADD_DEPS,
            abi_fns::v13::cudaGraphAddDependencies,
            (graph, from, to, core::ptr::null(), numDependencies)
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphAddDependencies_abi12::Forward::call(
                graph,
                from,
                to,
                numDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies)`
/// (12.9 ABI). 13.x: the 5-argument form with NULL edge data (default edges).
///
/// # Safety
/// The CUDA API contract of `cudaGraphRemoveDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphRemoveDependencies_abi12(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    numDependencies: usize,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            REMOVE_DEPS,
            abi_fns::v13::cudaGraphAddDependencies,
            (graph, from, to, core::ptr::null(), numDependencies)
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphRemoveDependencies_abi12::Forward::call(
                graph,
                from,
                to,
                numDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *numEdges)`
/// (12.9 ABI). 13.x: the 5-argument form with NULL edge data (not returned).
///
/// # Safety
/// The CUDA API contract of `cudaGraphGetEdges`.
pub(crate) unsafe extern "C" fn cudaGraphGetEdges_abi12(
    graph: cudaGraph_t,
    from: *mut cudaGraphNode_t,
    to: *mut cudaGraphNode_t,
    numEdges: *mut usize,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            GET_EDGES,
            abi_fns::v13::cudaGraphGetEdges,
            (graph, from, to, core::ptr::null_mut(), numEdges)
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphGetEdges_abi12::Forward::call(graph, from, to, numEdges)
        },
    }
}

/// `cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, size_t *pNumDependencies)`
/// (12.9 ABI). 13.x: the 4-argument form with NULL edge data (not returned).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeGetDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependencies_abi12(
    node: cudaGraphNode_t,
    pDependencies: *mut cudaGraphNode_t,
    pNumDependencies: *mut usize,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            NODE_DEPS,
            abi_fns::v13::cudaGraphNodeGetDependencies,
            (node, pDependencies, core::ptr::null_mut(), pNumDependencies)
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphNodeGetDependencies_abi12::Forward::call(
                node,
                pDependencies,
                pNumDependencies,
            )
        },
    }
}

/// `cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, size_t *pNumDependentNodes)`
/// (12.9 ABI). 13.x: the 4-argument form with NULL edge data (not returned).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeGetDependentNodes`.
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependentNodes_abi12(
    node: cudaGraphNode_t,
    pDependentNodes: *mut cudaGraphNode_t,
    pNumDependentNodes: *mut usize,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => call_raw!(
            NODE_DEPENDENTS,
            abi_fns::v13::cudaGraphNodeGetDependencies,
            (
                node,
                pDependentNodes,
                core::ptr::null_mut(),
                pNumDependentNodes
            )
        ),
        // SAFETY: forwarded contract; 11.x / 12.x have the exported prototype.
        Target::Major(_) => unsafe {
            crate::api::cudaGraphNodeGetDependentNodes_abi12::Forward::call(
                node,
                pDependentNodes,
                pNumDependentNodes,
            )
        },
    }
}
