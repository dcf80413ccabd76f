//! The driver's child graph nodes (cuda.h, CUDA 13 ABI) over the registry both APIs share
//! (`queue/graph.rs`, which says how they are kept and run): a node that embeds a copy of a
//! graph (`cuGraphAddChildGraphNode`, and `cuGraphAddNode` of `CU_GRAPH_NODE_TYPE_GRAPH`:
//! `graph_conditional.rs` calls [`add_child_node`]), its embedded graph
//! (`cuGraphChildGraphNodeGetGraph`) and an executable graph's node given another graph of the
//! same topology (`cuGraphExecChildGraphNodeSetParams`). A graph moved into its node
//! (`CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE`, CUDA 12.9+) is embedded itself and is the node's
//! from then on (`graph::add_child` says what it may not be).

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::driver::{in_context, status};
use crate::queue::graph;
use crate::types::cuda::*;

/// Adds a child graph node embedding a copy of `childGraph` (`ownership`, from
/// `CUDA_CHILD_GRAPH_NODE_PARAMS` of `cuGraphAddNode`: `CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE`,
/// the default; or `CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE`, `childGraph` itself; another value is
/// invalid) to `hGraph` after the
/// `numDependencies` nodes at `dependencies`, its handle into `*phGraphNode`.
///
/// # Safety
/// `dependencies` is NULL or `numDependencies` handles; `phGraphNode` NULL or the caller's.
pub(crate) unsafe fn add_child_node(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    (dependencies, numDependencies): (*const CUgraphNode, usize),
    childGraph: CUgraph,
    ownership: CUgraphChildGraphNodeOwnership,
) -> CUresult {
    in_context(|_, _| {
        let moved = match ownership {
            CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE => false,
            CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE => true,
            _ => return CUDA_ERROR_INVALID_VALUE,
        };
        if phGraphNode.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { graph::out::handles(dependencies.cast(), numDependencies) })
        else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        match graph::add_child(hGraph as usize, &deps, childGraph as usize, moved) {
            Ok(node) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *phGraphNode = node as CUgraphNode };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

/// `CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const
/// CUgraphNode *dependencies, size_t numDependencies, CUgraph childGraph)`: a node that runs a
/// copy of `childGraph`, made now; `CUDA_ERROR_INVALID_VALUE` for a child holding memory
/// allocation, free or conditional nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddChildGraphNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    childGraph: CUgraph,
) -> CUresult {
    let deps = (dependencies, numDependencies);
    let clone = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    // SAFETY: the same contract.
    unsafe { add_child_node(phGraphNode, hGraph, deps, childGraph, clone) }
}

/// `CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)`: the graph
/// embedded in `hNode`, not a copy (the node keeps it; changes to it are the node's).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphChildGraphNodeGetGraph(
    hNode: CUgraphNode,
    phGraph: *mut CUgraph,
) -> CUresult {
    in_context(|_, _| {
        if phGraph.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::child_graph(hNode as usize) {
            Ok(g) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *phGraph = g as CUgraph };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

/// `CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
/// CUgraph childGraph)`: `hGraphExec`'s later launches run `childGraph`'s operations for
/// `hNode`, whose topology and node order `childGraph` must have (`CUDA_ERROR_INVALID_VALUE`
/// otherwise).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecChildGraphNodeSetParams(
    hGraphExec: CUgraphExec,
    hNode: CUgraphNode,
    childGraph: CUgraph,
) -> CUresult {
    in_context(|_, _| {
        status(graph::exec_set_child(
            hGraphExec as usize,
            hNode as usize,
            childGraph as usize,
        ))
    })
}
