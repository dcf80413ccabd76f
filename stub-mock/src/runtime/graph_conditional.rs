//! The runtime's conditional graph nodes (CUDA 12.3+, cuda_runtime_api.h, CUDA 13 ABI) over the
//! registry both APIs share (`queue/graph.rs`, which says how they run): handles
//! (`cudaGraphConditionalHandleCreate`, `_v2`), nodes added by `cudaGraphAddNode` (conditional,
//! and the kernel and empty nodes a body holds), and the capture calls that fill a body or join
//! a node to a capture (`cudaStreamBeginCaptureToGraph`, `cudaStreamUpdateCaptureDependencies`).
//! Edges other than the default one (ports, programmatic edges) and execution contexts are not
//! modelled: refused with `cudaErrorNotSupported` and a debug line, never ignored.

// NVIDIA's parameter and constant names (cuda_runtime_api.h).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::queue::graph;
use crate::runtime::graph_child::add_child_node;
use crate::runtime::graph_nodes::cudaGraphAddKernelNode;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use alloc::vec::Vec;
use core::ffi::c_uint;

/// `Ok` → `cudaSuccess`, `Err(code)` → the code.
fn status<T>(r: Result<T, u32>) -> cudaError_t {
    match r {
        Ok(_) => cudaSuccess,
        Err(code) => code,
    }
}

/// `cudaErrorNotSupported`, with the debug line saying what `function` was asked.
fn refuse(function: &str, what: &str) -> cudaError_t {
    stub_loader::debug_line(
        "mock",
        format_args!("{function}: {what}: not modelled by the mock device: not supported (801)"),
    );
    cudaErrorNotSupported
}

/// Whether the `count` edges at `edges` are all default ([`graph::out::default_edges`]).
///
/// # Safety
/// `edges` is NULL or `count` edges.
unsafe fn default_edges(edges: *const cudaGraphEdgeData, count: usize) -> bool {
    // SAFETY: forwarded contract (8 bytes an edge: asserted in `graph.rs`).
    unsafe { graph::out::default_edges(edges.cast(), count) }
}

/// The `count` node handles at `deps` ([`graph::out::handles`]).
///
/// # Safety
/// `deps` is NULL or `count` handles.
unsafe fn handles_of(deps: *const cudaGraphNode_t, count: usize) -> Option<Vec<usize>> {
    // SAFETY: forwarded contract.
    unsafe { graph::out::handles(deps.cast(), count) }
}

/// `cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
/// cudaGraph_t graph, unsigned int defaultLaunchValue, unsigned int flags)`: a handle for
/// `graph`'s conditional nodes; `flags` 0 or `cudaGraphCondAssignDefault` (the value is
/// `defaultLaunchValue` again at the start of each launch).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphConditionalHandleCreate(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if let Err(e) = current(m) {
            return e;
        }
        if pHandle_out.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::create_handle(graph as usize, defaultLaunchValue, flags) {
            Ok(h) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pHandle_out = h };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

/// `cudaError_t cudaGraphConditionalHandleCreate_v2(cudaGraphConditionalHandle *pHandle_out,
/// cudaGraph_t graph, cudaExecutionContext_t ctx, unsigned int defaultLaunchValue, unsigned
/// int flags)` (CUDA 13): the current device's context when `ctx` is NULL; an execution
/// context is not modelled.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphConditionalHandleCreate_v2(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    ctx: cudaExecutionContext_t,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> cudaError_t {
    if !ctx.is_null() {
        let what = "an execution context";
        return call(|_| refuse("cudaGraphConditionalHandleCreate_v2", what));
    }
    // SAFETY: the same contract.
    unsafe { cudaGraphConditionalHandleCreate(pHandle_out, graph, defaultLaunchValue, flags) }
}

/// `cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t
/// numDependencies, struct cudaGraphNodeParams *nodeParams)` (CUDA 13's; 12.3's `_v2`): a
/// conditional node (its bodies into `nodeParams->conditional.phGraph_out`, an array the node
/// owns), a child graph node (as `cudaGraphAddChildGraphNode`), a kernel node (as
/// `cudaGraphAddKernelNode`) or an empty node; other types answer `cudaErrorNotSupported`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    // SAFETY: NULL or the caller's edges, by the API's contract.
    if !unsafe { default_edges(dependencyData, numDependencies) } {
        return call(|_| refuse("cudaGraphAddNode", "an edge other than the default"));
    }
    // SAFETY: NULL or the caller's parameters.
    let Some(p) = (unsafe { nodeParams.as_mut() }) else {
        return call(|_| cudaErrorInvalidValue);
    };
    match p.type_ {
        cudaGraphNodeTypeKernel => {
            // SAFETY: the kernel member is the one `type` names.
            let k = unsafe { p.__bindgen_anon_1.kernel };
            if !k.ctx.is_null() || k.functionType > cudaKernelFunctionTypeDeviceEntry {
                let what = "a kernel node with an execution context or a kernel handle";
                return call(|_| refuse("cudaGraphAddNode", what));
            }
            let v1 = cudaKernelNodeParams {
                // SAFETY: a device entry's function, by `functionType`.
                func: unsafe { k.__bindgen_anon_1.func },
                gridDim: k.gridDim,
                blockDim: k.blockDim,
                sharedMemBytes: k.sharedMemBytes,
                kernelParams: k.kernelParams,
                extra: k.extra,
            };
            // SAFETY: forwarded contract.
            unsafe {
                cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &v1)
            }
        }
        cudaGraphNodeTypeEmpty => {
            // SAFETY: forwarded contract.
            unsafe {
                crate::runtime::graph::cudaGraphAddEmptyNode(
                    pGraphNode,
                    graph,
                    pDependencies,
                    numDependencies,
                )
            }
        }
        cudaGraphNodeTypeGraph => {
            // SAFETY: the child graph member is the one `type` names.
            let c = unsafe { p.__bindgen_anon_1.graph };
            let deps = (pDependencies, numDependencies);
            // SAFETY: forwarded contract.
            unsafe { add_child_node(pGraphNode, graph, deps, c.graph, c.ownership) }
        }
        cudaGraphNodeTypeConditional => call(|m| {
            if let Err(e) = current(m) {
                return e;
            }
            // SAFETY: the conditional member is the one `type` names.
            let c = unsafe { &mut p.__bindgen_anon_1.conditional };
            if !c.ctx.is_null() {
                return refuse("cudaGraphAddNode", "an execution context");
            }
            // SAFETY: the caller's handles, by the API's contract.
            let Some(deps) = (unsafe { handles_of(pDependencies, numDependencies) }) else {
                return cudaErrorInvalidValue;
            };
            if pGraphNode.is_null() {
                return cudaErrorInvalidValue;
            }
            let shape = (c.handle, c.type_, c.size);
            match graph::add_conditional(graph as usize, &deps, shape) {
                Ok((node, _)) => {
                    // SAFETY: non-NULL, the caller's handle.
                    unsafe { *pGraphNode = node as cudaGraphNode_t };
                    c.phGraph_out = graph::bodies_array(node).cast_mut().cast();
                    cudaSuccess
                }
                Err(code) => code,
            }
        }),
        other => call(|_| {
            let what = alloc::format!("a node of type {other}");
            refuse("cudaGraphAddNode", &what)
        }),
    }
}

/// `cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const
/// cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t
/// numDependencies, cudaStreamCaptureMode mode)`: a capture into `graph` (a conditional node's
/// body, typically), its first nodes after `dependencies`; `cudaStreamEndCapture` gives `graph`
/// back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamBeginCaptureToGraph(
    stream: cudaStream_t,
    graph: cudaGraph_t,
    dependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    mode: cudaStreamCaptureMode,
) -> cudaError_t {
    call(|_| {
        // SAFETY: NULL or the caller's edges, by the API's contract.
        if !unsafe { default_edges(dependencyData, numDependencies) } {
            return refuse(
                "cudaStreamBeginCaptureToGraph",
                "an edge other than the default",
            );
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { handles_of(dependencies, numDependencies) }) else {
            return cudaErrorInvalidValue;
        };
        status(graph::begin_to_graph(
            stream as usize,
            mode,
            graph as usize,
            &deps,
        ))
    })
}

/// `cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t
/// *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned
/// int flags)` (CUDA 13's; 12.3's `_v2`): `dependencies` added to the nodes the stream's next
/// captured work follows (`cudaStreamAddCaptureDependencies`) or made them
/// (`cudaStreamSetCaptureDependencies`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamUpdateCaptureDependencies(
    stream: cudaStream_t,
    dependencies: *mut cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|_| {
        // SAFETY: NULL or the caller's edges, by the API's contract.
        if !unsafe { default_edges(dependencyData, numDependencies) } {
            return refuse(
                "cudaStreamUpdateCaptureDependencies",
                "an edge other than the default",
            );
        }
        // SAFETY: the caller's handles, by the API's contract.
        let Some(deps) = (unsafe { handles_of(dependencies, numDependencies) }) else {
            return cudaErrorInvalidValue;
        };
        status(graph::update_dependencies(stream as usize, &deps, flags))
    })
}

/// `cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, struct cudaGraphNodeParams
/// *nodeParams)` (CUDA 12.9+): a conditional node's handle, type, size and bodies (its
/// `phGraph_out` array), a child graph node's embedded graph (its ownership
/// `cudaGraphChildGraphOwnershipInvalid`, which driver_types.h says a query sets "to prevent
/// accidentally reusing the driver-owned graph object"); other node types answer
/// `cudaErrorNotSupported`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphNodeGetParams(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    call(|_| {
        if nodeParams.is_null() {
            return cudaErrorInvalidValue;
        }
        if let Ok(embedded) = graph::child_graph(node as usize) {
            let mut out = cudaGraphNodeParams {
                type_: cudaGraphNodeTypeGraph,
                ..Default::default()
            };
            out.__bindgen_anon_1.graph = cudaChildGraphNodeParams {
                graph: embedded as cudaGraph_t,
                ownership: cudaGraphChildGraphOwnershipInvalid,
            };
            // SAFETY: non-NULL, the caller's struct.
            unsafe { *nodeParams = out };
            return cudaSuccess;
        }
        let Some((handle, kind, size, bodies)) = graph::conditional_of(node as usize) else {
            return match graph::node_type(node as usize) {
                Ok(t) => {
                    let what = alloc::format!("a node of type {t}");
                    refuse("cudaGraphNodeGetParams", &what)
                }
                Err(code) => code,
            };
        };
        let mut out = cudaGraphNodeParams {
            type_: cudaGraphNodeTypeConditional,
            ..Default::default()
        };
        out.__bindgen_anon_1.conditional = cudaConditionalNodeParams {
            handle,
            type_: kind,
            size,
            phGraph_out: bodies.cast_mut().cast(),
            ctx: core::ptr::null_mut(),
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *nodeParams = out };
        cudaSuccess
    })
}
