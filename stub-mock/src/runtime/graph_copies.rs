//! The runtime's memcpy nodes given as `cudaMemcpy3DParms` (`cuda_runtime_api.h`, CUDA 13
//! ABI): `cudaGraphAddMemcpyNode`, the node's parameters got and set, in a graph and in an
//! executable graph; and `cudaGraphClone`, with `cudaGraphNodeFindInClone`. The copy is checked as `cudaMemcpy3D` checks it (`copies::copy_3d_op`);
//! the parameters a node was given are kept to be given back, and a memcpy node made another
//! way (`cudaGraphAddMemcpyNode1D`, a capture) answers its copy as pitched pointers at
//! position 0 with `cudaMemcpyDefault`.

// NVIDIA's parameter names (cuda_runtime_api.h).
#![allow(non_snake_case)]

use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::Op;
use crate::runtime::call;
use crate::runtime::copies::copy_3d_op;
use crate::types::cudart::*;
use alloc::collections::BTreeMap;
use core::mem::size_of;
use stub_loader::sync::Mutex;

/// A `cudaMemcpy3DParms`' bytes (its pointers are the caller's, given back as they were).
type Bytes = [u8; size_of::<cudaMemcpy3DParms>()];

/// The parameters each memcpy node was last given, by node.
static GIVEN: Mutex<BTreeMap<usize, Bytes>> = Mutex::new(BTreeMap::new());

/// `p`'s bytes.
fn bytes_of(p: &cudaMemcpy3DParms) -> Bytes {
    // SAFETY: a plain C struct read as its bytes (padding read as it is: only copied back).
    unsafe { core::mem::transmute_copy(p) }
}

/// The node's copy of `p`: an empty extent is no copy (`cudaErrorInvalidValue`).
fn node_op(m: &Model, p: *const cudaMemcpy3DParms) -> Result<Op, cudaError_t> {
    copy_3d_op(m, p)?.ok_or(cudaErrorInvalidValue)
}

/// `Ok` → `cudaSuccess`, `Err(code)` → the code.
fn status<T>(r: Result<T, u32>) -> cudaError_t {
    r.map_or_else(|code| code, |_| cudaSuccess)
}

/// `cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaMemcpy3DParms
/// *pCopyParams)`: a node of the copy, errors as `cudaMemcpy3D`'s and an empty extent
/// `cudaErrorInvalidValue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pCopyParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    call(|m| {
        let op = match node_op(m, pCopyParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        let deps = (pDependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added = unsafe { graph::out::add_node(m, pGraphNode.cast(), graph as usize, deps, op) };
        if added.is_ok() {
            // SAFETY: non-NULL (checked by `copy_3d_op`); `pGraphNode` written by the add.
            let (p, node) = unsafe { (&*pCopyParams, *pGraphNode as usize) };
            GIVEN.lock().insert(node, bytes_of(p));
        }
        status(added)
    })
}

/// `cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms
/// *pNodeParams)`: as given (module docs); `cudaErrorInvalidValue` for a node of another type
/// or a NULL output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphMemcpyNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaMemcpy3DParms,
) -> cudaError_t {
    call(|_| {
        let Ok(Op::Copy { dst, src, extent }) = graph::node_op(node as usize) else {
            return cudaErrorInvalidValue;
        };
        if pNodeParams.is_null() {
            return cudaErrorInvalidValue;
        }
        let p = match GIVEN.lock().get(&(node as usize)) {
            // SAFETY: the bytes of a `cudaMemcpy3DParms` (`bytes_of`).
            Some(b) => unsafe { core::mem::transmute_copy::<Bytes, cudaMemcpy3DParms>(b) },
            None => {
                // SAFETY: all-zero is a valid `cudaMemcpy3DParms` (NULL arrays and pointers).
                let mut p: cudaMemcpy3DParms = unsafe { core::mem::zeroed() };
                let pitched = |s: &crate::queue::ops::Side| cudaPitchedPtr {
                    ptr: s.ptr as *mut _,
                    pitch: s.pitch.max(extent.width),
                    xsize: extent.width,
                    ysize: s.slice.checked_div(s.pitch).unwrap_or(extent.height),
                };
                p.srcPtr = pitched(&src);
                p.dstPtr = pitched(&dst);
                p.extent = cudaExtent {
                    width: extent.width,
                    height: extent.height,
                    depth: extent.depth,
                };
                p.kind = cudaMemcpyDefault;
                p
            }
        };
        // SAFETY: non-NULL, the caller's parameters.
        unsafe { *pNodeParams = p };
        cudaSuccess
    })
}

/// `cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct
/// cudaMemcpy3DParms *pNodeParams)`: the node's copy replaced, checked as when added;
/// `cudaErrorInvalidValue` for a node of another type.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    call(|m| {
        let op = match node_op(m, pNodeParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        let set = graph::set_node_op(m, node as usize, op);
        if set.is_ok() {
            // SAFETY: non-NULL (checked by `copy_3d_op`).
            GIVEN
                .lock()
                .insert(node as usize, bytes_of(unsafe { &*pNodeParams }));
        }
        status(set)
    })
}

/// `cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t
/// node, const struct cudaMemcpy3DParms *pNodeParams)`: the copy `hGraphExec` runs for its
/// graph's `node` replaced (the graph's node unchanged).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    call(|m| {
        let op = match node_op(m, pNodeParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        status(graph::exec_set_node_op(
            m,
            hGraphExec as usize,
            node as usize,
            op,
        ))
    })
}

/// `cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)`: a copy
/// of the graph's nodes and dependencies (`graph::clone_graph`); the memcpy nodes' given
/// parameters are not kept for the copy, whose memcpy nodes answer theirs as made another
/// way (module docs).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphClone(
    pGraphClone: *mut cudaGraph_t,
    originalGraph: cudaGraph_t,
) -> cudaError_t {
    call(|_| {
        if pGraphClone.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::clone_graph(originalGraph as usize) {
            Ok(copy) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pGraphClone = copy as cudaGraph_t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}

/// `cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
/// cudaGraph_t clonedGraph)`: the node of `clonedGraph`, made by `cudaGraphClone`, that copied
/// `originalNode` (`graph::find_in_clone`); `cudaErrorInvalidValue` otherwise.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphNodeFindInClone(
    pNode: *mut cudaGraphNode_t,
    originalNode: cudaGraphNode_t,
    clonedGraph: cudaGraph_t,
) -> cudaError_t {
    call(|_| {
        if pNode.is_null() {
            return cudaErrorInvalidValue;
        }
        match graph::find_in_clone(originalNode as usize, clonedGraph as usize) {
            Ok(node) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pNode = node as cudaGraphNode_t };
                cudaSuccess
            }
            Err(code) => code,
        }
    })
}
