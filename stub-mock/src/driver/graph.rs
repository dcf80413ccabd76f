//! The driver's graphs and stream capture (`cuda.h`, CUDA 13 ABI) over the one registry both
//! APIs share (`queue/graph.rs`, which says what is modelled and the codes of its rules): capture
//! begun, ended and queried; graphs created, built of empty, host and memset nodes, listed,
//! instantiated and launched; host functions on a stream. Kernel and event nodes built by hand
//! and graph updates: `graph_nodes.rs`; copy nodes come from a capture only
//! (`cuGraphAddMemcpyNode` answers "not supported").

use crate::device::model::Model;
use crate::driver::{in_context, on_stream, status};
use crate::queue::graph;
use crate::queue::ops::Op;
use crate::types::cuda::*;
use core::ffi::{c_uint, c_ulonglong, c_void};

/// `CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | …UPLOAD | …DEVICE_LAUNCH |
/// …USE_NODE_PRIORITY`.
const INSTANTIATE_FLAGS: c_ulonglong = 0xf;

/// Adds a node of `op` to `graph` after `count` nodes at `deps` (NULL only for none); its
/// handle into `*node`.
fn add_node(
    m: &Model,
    node: *mut CUgraphNode,
    graph: CUgraph,
    (deps, count): (*const CUgraphNode, usize),
    op: Op,
) -> CUresult {
    // SAFETY: the caller's handles and output, by the API's contract.
    let added =
        unsafe { graph::out::add_node(m, node.cast(), graph as usize, (deps.cast(), count), op) };
    status(added)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamBeginCapture_v2(
    stream: CUstream,
    mode: CUstreamCaptureMode,
) -> CUresult {
    in_context(|_, _| status(graph::begin(stream as usize, mode)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamEndCapture(stream: CUstream, graph_out: *mut CUgraph) -> CUresult {
    in_context(|_, _| {
        // A capture into the caller's graph may give none back.
        if graph_out.is_null() && !graph::captures_to_graph(stream as usize) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let ended = graph::end(stream as usize);
        // SAFETY: the caller's handle when non-NULL: NULL when the capture failed.
        if let Some(out) = unsafe { graph_out.as_mut() } {
            *out = ended.map_or(0, |g| g) as CUgraph;
        }
        status(ended)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamIsCapturing(
    stream: CUstream,
    capture_status: *mut CUstreamCaptureStatus,
) -> CUresult {
    in_context(|_, _| {
        if capture_status.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::status(stream as usize) {
            Ok(s) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *capture_status = s };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLaunchHostFunc(
    stream: CUstream,
    f: CUhostFn,
    data: *mut c_void,
) -> CUresult {
    on_stream(stream, |m| {
        let Some(f) = f else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let op = Op::Host {
            f,
            data: data as usize,
        };
        status(graph::issue(m, stream as usize, op))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphCreate(graph_out: *mut CUgraph, flags: c_uint) -> CUresult {
    in_context(|_, _| {
        if graph_out.is_null() || flags != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *graph_out = graph::create() as CUgraph };
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphDestroy(graph: CUgraph) -> CUresult {
    in_context(|_, _| status(graph::destroy(graph as usize)))
}

/// `CUresult cuGraphDestroyNode(CUgraphNode hNode)`: the node removed from its graph with its
/// edges (`graph::destroy_node`); `CUDA_ERROR_INVALID_VALUE` for no node, or for one with an
/// edge in a graph holding memory allocation or free nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphDestroyNode(node: CUgraphNode) -> CUresult {
    in_context(|_, _| status(graph::destroy_node(node as usize)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddEmptyNode(
    node: *mut CUgraphNode,
    graph: CUgraph,
    deps: *const CUgraphNode,
    count: usize,
) -> CUresult {
    in_context(|m, _| add_node(m, node, graph, (deps, count), Op::Empty))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddHostNode(
    node: *mut CUgraphNode,
    graph: CUgraph,
    deps: *const CUgraphNode,
    count: usize,
    params: *const CUDA_HOST_NODE_PARAMS,
) -> CUresult {
    in_context(|m, _| {
        // SAFETY: NULL or the caller's parameters.
        let Some(&CUDA_HOST_NODE_PARAMS_st {
            fn_: Some(f),
            userData,
        }) = (unsafe { params.as_ref() })
        else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let op = Op::Host {
            f,
            data: userData as usize,
        };
        add_node(m, node, graph, (deps, count), op)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddMemsetNode(
    node: *mut CUgraphNode,
    graph: CUgraph,
    deps: *const CUgraphNode,
    count: usize,
    params: *const CUDA_MEMSET_NODE_PARAMS,
    ctx: CUcontext,
) -> CUresult {
    in_context(|m, _| {
        if crate::device::context::device_of(ctx as usize).is_none() {
            return CUDA_ERROR_INVALID_CONTEXT;
        }
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { params.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let dims = (p.width, p.height);
        let op = match Op::memset_node(p.dst as usize, p.pitch, p.value, p.elementSize, dims) {
            Ok(op) => op,
            Err(code) => return code,
        };
        add_node(m, node, graph, (deps, count), op)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphGetNodes(
    graph: CUgraph,
    nodes: *mut CUgraphNode,
    count: *mut usize,
) -> CUresult {
    // SAFETY: the caller's outputs, by the API's contract.
    in_context(|_, _| status(unsafe { graph::out::nodes(graph as usize, nodes.cast(), count) }))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphNodeGetType(
    node: CUgraphNode,
    kind: *mut CUgraphNodeType,
) -> CUresult {
    in_context(|_, _| {
        if kind.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::node_type(node as usize) {
            Ok(t) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *kind = t };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphInstantiateWithFlags(
    exec: *mut CUgraphExec,
    graph: CUgraph,
    flags: c_ulonglong,
) -> CUresult {
    in_context(|_, _| {
        if exec.is_null() || flags & !INSTANTIATE_FLAGS != 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::instantiate(graph as usize) {
            Ok(e) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *exec = e as CUgraphExec };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphLaunch(exec: CUgraphExec, stream: CUstream) -> CUresult {
    in_context(|m, d| status(graph::launch(m, exec as usize, stream as usize, d)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphUpload(exec: CUgraphExec, stream: CUstream) -> CUresult {
    on_stream(stream, |_| {
        if graph::is_exec(exec as usize) {
            // Nothing to upload: the mock's device memory is the host's.
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecDestroy(exec: CUgraphExec) -> CUresult {
    in_context(|_, _| status(graph::exec_destroy(exec as usize)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuThreadExchangeStreamCaptureMode(
    mode: *mut CUstreamCaptureMode,
) -> CUresult {
    // SAFETY: NULL or the caller's enum.
    status(unsafe { graph::out::exchange(mode) })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamGetCaptureInfo_v3(
    stream: CUstream,
    status_out: *mut CUstreamCaptureStatus,
    id_out: *mut cuuint64_t,
    graph_out: *mut CUgraph,
    deps_out: *mut *const CUgraphNode,
    edges_out: *mut *const CUgraphEdgeData,
    count_out: *mut usize,
) -> CUresult {
    in_context(|_, _| {
        let ids = (id_out, graph_out.cast());
        let deps = (deps_out.cast(), edges_out.cast(), count_out);
        // SAFETY: NULL or the caller's storage, each of its type.
        status(unsafe { graph::out::capture_info(stream as usize, status_out, ids, deps) })
    })
}

// The edge data `graph::Info` gives is of this size.
const _: () = assert!(core::mem::size_of::<CUgraphEdgeData>() == 8);
