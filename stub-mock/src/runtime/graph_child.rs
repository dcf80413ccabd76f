//! The runtime's child graph nodes (cuda_runtime_api.h, CUDA 13 ABI) over the registry both
//! APIs share (`queue/graph.rs`, which says how they are kept and run): a node that embeds a
//! copy of a graph (`cudaGraphAddChildGraphNode`, and `cudaGraphAddNode` of
//! `cudaGraphNodeTypeGraph`: `graph_conditional.rs` calls [`add_child_node`]), its embedded graph
//! (`cudaGraphChildGraphNodeGetGraph`) and an executable graph's node given another graph of the
//! same topology (`cudaGraphExecChildGraphNodeSetParams`). A graph moved into its node
//! (`cudaGraphChildGraphOwnershipMove`, CUDA 12.9+) is embedded itself and is the node's from
//! then on (`graph::add_child` says what it may not be).

// NVIDIA's parameter and constant names (cuda_runtime_api.h).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::queue::graph;
use crate::runtime::call;
use crate::types::cudart::*;

/// Adds a child graph node embedding a copy of `childGraph` (`ownership`, from
/// `cudaChildGraphNodeParams` of `cudaGraphAddNode`: `cudaGraphChildGraphOwnershipClone`, the
/// default; or `cudaGraphChildGraphOwnershipMove`, `childGraph` itself; another value is
/// invalid) to `graph` after the
/// `numDependencies` nodes at `pDependencies`, its handle into `*pGraphNode`.
///
/// # Safety
/// `pDependencies` is NULL or `numDependencies` handles; `pGraphNode` NULL or the caller's.
pub(crate) unsafe fn add_child_node(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    (pDependencies, numDependencies): (*const cudaGraphNode_t, usize),
    childGraph: cudaGraph_t,
    ownership: cudaGraphChildGraphNodeOwnership,
) -> cudaError_t {
    call(|_| {
        let moved = match ownership {
            cudaGraphChildGraphOwnershipClone => false,
            cudaGraphChildGraphOwnershipMove => true,
            _ => return cudaErrorInvalidValue,
        };
        if pGraphNode.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { graph::out::handles(pDependencies.cast(), numDependencies) })
        else {
            return cudaErrorInvalidValue;
        };
        match graph::add_child(graph as usize, &deps, childGraph as usize, moved) {
            Ok(node) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pGraphNode = node as cudaGraphNode_t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

/// `cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
/// const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaGraph_t childGraph)`: a
/// node that runs a copy of `childGraph`, made now ("The child graph is cloned in this call");
/// `cudaErrorInvalidValue` for a child holding memory allocation, free or conditional nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddChildGraphNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    childGraph: cudaGraph_t,
) -> cudaError_t {
    let deps = (pDependencies, numDependencies);
    let clone = cudaGraphChildGraphOwnershipClone;
    // SAFETY: the same contract.
    unsafe { add_child_node(pGraphNode, graph, deps, childGraph, clone) }
}

/// `cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)`:
/// the graph embedded in `node`, not a copy: the node keeps it, and changes to it are the
/// node's ("Changes to the graph will be reflected in the node").
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphChildGraphNodeGetGraph(
    node: cudaGraphNode_t,
    pGraph: *mut cudaGraph_t,
) -> cudaError_t {
    call(|_| {
        if pGraph.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::child_graph(node as usize) {
            Ok(g) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pGraph = g as cudaGraph_t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

/// `cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
/// cudaGraphNode_t node, cudaGraph_t childGraph)`: `hGraphExec`'s later launches run
/// `childGraph`'s operations for `node`, whose topology and node order `childGraph` must have
/// (`cudaErrorInvalidValue` otherwise); `node` itself is unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecChildGraphNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    childGraph: cudaGraph_t,
) -> cudaError_t {
    call(
        |_| match graph::exec_set_child(hGraphExec as usize, node as usize, childGraph as usize) {
            Ok(()) => cudaSuccess,
            Err(code) => code,
        },
    )
}
