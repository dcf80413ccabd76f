//! The driver's memcpy nodes given as `CUDA_MEMCPY3D` (`cuda.h`, CUDA 13 ABI), the runtime's
//! twins (`runtime/graph_copies.rs`): `cuGraphAddMemcpyNode`, the node's parameters got and
//! set, in a graph and in an executable graph (and `cuGraphClone`, with `cuGraphNodeFindInClone`), checked as `cuMemcpy3D` checks them
//! (`copies::copy_3d`). The parameters a node was given are kept to be given back; a memcpy
//! node made another way answers its copy as unified-addressed pointers
//! (`CU_MEMORYTYPE_UNIFIED`) at position 0.

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::driver::copies::copy_3d;
use crate::driver::{in_context, status};
use crate::queue::graph;
use crate::queue::ops::Op;
use crate::types::cuda::*;
use alloc::collections::BTreeMap;
use core::mem::size_of;
use stub_loader::sync::Mutex;

/// A `CUDA_MEMCPY3D`'s bytes (its pointers are the caller's, given back as they were).
type Bytes = [u8; size_of::<CUDA_MEMCPY3D>()];

/// The parameters each memcpy node was last given, by node.
static GIVEN: Mutex<BTreeMap<usize, Bytes>> = Mutex::new(BTreeMap::new());

/// `p`'s bytes.
fn bytes_of(p: &CUDA_MEMCPY3D) -> Bytes {
    // SAFETY: a plain C struct read as its bytes (padding read as it is: only copied back).
    unsafe { core::mem::transmute_copy(p) }
}

/// `CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode
/// *dependencies, size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)`:
/// a node of the copy (the current context's device's; `ctx` names the one device's
/// context), errors as `cuMemcpy3D`'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddMemcpyNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    copyParams: *const CUDA_MEMCPY3D,
    _ctx: CUcontext,
) -> CUresult {
    in_context(|m, _| {
        let op = match copy_3d(m, copyParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        let deps = (dependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added =
            unsafe { graph::out::add_node(m, phGraphNode.cast(), hGraph as usize, deps, op) };
        if added.is_ok() {
            // SAFETY: non-NULL (checked by `copy_3d`); `phGraphNode` written by the add.
            let (p, node) = unsafe { (&*copyParams, *phGraphNode as usize) };
            GIVEN.lock().insert(node, bytes_of(p));
        }
        status(added)
    })
}

/// `CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)`: as
/// given (module docs); `CUDA_ERROR_INVALID_VALUE` for a node of another type or a NULL
/// output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphMemcpyNodeGetParams(
    hNode: CUgraphNode,
    nodeParams: *mut CUDA_MEMCPY3D,
) -> CUresult {
    in_context(|_, _| {
        let Ok(Op::Copy { dst, src, extent }) = graph::node_op(hNode as usize) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if nodeParams.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let p = match GIVEN.lock().get(&(hNode as usize)) {
            // SAFETY: the bytes of a `CUDA_MEMCPY3D` (`bytes_of`).
            Some(b) => unsafe { core::mem::transmute_copy::<Bytes, CUDA_MEMCPY3D>(b) },
            None => {
                // SAFETY: all-zero is a valid `CUDA_MEMCPY3D` (NULL pointers and arrays).
                let mut p: CUDA_MEMCPY3D = unsafe { core::mem::zeroed() };
                let rows = |s: &crate::queue::ops::Side| {
                    s.slice.checked_div(s.pitch).unwrap_or(extent.height)
                };
                p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
                p.srcDevice = src.ptr as CUdeviceptr;
                p.srcPitch = src.pitch.max(extent.width);
                p.srcHeight = rows(&src);
                p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
                p.dstDevice = dst.ptr as CUdeviceptr;
                p.dstPitch = dst.pitch.max(extent.width);
                p.dstHeight = rows(&dst);
                p.WidthInBytes = extent.width;
                p.Height = extent.height;
                p.Depth = extent.depth;
                p
            }
        };
        // SAFETY: non-NULL, the caller's parameters.
        unsafe { *nodeParams = p };
        CUDA_SUCCESS
    })
}

/// `CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)`:
/// the node's copy replaced, checked as when added.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphMemcpyNodeSetParams(
    hNode: CUgraphNode,
    nodeParams: *const CUDA_MEMCPY3D,
) -> CUresult {
    in_context(|m, _| {
        let op = match copy_3d(m, nodeParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        let set = graph::set_node_op(m, hNode as usize, op);
        if set.is_ok() {
            // SAFETY: non-NULL (checked by `copy_3d`).
            GIVEN
                .lock()
                .insert(hNode as usize, bytes_of(unsafe { &*nodeParams }));
        }
        status(set)
    })
}

/// `CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const
/// CUDA_MEMCPY3D *copyParams, CUcontext ctx)`: the copy `hGraphExec` runs for its graph's
/// `hNode` replaced.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecMemcpyNodeSetParams(
    hGraphExec: CUgraphExec,
    hNode: CUgraphNode,
    copyParams: *const CUDA_MEMCPY3D,
    _ctx: CUcontext,
) -> CUresult {
    in_context(|m, _| {
        let op = match copy_3d(m, copyParams) {
            Ok(op) => op,
            Err(e) => return e,
        };
        status(graph::exec_set_node_op(
            m,
            hGraphExec as usize,
            hNode as usize,
            op,
        ))
    })
}

/// `CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)`: a copy of the
/// graph's nodes and dependencies (`graph::clone_graph`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphClone(
    phGraphClone: *mut CUgraph,
    originalGraph: CUgraph,
) -> CUresult {
    in_context(|_, _| {
        if phGraphClone.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::clone_graph(originalGraph as usize) {
            Ok(copy) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *phGraphClone = copy as CUgraph };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

/// `CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph
/// hClonedGraph)`: the node of `hClonedGraph`, made by `cuGraphClone`, that copied
/// `hOriginalNode` (`graph::find_in_clone`); `CUDA_ERROR_INVALID_VALUE` otherwise.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphNodeFindInClone(
    phNode: *mut CUgraphNode,
    hOriginalNode: CUgraphNode,
    hClonedGraph: CUgraph,
) -> CUresult {
    in_context(|_, _| {
        if phNode.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match graph::find_in_clone(hOriginalNode as usize, hClonedGraph as usize) {
            Ok(node) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *phNode = node as CUgraphNode };
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}
