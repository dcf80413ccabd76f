//! The runtime's graph nodes built by hand beyond `graph.rs`'s (cuda_runtime_api.h, CUDA 13
//! ABI): kernel nodes (`cudaGraphAddKernelNode`, their parameters got and set, in a graph and in
//! an executable graph), event record and wait nodes, and `cudaGraphExecUpdate`. A kernel node
//! is checked as a launch is (`launch.rs`: the kernel registered by nvcc's code, code the device
//! runs, the configuration within the device's limits) and keeps copies of its arguments, their
//! sizes read off the kernel's code, as a capture keeps them (`queue/launches.rs`); a graph's
//! launch runs it as a launch runs.

// NVIDIA's parameter names (cuda_runtime_api.h).
#![allow(non_snake_case)]

use crate::code::fatbins;
use crate::code::image::{NO_BINARY_FOR_GPU, fatbin_runs};
use crate::code::kernels::Owner;
use crate::code::launch::{Launch, fits};
use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::Op;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::ffi::c_void;
use stub_loader::sync::Mutex;

/// `Ok` → `cudaSuccess`, `Err(code)` → the code.
fn status<T>(r: Result<T, u32>) -> cudaError_t {
    match r {
        Ok(_) => cudaSuccess,
        Err(code) => code,
    }
}

/// What `cudaGraphKernelNodeGetParams` gives of a kernel node the runtime made: its host
/// function, and the argument copies and pointers its `kernelParams` points at (the node's, as
/// the runtime's own storage: valid until the node's parameters change).
#[derive(Debug, Default)]
struct Kept {
    func: usize,
    args: Vec<Vec<u8>>,
    pointers: Vec<usize>,
}

/// Kernel nodes' host functions and their last got parameters, by node.
static KEPT: Mutex<BTreeMap<usize, Kept>> = Mutex::new(BTreeMap::new());

/// The operation of a kernel node of `p`, checked as `launch.rs` checks a launch.
///
/// # Safety
/// `p.kernelParams` is NULL or the kernel's argument pointers.
unsafe fn kernel_op(m: &Model, p: &cudaKernelNodeParams) -> Result<Op, cudaError_t> {
    let d = current(m)?;
    let device = m.device(d as i64).ok_or(cudaErrorInvalidDevice)?;
    let (entries, name, handle) =
        // 400, as an H100 answered a node of a host function (tests/gpu/occupancy.sh).
        fatbins::kernel_of(p.func as usize).ok_or(cudaErrorInvalidResourceHandle)?;
    let sm = device.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR") as u32 * 10
        + device.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR") as u32;
    if let Err(refusal) = fatbin_runs(&entries, sm, m.profile.cuda_version) {
        return Err(if refusal == NO_BINARY_FOR_GPU {
            cudaErrorNoKernelImageForDevice
        } else {
            cudaErrorUnsupportedPtxVersion
        });
    }
    let grid = [p.gridDim.x, p.gridDim.y, p.gridDim.z];
    let block = [p.blockDim.x, p.blockDim.y, p.blockDim.z];
    // A node is checked as a launch, but answers cudaErrorInvalidValue, as an H100 answered a
    // block of 2048 threads (tests/gpu/occupancy.sh), not a launch's 9.
    if !fits(device, grid, block, p.sharedMemBytes) {
        return Err(cudaErrorInvalidValue);
    }
    // Arguments packed in `extra` (`CU_LAUNCH_PARAM_BUFFER_POINTER`) the mock does not read.
    if p.kernelParams.is_null() && !p.extra.is_null() {
        return Err(cudaErrorNotSupported);
    }
    let launch = Launch {
        grid,
        block,
        shared_mem: p.sharedMemBytes,
        device: d as i32,
        cooperative: 0,
        cluster: [0; 3],
    };
    let sizes = fatbins::cubin_of(handle, sm)
        .and_then(|c| crate::code::kernel_params::from_cubin(c, &name));
    // SAFETY: forwarded contract.
    Ok(unsafe {
        crate::queue::launches::kernel_node(
            m,
            (Owner::Fatbin(handle), &name),
            (p.kernelParams, sizes.as_deref()),
            &launch,
        )
    })
}

/// `cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaKernelNodeParams
/// *pNodeParams)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddKernelNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { pNodeParams.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        let deps = (pDependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added = unsafe { graph::out::add_node(m, pGraphNode.cast(), graph as usize, deps, op) };
        if added.is_ok() {
            // SAFETY: written by the successful add.
            let node = unsafe { *pGraphNode } as usize;
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

/// `cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams
/// *pNodeParams)`: the node's shape, its host function (NULL for a node a capture made) and
/// `kernelParams` pointing at copies of its arguments (NULL when it kept none).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphKernelNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaKernelNodeParams,
) -> cudaError_t {
    call(|_| {
        let Ok(Op::Kernel { launch, args, .. }) = graph::node_op(node as usize) else {
            return cudaErrorInvalidValue;
        };
        if pNodeParams.is_null() {
            return cudaErrorInvalidValue;
        }
        let mut kept = KEPT.lock();
        let k = kept.entry(node as usize).or_default();
        let params = match args {
            Some(args) => {
                k.args = args;
                k.pointers = k.args.iter_mut().map(|a| a.as_mut_ptr() as usize).collect();
                k.pointers.as_mut_ptr().cast()
            }
            None => core::ptr::null_mut(),
        };
        let dim = |v: [u32; 3]| dim3 {
            x: v[0],
            y: v[1],
            z: v[2],
        };
        let out = cudaKernelNodeParams {
            func: k.func as *mut c_void,
            gridDim: dim(launch.grid),
            blockDim: dim(launch.block),
            sharedMemBytes: launch.shared_mem,
            kernelParams: params,
            extra: core::ptr::null_mut(),
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *pNodeParams = out };
        cudaSuccess
    })
}

/// `cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct
/// cudaKernelNodeParams *pNodeParams)`: the node's launch made again of `pNodeParams`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphKernelNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { pNodeParams.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        let set = graph::set_node_op(m, node as usize, op);
        if set.is_ok() {
            KEPT.lock().entry(node as usize).or_default().func = p.func as usize;
        }
        status(set)
    })
}

/// `cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t
/// node, const struct cudaKernelNodeParams *pNodeParams)`: what `hGraphExec` runs for `node`,
/// its graph unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecKernelNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { pNodeParams.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: the parameters' contract.
        let op = match unsafe { kernel_op(m, p) } {
            Ok(op) => op,
            Err(code) => return code,
        };
        status(graph::exec_set_node_op(
            m,
            hGraphExec as usize,
            node as usize,
            op,
        ))
    })
}

/// `cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
/// cudaGraphExecUpdateResultInfo *resultInfo)`: `hGraphExec` runs `hGraph`'s operations from
/// now on, when its topology is the one `hGraphExec` was made of (`queue::graph::exec_update`);
/// `cudaErrorGraphExecUpdateFailure` (910) otherwise, with the result and the node that differs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphExecUpdate(
    hGraphExec: cudaGraphExec_t,
    hGraph: cudaGraph_t,
    resultInfo: *mut cudaGraphExecUpdateResultInfo,
) -> cudaError_t {
    call(|_| {
        if resultInfo.is_null() {
            return cudaErrorInvalidValue;
        }
        let (code, result, node) = match graph::exec_update(hGraphExec as usize, hGraph as usize) {
            Ok(None) => (cudaSuccess, cudaGraphExecUpdateSuccess, 0),
            Ok(Some(refused)) => (
                cudaErrorGraphExecUpdateFailure,
                refused.result,
                refused.node,
            ),
            Err(code) => return code,
        };
        let info = cudaGraphExecUpdateResultInfo {
            result,
            errorNode: node as cudaGraphNode_t,
            errorFromNode: core::ptr::null_mut(),
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *resultInfo = info };
        code
    })
}

/// An event node of `op` (record or wait) for `event`: `cudaErrorInvalidResourceHandle` for no
/// event.
///
/// # Safety
/// The caller's handles and output, by the API's contract.
unsafe fn add_event_node(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: (*const cudaGraphNode_t, usize),
    op: Op,
) -> cudaError_t {
    call(|m| {
        let (Op::EventRecord { event } | Op::EventWait { event }) = op else {
            return cudaErrorInvalidValue;
        };
        if !crate::device::handles::is_event(event) {
            return cudaErrorInvalidResourceHandle;
        }
        let deps = (deps.0.cast(), deps.1);
        // SAFETY: forwarded contract.
        status(unsafe { graph::out::add_node(m, pGraphNode.cast(), graph as usize, deps, op) })
    })
}

/// `cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
/// const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEventRecordNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    let op = Op::EventRecord {
        event: event as usize,
    };
    // SAFETY: forwarded contract.
    unsafe { add_event_node(pGraphNode, graph, (pDependencies, numDependencies), op) }
}

/// `cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEventWaitNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    let op = Op::EventWait {
        event: event as usize,
    };
    // SAFETY: forwarded contract.
    unsafe { add_event_node(pGraphNode, graph, (pDependencies, numDependencies), op) }
}

/// The event of an event node of type `want` (7 record, 6 wait) into `*event_out`.
fn node_event(node: cudaGraphNode_t, event_out: *mut cudaEvent_t, want: u32) -> cudaError_t {
    call(|_| {
        let event = match graph::node_op(node as usize) {
            Ok(Op::EventRecord { event }) if want == 7 => event,
            Ok(Op::EventWait { event }) if want == 6 => event,
            _ => return cudaErrorInvalidValue,
        };
        if event_out.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *event_out = event as cudaEvent_t };
        cudaSuccess
    })
}

/// `cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t
/// *event_out)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphEventRecordNodeGetEvent(
    node: cudaGraphNode_t,
    event_out: *mut cudaEvent_t,
) -> cudaError_t {
    node_event(node, event_out, 7)
}

/// `cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphEventWaitNodeGetEvent(
    node: cudaGraphNode_t,
    event_out: *mut cudaEvent_t,
) -> cudaError_t {
    node_event(node, event_out, 6)
}

/// A new event for an event node of type `want` (7 record, 6 wait).
fn set_node_event(node: cudaGraphNode_t, event: cudaEvent_t, want: u32) -> cudaError_t {
    call(|m| {
        if !crate::device::handles::is_event(event as usize) {
            return cudaErrorInvalidResourceHandle;
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

/// `cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphEventRecordNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    set_node_event(node, event, 7)
}

/// `cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphEventWaitNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    set_node_event(node, event, 6)
}

/// `cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, size_t numDependencies, struct cudaMemAllocNodeParams
/// *nodeParams)`: `bytesize` bytes of device memory on the pinned device
/// `poolProps.location.id`, their address into `nodeParams->dptr` (made now and kept for the
/// graph's launches: `Op::MemAlloc`); `cudaErrorMemoryAllocation` beyond the device's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemAllocNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    nodeParams: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's parameters.
        let Some(p) = (unsafe { nodeParams.as_mut() }) else {
            return cudaErrorInvalidValue;
        };
        // SAFETY: every member of the union is an int's worth of bytes.
        let device = unsafe { p.poolProps.location.__bindgen_anon_1.id };
        if p.bytesize == 0
            || p.poolProps.location.type_ != cudaMemLocationTypeDevice
            || m.device(device.into()).is_none()
        {
            return cudaErrorInvalidValue;
        }
        let Ok(ptr) = m.allocate(
            p.bytesize,
            crate::device::model::Kind::Device(device as usize),
        ) else {
            return cudaErrorMemoryAllocation;
        };
        let op = Op::MemAlloc {
            ptr,
            size: p.bytesize,
        };
        let deps = (pDependencies.cast(), numDependencies);
        // SAFETY: the caller's handles and output, by the API's contract.
        let added = unsafe { graph::out::add_node(m, pGraphNode.cast(), graph as usize, deps, op) };
        if added.is_err() {
            m.free(ptr, |_| true).ok();
        } else {
            p.dptr = ptr as *mut c_void;
        }
        status(added)
    })
}

/// `cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const
/// cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr)`: `dptr` must start a
/// device allocation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemFreeNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    dptr: *mut c_void,
) -> cudaError_t {
    call(|m| {
        let ptr = dptr as usize;
        if m.device_range(ptr, 1).map_or(true, |f| f.start != ptr) {
            return cudaErrorInvalidValue;
        }
        let deps = (pDependencies.cast(), numDependencies);
        let op = Op::MemFree { ptr };
        // SAFETY: the caller's handles and output, by the API's contract.
        status(unsafe { graph::out::add_node(m, pGraphNode.cast(), graph as usize, deps, op) })
    })
}

/// `cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct
/// cudaMemAllocNodeParams *params_out)`: its size and address (the pool's properties: pinned
/// device memory on the current device).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphMemAllocNodeGetParams(
    node: cudaGraphNode_t,
    params_out: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    call(|m| {
        let Ok(Op::MemAlloc { ptr, size }) = graph::node_op(node as usize) else {
            return cudaErrorInvalidValue;
        };
        if params_out.is_null() {
            return cudaErrorInvalidValue;
        }
        let d = current(m).unwrap_or(0);
        let mut out = cudaMemAllocNodeParams::default();
        out.poolProps.allocType = cudaMemAllocationTypePinned;
        out.poolProps.location.type_ = cudaMemLocationTypeDevice;
        out.poolProps.location.__bindgen_anon_1.id = d as i32;
        out.bytesize = size;
        out.dptr = ptr as *mut c_void;
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *params_out = out };
        cudaSuccess
    })
}

/// `cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)`: the
/// address it frees into `*(void **)dptr_out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphMemFreeNodeGetParams(
    node: cudaGraphNode_t,
    dptr_out: *mut c_void,
) -> cudaError_t {
    call(|_| {
        let Ok(Op::MemFree { ptr }) = graph::node_op(node as usize) else {
            return cudaErrorInvalidValue;
        };
        if dptr_out.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's pointer-sized storage, by the API's contract.
        unsafe { *dptr_out.cast::<usize>() = ptr };
        cudaSuccess
    })
}
