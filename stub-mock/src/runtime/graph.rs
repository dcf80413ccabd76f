//! The runtime's graphs and stream capture (`cuda_runtime_api.h`, CUDA 13 ABI) over the one
//! registry both APIs share (`queue/graph.rs`, which says what is modelled and the codes of its
//! rules): capture begun, ended and queried; graphs created, built of empty, host, 1D copy and
//! memset nodes, listed, instantiated and launched; host functions on a stream. Kernel and event
//! nodes built by hand and graph updates: `graph_nodes.rs`.

use crate::device::handles;
use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::{Extent, Op};
use crate::runtime::call;
use crate::types::cudart::*;
use core::ffi::{c_uint, c_ulonglong, c_void};

/// `Ok` → `cudaSuccess`, `Err(code)` → the code.
fn status<T>(r: Result<T, u32>) -> cudaError_t {
    match r {
        Ok(_) => cudaSuccess,
        Err(code) => code,
    }
}

/// `cudaGraphInstantiateFlagAutoFreeOnLaunch | …Upload | …DeviceLaunch | …UseNodePriority`.
const INSTANTIATE_FLAGS: c_ulonglong = 0xf;

/// Adds a node of `op` to `graph` after `count` nodes at `deps`; its handle into `*node`.
fn add_node(
    m: &Model,
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    count: usize,
    op: Op,
) -> cudaError_t {
    // SAFETY: the caller's handles and output, by the API's contract.
    let added =
        unsafe { graph::out::add_node(m, node.cast(), graph as usize, (deps.cast(), count), op) };
    status(added)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamBeginCapture(
    stream: cudaStream_t,
    mode: cudaStreamCaptureMode,
) -> cudaError_t {
    call(|_| status(graph::begin(stream as usize, mode)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamEndCapture(
    stream: cudaStream_t,
    graph_out: *mut cudaGraph_t,
) -> cudaError_t {
    call(|_| {
        // A capture into the caller's graph may give none back (NVIDIA's graphConditionalNodes
        // sample ends its body's capture so).
        if graph_out.is_null() && !graph::captures_to_graph(stream as usize) {
            return cudaErrorInvalidValue;
        }
        let ended = graph::end(stream as usize);
        // SAFETY: the caller's handle when non-NULL: NULL when the capture failed.
        if let Some(out) = unsafe { graph_out.as_mut() } {
            *out = ended.map_or(0, |g| g) as cudaGraph_t;
        }
        status(ended)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamIsCapturing(
    stream: cudaStream_t,
    capture_status: *mut cudaStreamCaptureStatus,
) -> cudaError_t {
    call(|_| {
        if capture_status.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::status(stream as usize) {
            Ok(s) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *capture_status = s };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchHostFunc(
    stream: cudaStream_t,
    f: cudaHostFn_t,
    data: *mut c_void,
) -> cudaError_t {
    call(|m| {
        let Some(f) = f else {
            return cudaErrorInvalidValue;
        };
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        let op = Op::Host {
            f,
            data: data as usize,
        };
        status(graph::issue(m, stream as usize, op))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphCreate(
    graph_out: *mut cudaGraph_t,
    flags: c_uint,
) -> cudaError_t {
    call(|_| {
        if graph_out.is_null() || flags != 0 {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *graph_out = graph::create() as cudaGraph_t };
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphDestroy(graph: cudaGraph_t) -> cudaError_t {
    call(|_| status(graph::destroy(graph as usize)))
}

/// `cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)`: `node` removed from its graph with
/// its edges (`graph::destroy_node`); `cudaErrorInvalidValue` for no node, or for one with an
/// edge in a graph holding memory allocation or free nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphDestroyNode(node: cudaGraphNode_t) -> cudaError_t {
    call(|_| status(graph::destroy_node(node as usize)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEmptyNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    count: usize,
) -> cudaError_t {
    call(|m| add_node(m, node, graph, deps, count, Op::Empty))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddHostNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    count: usize,
    params: *const cudaHostNodeParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(&cudaHostNodeParams {
            fn_: Some(f),
            userData,
        }) = (unsafe { params.as_ref() })
        else {
            return cudaErrorInvalidValue;
        };
        let op = Op::Host {
            f,
            data: userData as usize,
        };
        add_node(m, node, graph, deps, count, op)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode1D(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    count: usize,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        let (dst, src) = (dst as usize, src as usize);
        let (dst, src) = match crate::runtime::copies::sides(m, (dst, bytes), (src, bytes), kind) {
            Ok(s) => s,
            Err(e) => return e,
        };
        let op = Op::Copy {
            dst,
            src,
            extent: Extent::linear(bytes),
        };
        add_node(m, node, graph, deps, count, op)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemsetNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    count: usize,
    params: *const cudaMemsetParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { params.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        let dims = (p.width, p.height);
        let op = match Op::memset_node(p.dst as usize, p.pitch, p.value, p.elementSize, dims) {
            Ok(op) => op,
            Err(code) => return code,
        };
        add_node(m, node, graph, deps, count, op)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphGetNodes(
    graph: cudaGraph_t,
    nodes: *mut cudaGraphNode_t,
    count: *mut usize,
) -> cudaError_t {
    // SAFETY: the caller's outputs, by the API's contract.
    call(|_| status(unsafe { graph::out::nodes(graph as usize, nodes.cast(), count) }))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphNodeGetType(
    node: cudaGraphNode_t,
    kind: *mut cudaGraphNodeType,
) -> cudaError_t {
    call(|_| {
        if kind.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::node_type(node as usize) {
            Ok(t) => {
                // SAFETY: non-NULL, the caller's enum.
                unsafe { *kind = t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphInstantiate(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: c_ulonglong,
) -> cudaError_t {
    call(|_| {
        if exec.is_null() || flags & !INSTANTIATE_FLAGS != 0 {
            return cudaErrorInvalidValue;
        }
        match graph::instantiate(graph as usize) {
            Ok(e) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *exec = e as cudaGraphExec_t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphInstantiateWithFlags(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: c_ulonglong,
) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaGraphInstantiate(exec, graph, flags) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphLaunch(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| match crate::runtime::current(m) {
        Ok(d) => status(graph::launch(m, exec as usize, stream as usize, d)),
        Err(e) => e,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphUpload(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|_| {
        if !handles::is_stream(stream as usize) {
            cudaErrorInvalidResourceHandle
        } else if graph::is_exec(exec as usize) {
            // Nothing to upload: the mock's device memory is the host's.
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecDestroy(exec: cudaGraphExec_t) -> cudaError_t {
    call(|_| status(graph::exec_destroy(exec as usize)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaThreadExchangeStreamCaptureMode(
    mode: *mut cudaStreamCaptureMode,
) -> cudaError_t {
    // SAFETY: NULL or the caller's enum.
    call(|_| status(unsafe { graph::out::exchange(mode) }))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    status_out: *mut cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    deps_out: *mut *const cudaGraphNode_t,
    edges_out: *mut *const cudaGraphEdgeData,
    count_out: *mut usize,
) -> cudaError_t {
    call(|_| {
        let ids = (id_out, graph_out.cast());
        let deps = (deps_out.cast(), edges_out.cast(), count_out);
        // SAFETY: NULL or the caller's storage, each of its type.
        status(unsafe { graph::out::capture_info(stream as usize, status_out, ids, deps) })
    })
}

// The edge data `graph::Info` gives is of this size.
const _: () = assert!(core::mem::size_of::<cudaGraphEdgeData>() == 8);
