//! The driver's graph nodes built by hand beyond `graph.rs`'s (cuda.h, CUDA 13 ABI): kernel
//! nodes (`cuGraphAddKernelNode`, their parameters got and set, in a graph and in an executable
//! graph; the `_v2` parameters and the CUDA 11 ones, which are their first fields), event record
//! and wait nodes, and `cuGraphExecUpdate`. A kernel node is checked as `cuLaunchKernel` checks
//! a launch (a live function, the configuration within the device's limits) and keeps copies of
//! its arguments, their sizes read off the kernel's code (`queue/launches.rs`).

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::code::kernels::Owner;
use crate::code::launch::{Launch, fits};
use crate::device::model::Model;
use crate::driver::{in_context, status};
use crate::queue::graph;
use crate::queue::ops::Op;
use crate::types::cuda::*;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use stub_loader::sync::Mutex;

/// What `cuGraphKernelNodeGetParams` gives of a kernel node: its function, and the argument
/// copies and pointers its `kernelParams` points at (the node's, as the driver's own storage:
/// valid until the node's parameters change).
#[derive(Debug, Default)]
struct Kept {
    func: usize,
    args: Vec<Vec<u8>>,
    pointers: Vec<usize>,
}

/// Kernel nodes' functions and their last got parameters, by node.
static KEPT: Mutex<BTreeMap<usize, Kept>> = Mutex::new(BTreeMap::new());

/// The CUDA 11 parameters as the `_v2` ones (no library kernel, the current context).
fn from_v1(p: &CUDA_KERNEL_NODE_PARAMS_v1) -> CUDA_KERNEL_NODE_PARAMS {
    CUDA_KERNEL_NODE_PARAMS {
        func: p.func,
        gridDimX: p.gridDimX,
        gridDimY: p.gridDimY,
        gridDimZ: p.gridDimZ,
        blockDimX: p.blockDimX,
        blockDimY: p.blockDimY,
        blockDimZ: p.blockDimZ,
        sharedMemBytes: p.sharedMemBytes,
        kernelParams: p.kernelParams,
        extra: p.extra,
        ..CUDA_KERNEL_NODE_PARAMS::default()
    }
}

/// The operation of a kernel node of `p` on device `d`, checked as `cuLaunchKernel` checks a
/// launch.
///
/// # Safety
/// `p.kernelParams` is NULL or the kernel's argument pointers.
unsafe fn kernel_op(m: &Model, d: usize, p: &CUDA_KERNEL_NODE_PARAMS) -> Result<Op, CUresult> {
    // A library's kernel (`kern`) the mock does not load.
    if p.func.is_null() {
        return Err(if p.kern.is_null() {
            CUDA_ERROR_INVALID_VALUE
        } else {
            CUDA_ERROR_NOT_SUPPORTED
        });
    }
    let f = p.func as usize;
    let (Some((name, sizes)), Some(module)) = (
        crate::code::module::kernel_of(f),
        crate::code::module::module_of(f),
    ) else {
        return Err(CUDA_ERROR_INVALID_HANDLE);
    };
    let device = m.device(d as i64).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
    let grid = [p.gridDimX, p.gridDimY, p.gridDimZ];
    let block = [p.blockDimX, p.blockDimY, p.blockDimZ];
    if !fits(device, grid, block, p.sharedMemBytes) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    if p.kernelParams.is_null() && !p.extra.is_null() {
        return Err(CUDA_ERROR_NOT_SUPPORTED);
    }
    let launch = Launch {
        grid,
        block,
        shared_mem: p.sharedMemBytes,
        device: d as i32,
        cooperative: 0,
        cluster: [0; 3],
    };
    // SAFETY: forwarded contract.
    Ok(unsafe {
        crate::queue::launches::kernel_node(
            m,
            (Owner::Module(module), &name),
            (p.kernelParams, sizes.as_deref()),
            &launch,
        )
    })
}

/// `CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const
/// CUgraphNode *dependencies, size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS
/// *nodeParams)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddKernelNode_v2(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { nodeParams.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, d, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        let deps = (dependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added =
            unsafe { graph::out::add_node(m, phGraphNode.cast(), hGraph as usize, deps, op) };
        if added.is_ok() {
            // SAFETY: written by the successful add.
            let node = unsafe { *phGraphNode } as usize;
            KEPT.lock().insert(
                node,
                Kept {
                    func: p.func as usize,
                    ..Kept::default()
                },
            );
        }
        status(added)
    })
}

/// `cuGraphAddKernelNode` with the CUDA 11 parameters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddKernelNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS_v1,
) -> CUresult {
    // SAFETY: NULL or the caller's parameters.
    let Some(p) = (unsafe { nodeParams.as_ref() }) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    let p = from_v1(p);
    // SAFETY: the same contract.
    unsafe { cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &p) }
}

/// `CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS
/// *nodeParams)`: the node's shape, its function (NULL for a node a capture made) and
/// `kernelParams` pointing at copies of its arguments (NULL when it kept none).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphKernelNodeGetParams_v2(
    hNode: CUgraphNode,
    nodeParams: *mut CUDA_KERNEL_NODE_PARAMS,
) -> CUresult {
    in_context(|_, _| {
        let Ok(Op::Kernel { launch, args, .. }) = graph::node_op(hNode as usize) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if nodeParams.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let mut kept = KEPT.lock();
        let k = kept.entry(hNode as usize).or_default();
        let params = match args {
            Some(args) => {
                k.args = args;
                k.pointers = k.args.iter_mut().map(|a| a.as_mut_ptr() as usize).collect();
                k.pointers.as_mut_ptr().cast()
            }
            None => core::ptr::null_mut(),
        };
        let [gx, gy, gz] = launch.grid;
        let [bx, by, bz] = launch.block;
        let out = CUDA_KERNEL_NODE_PARAMS {
            func: k.func as CUfunction,
            gridDimX: gx,
            gridDimY: gy,
            gridDimZ: gz,
            blockDimX: bx,
            blockDimY: by,
            blockDimZ: bz,
            sharedMemBytes: launch.shared_mem,
            kernelParams: params,
            ..CUDA_KERNEL_NODE_PARAMS::default()
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *nodeParams = out };
        CUDA_SUCCESS
    })
}

/// `cuGraphKernelNodeGetParams` with the CUDA 11 parameters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphKernelNodeGetParams(
    hNode: CUgraphNode,
    nodeParams: *mut CUDA_KERNEL_NODE_PARAMS_v1,
) -> CUresult {
    if nodeParams.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let mut p = CUDA_KERNEL_NODE_PARAMS::default();
    // SAFETY: the same contract, into a struct of ours.
    let code = unsafe { cuGraphKernelNodeGetParams_v2(hNode, &mut p) };
    if code == CUDA_SUCCESS {
        let v1 = CUDA_KERNEL_NODE_PARAMS_v1 {
            func: p.func,
            gridDimX: p.gridDimX,
            gridDimY: p.gridDimY,
            gridDimZ: p.gridDimZ,
            blockDimX: p.blockDimX,
            blockDimY: p.blockDimY,
            blockDimZ: p.blockDimZ,
            sharedMemBytes: p.sharedMemBytes,
            kernelParams: p.kernelParams,
            extra: p.extra,
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *nodeParams = v1 };
    }
    code
}

/// `CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS
/// *nodeParams)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphKernelNodeSetParams_v2(
    hNode: CUgraphNode,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { nodeParams.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, d, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        let set = graph::set_node_op(m, hNode as usize, op);
        if set.is_ok() {
            KEPT.lock().entry(hNode as usize).or_default().func = p.func as usize;
        }
        status(set)
    })
}

/// `cuGraphKernelNodeSetParams` with the CUDA 11 parameters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphKernelNodeSetParams(
    hNode: CUgraphNode,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS_v1,
) -> CUresult {
    // SAFETY: NULL or the caller's parameters.
    let Some(p) = (unsafe { nodeParams.as_ref() }) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    let p = from_v1(p);
    // SAFETY: the same contract.
    unsafe { cuGraphKernelNodeSetParams_v2(hNode, &p) }
}

/// `CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode, const
/// CUDA_KERNEL_NODE_PARAMS *nodeParams)`: what `hGraphExec` runs for `hNode`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecKernelNodeSetParams_v2(
    hGraphExec: CUgraphExec,
    hNode: CUgraphNode,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { nodeParams.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, d, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        status(graph::exec_set_node_op(
            m,
            hGraphExec as usize,
            hNode as usize,
            op,
        ))
    })
}

/// `cuGraphExecKernelNodeSetParams` with the CUDA 11 parameters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecKernelNodeSetParams(
    hGraphExec: CUgraphExec,
    hNode: CUgraphNode,
    nodeParams: *const CUDA_KERNEL_NODE_PARAMS_v1,
) -> CUresult {
    // SAFETY: NULL or the caller's parameters.
    let Some(p) = (unsafe { nodeParams.as_ref() }) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    let p = from_v1(p);
    // SAFETY: the same contract.
    unsafe { cuGraphExecKernelNodeSetParams_v2(hGraphExec, hNode, &p) }
}

/// `CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
/// CUgraphExecUpdateResultInfo *resultInfo)`: `hGraphExec` runs `hGraph`'s operations from now
/// on when its topology is the one `hGraphExec` was made of (`queue::graph::exec_update`);
/// `CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE` (910) otherwise, with the result and the node.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphExecUpdate_v2(
    hGraphExec: CUgraphExec,
    hGraph: CUgraph,
    resultInfo: *mut CUgraphExecUpdateResultInfo,
) -> CUresult {
    in_context(|_, _| {
        if resultInfo.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let (code, result, node) = match graph::exec_update(hGraphExec as usize, hGraph as usize) {
            Ok(None) => (CUDA_SUCCESS, CU_GRAPH_EXEC_UPDATE_SUCCESS, 0),
            Ok(Some(refused)) => (
                CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                refused.result,
                refused.node,
            ),
            Err(code) => return code,
        };
        let info = CUgraphExecUpdateResultInfo {
            result,
            errorNode: node as CUgraphNode,
            errorFromNode: core::ptr::null_mut(),
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *resultInfo = info };
        code
    })
}

/// An event node of `op` (record or wait): `CUDA_ERROR_INVALID_HANDLE` for no event.
///
/// # Safety
/// The caller's handles and output, by the API's contract.
unsafe fn add_event_node(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    deps: (*const CUgraphNode, usize),
    op: Op,
) -> CUresult {
    in_context(|m, _| {
        let (Op::EventRecord { event } | Op::EventWait { event }) = op else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if !crate::device::handles::is_event(event) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        let deps = (deps.0.cast(), deps.1);
        // SAFETY: forwarded contract.
        status(unsafe { graph::out::add_node(m, phGraphNode.cast(), hGraph as usize, deps, op) })
    })
}

/// `CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const
/// CUgraphNode *dependencies, size_t numDependencies, CUevent event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddEventRecordNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    event: CUevent,
) -> CUresult {
    let op = Op::EventRecord {
        event: event as usize,
    };
    // SAFETY: forwarded contract.
    unsafe { add_event_node(phGraphNode, hGraph, (dependencies, numDependencies), op) }
}

/// `CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const
/// CUgraphNode *dependencies, size_t numDependencies, CUevent event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddEventWaitNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    event: CUevent,
) -> CUresult {
    let op = Op::EventWait {
        event: event as usize,
    };
    // SAFETY: forwarded contract.
    unsafe { add_event_node(phGraphNode, hGraph, (dependencies, numDependencies), op) }
}

/// The event of an event node of type `want` (7 record, 6 wait) into `*event_out`.
fn node_event(node: CUgraphNode, event_out: *mut CUevent, want: u32) -> CUresult {
    in_context(|_, _| {
        let event = match graph::node_op(node as usize) {
            Ok(Op::EventRecord { event }) if want == 7 => event,
            Ok(Op::EventWait { event }) if want == 6 => event,
            _ => return CUDA_ERROR_INVALID_VALUE,
        };
        if event_out.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *event_out = event as CUevent };
        CUDA_SUCCESS
    })
}

/// `CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphEventRecordNodeGetEvent(
    hNode: CUgraphNode,
    event_out: *mut CUevent,
) -> CUresult {
    node_event(hNode, event_out, 7)
}

/// `CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphEventWaitNodeGetEvent(
    hNode: CUgraphNode,
    event_out: *mut CUevent,
) -> CUresult {
    node_event(hNode, event_out, 6)
}

/// A new event for an event node of type `want` (7 record, 6 wait).
fn set_node_event(node: CUgraphNode, event: CUevent, want: u32) -> CUresult {
    in_context(|m, _| {
        if !crate::device::handles::is_event(event as usize) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        let event = event as usize;
        let op = if want == 7 {
            Op::EventRecord { event }
        } else {
            Op::EventWait { event }
        };
        status(graph::set_node_op(m, node as usize, op))
    })
}

/// `CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphEventRecordNodeSetEvent(
    hNode: CUgraphNode,
    event: CUevent,
) -> CUresult {
    set_node_event(hNode, event, 7)
}

/// `CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphEventWaitNodeSetEvent(
    hNode: CUgraphNode,
    event: CUevent,
) -> CUresult {
    set_node_event(hNode, event, 6)
}

/// `CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode
/// *dependencies, size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)`: `bytesize`
/// bytes of device memory on the pinned device `poolProps.location.id`, their address into
/// `nodeParams->dptr` (made now and kept for the graph's launches: `Op::MemAlloc`);
/// `CUDA_ERROR_OUT_OF_MEMORY` beyond the device's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddMemAllocNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    nodeParams: *mut CUDA_MEM_ALLOC_NODE_PARAMS,
) -> CUresult {
    in_context(|m, _| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { nodeParams.as_mut() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        // SAFETY: every member of the union is an int's worth of bytes.
        let device = unsafe { p.poolProps.location.__bindgen_anon_1.id };
        if p.bytesize == 0
            || p.poolProps.location.type_ != CU_MEM_LOCATION_TYPE_DEVICE
            || m.device(device.into()).is_none()
        {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let Ok(ptr) = m.allocate(
            p.bytesize,
            crate::device::model::Kind::Device(device as usize),
        ) else {
            return CUDA_ERROR_OUT_OF_MEMORY;
        };
        let op = Op::MemAlloc {
            ptr,
            size: p.bytesize,
        };
        let deps = (dependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added =
            unsafe { graph::out::add_node(m, phGraphNode.cast(), hGraph as usize, deps, op) };
        if added.is_err() {
            m.free(ptr, |_| true).ok();
        } else {
            p.dptr = ptr as CUdeviceptr;
        }
        status(added)
    })
}

/// `CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode
/// *dependencies, size_t numDependencies, CUdeviceptr dptr)`: `dptr` must start a device
/// allocation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphAddMemFreeNode(
    phGraphNode: *mut CUgraphNode,
    hGraph: CUgraph,
    dependencies: *const CUgraphNode,
    numDependencies: usize,
    dptr: CUdeviceptr,
) -> CUresult {
    in_context(|m, _| {
        let ptr = dptr as usize;
        if m.device_range(ptr, 1).map_or(true, |f| f.start != ptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let deps = (dependencies.cast(), numDependencies);
        let op = Op::MemFree { ptr };
        // SAFETY: the caller's handles and output, by the API's contract.
        status(unsafe { graph::out::add_node(m, phGraphNode.cast(), hGraph as usize, deps, op) })
    })
}

/// `CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS
/// *params_out)`: its size and address (the pool's properties: pinned device memory on the
/// current context's device).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphMemAllocNodeGetParams(
    hNode: CUgraphNode,
    params_out: *mut CUDA_MEM_ALLOC_NODE_PARAMS,
) -> CUresult {
    in_context(|_, d| {
        let Ok(Op::MemAlloc { ptr, size }) = graph::node_op(hNode as usize) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if params_out.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let mut out = CUDA_MEM_ALLOC_NODE_PARAMS::default();
        out.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        out.poolProps.location.type_ = CU_MEM_LOCATION_TYPE_DEVICE;
        out.poolProps.location.__bindgen_anon_1.id = d as i32;
        out.bytesize = size;
        out.dptr = ptr as CUdeviceptr;
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *params_out = out };
        CUDA_SUCCESS
    })
}

/// `CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGraphMemFreeNodeGetParams(
    hNode: CUgraphNode,
    dptr_out: *mut CUdeviceptr,
) -> CUresult {
    in_context(|_, _| {
        let Ok(Op::MemFree { ptr }) = graph::node_op(hNode as usize) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if dptr_out.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's pointer.
        unsafe { *dptr_out = ptr as CUdeviceptr };
        CUDA_SUCCESS
    })
}
