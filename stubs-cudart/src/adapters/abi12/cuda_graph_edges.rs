//! The graph-edge family in their CUDA 12 version (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h):
//! `cudaGraphAddDependencies`, `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`,
//! `cudaGraphNodeGetDependencies`, `cudaGraphNodeGetDependentNodes`.
//!
//! - 11.x / 12.x (11.8, 12.9 headers), this version's ABI, forwarded: no edge data, e.g.
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

use super::super::{RawFn, Target, call_raw, refusal, target};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaGraph_t, cudaGraphNode_t};

static ADD_DEPS: RawFn = RawFn::new(c"cudaGraphAddDependencies");
static REMOVE_DEPS: RawFn = RawFn::new(c"cudaGraphRemoveDependencies");
static GET_EDGES: RawFn = RawFn::new(c"cudaGraphGetEdges");
static NODE_DEPS: RawFn = RawFn::new(c"cudaGraphNodeGetDependencies");
static NODE_DEPENDENTS: RawFn = RawFn::new(c"cudaGraphNodeGetDependentNodes");

/// `cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies)`
/// (12.9 ABI). 13.x: the 5-argument form with NULL edge data (default edges).
///
/// # Safety
/// The CUDA API contract of `cudaGraphAddDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphAddDependencies(
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
            crate::api::abi12::cudaGraphAddDependencies::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphRemoveDependencies(
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
            crate::api::abi12::cudaGraphRemoveDependencies::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphGetEdges(
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
            crate::api::abi12::cudaGraphGetEdges::Forward::call(graph, from, to, numEdges)
        },
    }
}

/// `cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, size_t *pNumDependencies)`
/// (12.9 ABI). 13.x: the 4-argument form with NULL edge data (not returned).
///
/// # Safety
/// The CUDA API contract of `cudaGraphNodeGetDependencies`.
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependencies(
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
            crate::api::abi12::cudaGraphNodeGetDependencies::Forward::call(
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
pub(crate) unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
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
            crate::api::abi12::cudaGraphNodeGetDependentNodes::Forward::call(
                node,
                pDependentNodes,
                pNumDependentNodes,
            )
        },
    }
}
