//! The driver's conditional graph nodes (CUDA 12.3+, cuda.h, CUDA 13 ABI) over the registry both
//! APIs share (`queue/graph.rs`, which says how they run): handles
//! (`cuGraphConditionalHandleCreate`), nodes added by `cuGraphAddNode` (conditional, and the
//! kernel and empty nodes a body holds), and the capture calls that fill a body or join a node
//! to a capture (`cuStreamBeginCaptureToGraph`, `cuStreamUpdateCaptureDependencies`). Edges
//! other than the default one (ports, programmatic edges) are not modelled: refused with
//! `CUDA_ERROR_NOT_SUPPORTED` and a debug line, never ignored.

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::device::context;
use crate::driver::graph_child::add_child_node;
use crate::driver::graph_nodes::cuGraphAddKernelNode_v2;
use crate::driver::{in_context, status};
use crate::queue::graph;
use crate::types::cuda::*;
use alloc::vec::Vec;
use core::ffi::c_uint;

/// `CUDA_ERROR_NOT_SUPPORTED`, with the debug line saying what `function` was asked.
fn refuse(function: &str, what: &str) -> CUresult {
    stub_loader::debug_line(
        "mock",
        format_args!("{function}: {what}: not modelled by the mock device: not supported (801)"),
    );
    CUDA_ERROR_NOT_SUPPORTED
}

/// Whether the `count` edges at `edges` are all default ([`graph::out::default_edges`]).
///
/// # Safety
/// `edges` is NULL or `count` edges.
unsafe fn default_edges(edges: *const CUgraphEdgeData, count: usize) -> bool {
    // SAFETY: forwarded contract (8 bytes an edge, asserted below).
    unsafe { graph::out::default_edges(edges.cast(), count) }
}

const _: () = assert!(core::mem::size_of::<CUgraphEdgeData>() == 8);

/// The `count` node handles at `deps` ([`graph::out::handles`]).
///
/// # Safety
/// `deps` is NULL or `count` handles.
unsafe fn handles_of(deps: *const CUgraphNode, count: usize) -> Option<Vec<usize>> {
    // SAFETY: forwarded contract.
    unsafe { graph::out::handles(deps.cast(), count) }
}

/// `CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph
/// hGraph, CUcontext ctx, unsigned int defaultLaunchValue, unsigned int flags)`: a handle for
/// `hGraph`'s conditional nodes in `ctx` (a live context: `CUDA_ERROR_INVALID_VALUE`
/// otherwise); `flags` 0 or `CU_GRAPH_COND_ASSIGN_DEFAULT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphConditionalHandleCreate(
    pHandle_out: *mut CUgraphConditionalHandle,
    hGraph: CUgraph,
    ctx: CUcontext,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> CUresult {
    in_context(|_, _| {
        if pHandle_out.is_null() || context::device_of(ctx as usize).is_none() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::create_handle(hGraph as usize, defaultLaunchValue, flags) {
            Ok(h) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pHandle_out = h };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

/// `cuGraphAddNode_v2` without edge data (CUDA 12.2's `cuGraphAddNode`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    let none = core::ptr::null();
    // SAFETY: the same contract.
    unsafe {
        cuGraphAddNode_v2(
            phGraphNode,
            hGraph,
            dependencies,
            none,
            numDependencies,
            nodeParams,
        )
    }
}

/// `cuGraphAddNode_v2`, as cuda.h 13.5 declares its `_v3` (the same prototype and parameters).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddNode_v3(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    dependencyData: *const CUgraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: the same contract.
    unsafe {
        cuGraphAddNode_v2(
            phGraphNode,
            hGraph,
            dependencies,
            dependencyData,
            numDependencies,
            nodeParams,
        )
    }
}

/// `CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode
/// *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies,
/// CUgraphNodeParams *nodeParams)`: a conditional node (its bodies into
/// `nodeParams->conditional.phGraph_out`, an array the node owns; its `ctx` the handle's), a
/// child graph node (as `cuGraphAddChildGraphNode`), a kernel node (as `cuGraphAddKernelNode`)
/// or an empty node; other types answer `CUDA_ERROR_NOT_SUPPORTED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddNode_v2(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    dependencyData: *const CUgraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    // SAFETY: NULL or the caller's edges, by the API's contract.
    if !unsafe { default_edges(dependencyData, numDependencies) } {
        return in_context(|_, _| refuse("cuGraphAddNode", "an edge other than the default"));
    }
    // SAFETY: NULL or the caller's parameters.
    let Some(p) = (unsafe { nodeParams.as_mut() }) else {
        return in_context(|_, _| CUDA_ERROR_INVALID_VALUE);
    };
    match p.type_ {
        CU_GRAPH_NODE_TYPE_KERNEL => {
            // SAFETY: the kernel member is the one `type` names.
            let k = unsafe { p.__bindgen_anon_1.kernel };
            let v2 = CUDA_KERNEL_NODE_PARAMS {
                func: k.func,
                gridDimX: k.gridDimX,
                gridDimY: k.gridDimY,
                gridDimZ: k.gridDimZ,
                blockDimX: k.blockDimX,
                blockDimY: k.blockDimY,
                blockDimZ: k.blockDimZ,
                sharedMemBytes: k.sharedMemBytes,
                kernelParams: k.kernelParams,
                extra: k.extra,
                kern: k.kern,
                ctx: k.ctx,
            };
            // SAFETY: forwarded contract.
            unsafe {
                cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &v2)
            }
        }
        CU_GRAPH_NODE_TYPE_EMPTY => {
            // SAFETY: forwarded contract.
            unsafe {
                crate::driver::graph::cuGraphAddEmptyNode(
                    phGraphNode,
                    hGraph,
                    dependencies,
                    numDependencies,
                )
            }
        }
        CU_GRAPH_NODE_TYPE_GRAPH => {
            // SAFETY: the child graph member is the one `type` names.
            let c = unsafe { p.__bindgen_anon_1.graph };
            let deps = (dependencies, numDependencies);
            // SAFETY: forwarded contract.
            unsafe { add_child_node(phGraphNode, hGraph, deps, c.graph, c.ownership) }
        }
        CU_GRAPH_NODE_TYPE_CONDITIONAL => in_context(|_, _| {
            // SAFETY: the conditional member is the one `type` names.
            let c = unsafe { &mut p.__bindgen_anon_1.conditional };
            if context::device_of(c.ctx as usize).is_none() {
                return CUDA_ERROR_INVALID_VALUE;
            }
            // SAFETY: the caller's handles, by the API's contract.
            let Some(deps) = (unsafe { handles_of(dependencies, numDependencies) }) else {
                return CUDA_ERROR_INVALID_VALUE;
            };
            if phGraphNode.is_null() {
                return CUDA_ERROR_INVALID_VALUE;
            }
            let shape = (c.handle, c.type_, c.size);
            match graph::add_conditional(hGraph as usize, &deps, shape) {
                Ok((node, _)) => {
                    // SAFETY: non-NULL, the caller's handle.
                    unsafe { *phGraphNode = node as CUgraphNode };
                    c.phGraph_out = graph::bodies_array(node).cast_mut().cast();
                    CUDA_SUCCESS
                }
                Err(code) => code,
            }
        }),
        other => in_context(|_, _| {
            let what = alloc::format!("a node of type {other}");
            refuse("cuGraphAddNode", &what)
        }),
    }
}

/// `CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode
/// *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies,
/// CUstreamCaptureMode mode)`: a capture into `hGraph` (a conditional node's body, typically),
/// its first nodes after `dependencies`; `cuStreamEndCapture` gives `hGraph` back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamBeginCaptureToGraph(
    hStream: CUstream,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    dependencyData: *const CUgraphEdgeData,
    numDependencies: usize,
    mode: CUstreamCaptureMode,
) -> CUresult {
    in_context(|_, _| {
        // SAFETY: NULL or the caller's edges, by the API's contract.
        if !unsafe { default_edges(dependencyData, numDependencies) } {
            return refuse(
                "cuStreamBeginCaptureToGraph",
                "an edge other than the default",
            );
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { handles_of(dependencies, numDependencies) }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        status(graph::begin_to_graph(
            hStream as usize,
            mode,
            hGraph as usize,
            &deps,
        ))
    })
}

/// `CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
/// const CUgraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)`:
/// `dependencies` added to the nodes the stream's next captured work follows
/// (`CU_STREAM_ADD_CAPTURE_DEPENDENCIES`) or made them (`CU_STREAM_SET_CAPTURE_DEPENDENCIES`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamUpdateCaptureDependencies_v2(
    hStream: CUstream,
    dependencies: *mut CUgraphNode,
    dependencyData: *const CUgraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> CUresult {
    in_context(|_, _| {
        // SAFETY: NULL or the caller's edges, by the API's contract.
        if !unsafe { default_edges(dependencyData, numDependencies) } {
            let what = "an edge other than the default";
            return refuse("cuStreamUpdateCaptureDependencies", what);
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { handles_of(dependencies, numDependencies) }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        status(graph::update_dependencies(hStream as usize, &deps, flags))
    })
}

/// `cuStreamUpdateCaptureDependencies_v2` without edge data (CUDA 11.3's).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamUpdateCaptureDependencies(
    hStream: CUstream,
    dependencies: *mut CUgraphNode,
    numDependencies: usize,
    flags: c_uint,
) -> CUresult {
    let none = core::ptr::null();
    // SAFETY: the same contract.
    unsafe {
        cuStreamUpdateCaptureDependencies_v2(hStream, dependencies, none, numDependencies, flags)
    }
}

/// `CUresult cuGraphNodeGetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)` (CUDA
/// 12.9+): a conditional node's handle, type, size, bodies (its `phGraph_out` array) and the
/// current context, a child graph node's embedded graph (its ownership
/// `CU_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID`, which cuda.h says a query sets "to prevent
/// accidentally reusing the driver-owned graph object"); other node types answer
/// `CUDA_ERROR_NOT_SUPPORTED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphNodeGetParams(
    hNode: CUgraphNode,
    nodeParams: *mut CUgraphNodeParams,
) -> CUresult {
    in_context(|_, d| {
        if nodeParams.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if let Ok(embedded) = graph::child_graph(hNode as usize) {
            let mut out = CUgraphNodeParams {
                type_: CU_GRAPH_NODE_TYPE_GRAPH,
                ..Default::default()
            };
            out.__bindgen_anon_1.graph = CUDA_CHILD_GRAPH_NODE_PARAMS {
                graph: embedded as CUgraph,
                ownership: CU_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID,
            };
            // SAFETY: non-NULL, the caller's struct.
            unsafe { *nodeParams = out };
            return CUDA_SUCCESS;
        }
        let Some((handle, kind, size, bodies)) = graph::conditional_of(hNode as usize) else {
            return match graph::node_type(hNode as usize) {
                Ok(t) => {
                    let what = alloc::format!("a node of type {t}");
                    refuse("cuGraphNodeGetParams", &what)
                }
                Err(code) => code,
            };
        };
        let mut out = CUgraphNodeParams {
            type_: CU_GRAPH_NODE_TYPE_CONDITIONAL,
            ..Default::default()
        };
        out.__bindgen_anon_1.conditional = CUDA_CONDITIONAL_NODE_PARAMS {
            handle,
            type_: kind,
            size,
            phGraph_out: bodies.cast_mut().cast(),
            ctx: context::primary(d) as CUcontext,
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *nodeParams = out };
        CUDA_SUCCESS
    })
}
