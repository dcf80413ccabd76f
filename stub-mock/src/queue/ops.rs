//! What a stream runs: copies (1D, 2D and 3D: rows of bytes at a pitch, slices at a slice
//! pitch), memsets of 1-, 2- or 4-byte elements, host functions, kernel launches, and a graph's
//! event record and wait nodes and memory allocation and free nodes. Both APIs
//! build one [`Op`] per call and issue it on its stream (`graph::issue`): the mock runs it then
//! (its streams are always idle), unless the stream is capturing, which adds it to the capture's
//! graph; a graph's launch runs its nodes' operations again, each checked again first, since
//! memory may have been freed since the capture.
//!
//! The codes are those both APIs share by number (`cudaErrorInvalidValue` is
//! `CUDA_ERROR_INVALID_VALUE`, …): asserted below.

use crate::code::kernels::Owner;
use crate::code::launch::{Launch, kept_launch_line, run_kernel};
use crate::device::model::Model;
use crate::types::{cuda, cudart};
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::c_void;

/// A status both APIs spell with one number.
pub type Code = u32;

/// `cudaErrorInvalidValue`, `CUDA_ERROR_INVALID_VALUE`.
pub const INVALID_VALUE: Code = cudart::cudaErrorInvalidValue;
/// `cudaErrorInvalidResourceHandle`, `CUDA_ERROR_INVALID_HANDLE`.
pub const INVALID_HANDLE: Code = cudart::cudaErrorInvalidResourceHandle;
/// `cudaErrorIllegalState`, `CUDA_ERROR_ILLEGAL_STATE`.
pub const ILLEGAL_STATE: Code = cudart::cudaErrorIllegalState;
/// `cudaErrorIllegalAddress`, `CUDA_ERROR_ILLEGAL_ADDRESS`: what a device reading freed memory
/// reports.
pub const ILLEGAL_ADDRESS: Code = cudart::cudaErrorIllegalAddress;
/// `cudaErrorNotSupported`, `CUDA_ERROR_NOT_SUPPORTED`.
pub const NOT_SUPPORTED: Code = cudart::cudaErrorNotSupported;
/// `cudaErrorStreamCaptureUnsupported`, `CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`.
pub const CAPTURE_UNSUPPORTED: Code = cudart::cudaErrorStreamCaptureUnsupported;
/// `cudaErrorStreamCaptureInvalidated`, `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED`.
pub const CAPTURE_INVALIDATED: Code = cudart::cudaErrorStreamCaptureInvalidated;
/// `cudaErrorStreamCaptureMerge`, `CUDA_ERROR_STREAM_CAPTURE_MERGE`.
pub const CAPTURE_MERGE: Code = cudart::cudaErrorStreamCaptureMerge;
/// `cudaErrorStreamCaptureUnmatched`, `CUDA_ERROR_STREAM_CAPTURE_UNMATCHED`.
pub const CAPTURE_UNMATCHED: Code = cudart::cudaErrorStreamCaptureUnmatched;
/// `cudaErrorStreamCaptureUnjoined`, `CUDA_ERROR_STREAM_CAPTURE_UNJOINED`.
pub const CAPTURE_UNJOINED: Code = cudart::cudaErrorStreamCaptureUnjoined;
/// `cudaErrorStreamCaptureWrongThread`, `CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD`.
pub const CAPTURE_WRONG_THREAD: Code = cudart::cudaErrorStreamCaptureWrongThread;

const _: () = {
    assert!(INVALID_VALUE == cuda::CUDA_ERROR_INVALID_VALUE);
    assert!(INVALID_HANDLE == cuda::CUDA_ERROR_INVALID_HANDLE);
    assert!(ILLEGAL_STATE == cuda::CUDA_ERROR_ILLEGAL_STATE);
    assert!(ILLEGAL_ADDRESS == cuda::CUDA_ERROR_ILLEGAL_ADDRESS);
    assert!(NOT_SUPPORTED == cuda::CUDA_ERROR_NOT_SUPPORTED);
    assert!(CAPTURE_UNSUPPORTED == cuda::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert!(CAPTURE_INVALIDATED == cuda::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    assert!(CAPTURE_MERGE == cuda::CUDA_ERROR_STREAM_CAPTURE_MERGE);
    assert!(CAPTURE_UNMATCHED == cuda::CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
    assert!(CAPTURE_UNJOINED == cuda::CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    assert!(CAPTURE_WRONG_THREAD == cuda::CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
};

/// One side of a copy or a memset: its first byte, the bytes from one row to the next and from
/// one slice to the next, and whether it must lie in one device allocation (host memory is the
/// caller's, as for the real libraries).
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// The first byte.
    pub ptr: usize,
    /// Bytes from a row's start to the next's (unused for one row).
    pub pitch: usize,
    /// Bytes from a slice's start to the next's (unused for one slice).
    pub slice: usize,
    /// Whether the bytes must lie in one device allocation.
    pub device: bool,
}

impl Side {
    /// Contiguous memory at `ptr`.
    pub fn linear(ptr: usize, device: bool) -> Side {
        Side {
            ptr,
            pitch: 0,
            slice: 0,
            device,
        }
    }

    /// The bytes from the first to one past the last that `width` bytes per row of `extent`
    /// touch; `None` on overflow.
    fn span(&self, width: usize, extent: &Extent) -> Option<usize> {
        let rows = (extent.height - 1).checked_mul(self.pitch)?;
        let slices = (extent.depth - 1).checked_mul(self.slice)?;
        rows.checked_add(slices)?.checked_add(width)
    }

    /// The address of row `y` of slice `z`.
    fn at(&self, y: usize, z: usize) -> usize {
        self.ptr + z * self.slice + y * self.pitch
    }

    /// Whether `width` bytes per row of `extent` fit: a non-NULL start, rows no wider than the
    /// pitch, a device side inside one allocation.
    fn fits(&self, m: &Model, width: usize, extent: &Extent) -> bool {
        let rows_fit = extent.height == 1 || self.pitch >= width;
        let slices_fit = extent.depth == 1 || self.slice >= self.pitch * extent.height;
        let Some(span) = self.span(width, extent) else {
            return false;
        };
        self.ptr != 0
            && rows_fit
            && slices_fit
            && (!self.device || m.device_range(self.ptr, span).is_ok())
    }
}

/// How much a copy or memset touches: bytes (a memset: elements) per row, rows, slices.
#[derive(Debug, Clone, Copy)]
pub struct Extent {
    /// Bytes per row (a memset's: elements per row).
    pub width: usize,
    /// Rows per slice.
    pub height: usize,
    /// Slices.
    pub depth: usize,
}

impl Extent {
    /// One row of `width`.
    pub fn linear(width: usize) -> Extent {
        Extent {
            width,
            height: 1,
            depth: 1,
        }
    }

    fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0 || self.depth == 0
    }
}

/// A host function a stream or graph calls (`cudaHostFn_t`, `CUhostFn`).
pub type HostFn = unsafe extern "C" fn(*mut c_void);

/// One operation of a stream, or one node of a graph.
#[derive(Debug, Clone)]
pub enum Op {
    /// `extent` copied from `src` to `dst` (overlap allowed, as within one allocation).
    Copy {
        /// Where to.
        dst: Side,
        /// From where.
        src: Side,
        /// Bytes per row, rows, slices.
        extent: Extent,
    },
    /// `extent.width` elements of `element` bytes (1, 2 or 4) per row set to `value`.
    Memset {
        /// Where.
        dst: Side,
        /// The element's value (its low `element` bytes).
        value: u32,
        /// 1, 2 or 4.
        element: usize,
        /// Elements per row, rows, one slice.
        extent: Extent,
    },
    /// `f(data)` on the calling thread.
    Host {
        /// The function.
        f: HostFn,
        /// Its argument.
        data: usize,
    },
    /// A checked launch of a kernel, kept by a capture, with copies of its arguments' bytes
    /// when its code declares their sizes (`code/kernel_params.rs`).
    Kernel {
        /// What holds its code (a module, a fat binary).
        owner: Owner,
        /// The kernel's name.
        name: String,
        /// Its configuration and device.
        launch: Launch,
        /// Each argument's bytes, in order; `None` when the code does not say their sizes.
        args: Option<Vec<Vec<u8>>>,
    },
    /// Nothing: a graph's empty node.
    Empty,
    /// `event` recorded (a graph's event record node).
    EventRecord {
        /// The event's handle.
        event: usize,
    },
    /// A wait for `event` (a graph's event wait node): nothing to wait for, the mock's streams
    /// being always idle.
    EventWait {
        /// The event's handle.
        event: usize,
    },
    /// A graph's memory allocation node: the allocation is made when the node is added and
    /// kept at its address for every launch (the real driver maps it at the same address on
    /// each launch), so running it does nothing.
    MemAlloc {
        /// The allocation's first byte.
        ptr: usize,
        /// Its bytes.
        size: usize,
    },
    /// A graph's memory free node: the allocation stays mapped for the graph's next launch
    /// (module docs of `MemAlloc`), so running it does nothing.
    MemFree {
        /// The allocation's first byte.
        ptr: usize,
    },
    /// A conditional node of a graph (CUDA 12.3+, `cudaGraphNodeTypeConditional`): its handle,
    /// its type ([`COND_IF`], [`COND_WHILE`], [`COND_SWITCH`]) and its body graphs, which the
    /// node owns (`queue/graph.rs` runs them).
    Conditional {
        /// The `cudaGraphConditionalHandle` whose value decides.
        handle: u64,
        /// [`COND_IF`], [`COND_WHILE`] or [`COND_SWITCH`].
        kind: u32,
        /// The body graphs, `phGraph_out`'s.
        bodies: Vec<usize>,
    },
    /// A conditional node of an executable graph: its bodies' operations as they were when the
    /// graph was instantiated, as every other node's.
    CondExec {
        /// The handle whose value decides.
        handle: u64,
        /// [`COND_IF`], [`COND_WHILE`] or [`COND_SWITCH`].
        kind: u32,
        /// Each body's operations, in the order their nodes were added.
        bodies: Vec<Vec<Op>>,
    },
    /// A child graph node (`cudaGraphNodeTypeGraph`): the graph embedded in it, a copy of the
    /// one it was added with, which the node owns (`queue/graph.rs` runs it).
    Child {
        /// The embedded graph (`cudaGraphChildGraphNodeGetGraph`'s).
        graph: usize,
    },
    /// A child graph node of an executable graph: its embedded graph's operations as they were
    /// when the graph was instantiated (or set since: `cudaGraphExecChildGraphNodeSetParams`),
    /// with the dependencies of each as indices among them, the topology a later set must
    /// keep.
    ChildExec {
        /// The embedded graph's operations, in the order its nodes were added.
        ops: Vec<Op>,
        /// Each operation's dependencies: their indices in `ops`, sorted.
        deps: Vec<Vec<usize>>,
    },
}

/// `cudaGraphNodeTypeGraph`, `CU_GRAPH_NODE_TYPE_GRAPH`: a child graph node.
pub const NODE_TYPE_GRAPH: u32 = cudart::cudaGraphNodeTypeGraph;

/// `cudaGraphCondTypeIf`, `CU_GRAPH_COND_TYPE_IF`: body 0 when the value is not zero, body 1
/// (when there are two) when it is.
pub const COND_IF: u32 = cudart::cudaGraphCondTypeIf;
/// `cudaGraphCondTypeWhile`, `CU_GRAPH_COND_TYPE_WHILE`: body 0 again while the value is not zero.
pub const COND_WHILE: u32 = cudart::cudaGraphCondTypeWhile;
/// `cudaGraphCondTypeSwitch`, `CU_GRAPH_COND_TYPE_SWITCH`: body `value` when there is one.
pub const COND_SWITCH: u32 = cudart::cudaGraphCondTypeSwitch;

const _: () = {
    assert!(COND_IF == cuda::CU_GRAPH_COND_TYPE_IF);
    assert!(COND_WHILE == cuda::CU_GRAPH_COND_TYPE_WHILE);
    assert!(COND_SWITCH == cuda::CU_GRAPH_COND_TYPE_SWITCH);
    assert!(cudart::cudaGraphNodeTypeConditional == cuda::CU_GRAPH_NODE_TYPE_CONDITIONAL);
    assert!(NODE_TYPE_GRAPH == cuda::CU_GRAPH_NODE_TYPE_GRAPH);
};

impl Op {
    /// The node type both APIs give it (`cudaGraphNodeType`, `CUgraphNodeType`: kernel 0,
    /// memcpy 1, memset 2, host 3, child graph 4, empty 5).
    pub fn node_type(&self) -> u32 {
        match self {
            Op::Kernel { .. } => 0,
            Op::Copy { .. } => 1,
            Op::Memset { .. } => 2,
            Op::Host { .. } => 3,
            Op::Empty => 5,
            Op::EventWait { .. } => 6,
            Op::EventRecord { .. } => 7,
            Op::MemAlloc { .. } => 10,
            Op::MemFree { .. } => 11,
            Op::Conditional { .. } | Op::CondExec { .. } => cudart::cudaGraphNodeTypeConditional,
            Op::Child { .. } | Op::ChildExec { .. } => NODE_TYPE_GRAPH,
        }
    }

    /// Checks the operation against the model: `INVALID_VALUE` for a NULL start, a row wider
    /// than its pitch, a device side outside one allocation, a memset's element misaligned.
    pub fn check(&self, m: &Model) -> Result<(), Code> {
        let ok = match self {
            Op::Copy { dst, src, extent } => {
                extent.is_empty()
                    || (dst.fits(m, extent.width, extent) && src.fits(m, extent.width, extent))
            }
            Op::Memset {
                dst,
                element,
                extent,
                ..
            } => {
                let aligned =
                    dst.ptr % element == 0 && (extent.height == 1 || dst.pitch % element == 0);
                extent.is_empty()
                    || (aligned
                        && extent
                            .width
                            .checked_mul(*element)
                            .is_some_and(|w| dst.fits(m, w, extent)))
            }
            Op::Host { .. }
            | Op::Kernel { .. }
            | Op::Empty
            | Op::MemAlloc { .. }
            | Op::MemFree { .. }
            | Op::Conditional { .. }
            | Op::CondExec { .. }
            | Op::Child { .. }
            | Op::ChildExec { .. } => true,
            // The event must still be live.
            Op::EventRecord { event } | Op::EventWait { event } => {
                crate::device::handles::is_event(*event)
            }
        };
        if ok { Ok(()) } else { Err(INVALID_VALUE) }
    }

    /// Runs the operation now, checked again first (memory freed since a capture:
    /// `ILLEGAL_ADDRESS`, as a device reading it would report). A kept kernel launch is made
    /// again on its kept arguments (its registered host function runs, or it is recorded); one
    /// whose code did not say its parameters' sizes is recorded, or answers `NOT_SUPPORTED` when
    /// its kernel has a registered host function, which needs the arguments.
    ///
    /// # Safety
    /// Host sides and host functions are the caller's, as for the real libraries.
    pub unsafe fn run(&self, m: &Model) -> Result<(), Code> {
        self.check(m).map_err(|_| ILLEGAL_ADDRESS)?;
        match self {
            Op::Copy { dst, src, extent } if !extent.is_empty() => {
                for z in 0..extent.depth {
                    for y in 0..extent.height {
                        // SAFETY: device sides checked against their allocations; `copy` allows
                        // overlap.
                        unsafe {
                            core::ptr::copy(
                                src.at(y, z) as *const u8,
                                dst.at(y, z) as *mut u8,
                                extent.width,
                            )
                        };
                    }
                }
            }
            Op::Memset {
                dst,
                value,
                element,
                extent,
            } if !extent.is_empty() => {
                let bytes = value.to_le_bytes();
                for y in 0..extent.height {
                    let row = dst.at(y, 0) as *mut u8;
                    for i in 0..extent.width * element {
                        // SAFETY: inside one device allocation (checked above).
                        unsafe { row.add(i).write(bytes[i % element]) };
                    }
                }
            }
            // SAFETY: the registrant's function and argument, by the API's contract.
            Op::Host { f, data } => unsafe { f(*data as *mut c_void) },
            Op::Kernel {
                owner,
                name,
                launch,
                args,
            } => match args {
                // A fresh copy of the arguments for each replay: the host function may write its
                // own, as a kernel may its parameters.
                Some(args) => {
                    let mut copies = args.clone();
                    let mut params: Vec<*mut c_void> =
                        copies.iter_mut().map(|a| a.as_mut_ptr().cast()).collect();
                    // SAFETY: one pointer per argument, each to a copy of its declared size.
                    unsafe { run_kernel(m, *owner, name, params.as_mut_ptr(), launch) }?;
                }
                // The capture kept no arguments: nothing to run it with.
                None => {
                    kept_launch_line(name, launch);
                    return Err(NOT_SUPPORTED);
                }
            },
            Op::EventRecord { event } => {
                crate::device::handles::record(*event);
            }
            // A conditional node runs its bodies as part of its graph's launch
            // (`graph::launch`), which never hands it here: nothing to run it with alone.
            Op::Conditional { .. } | Op::CondExec { .. } => return Err(NOT_SUPPORTED),
            // A child graph node's operations are its graph's launch's too (`graph::launch`).
            Op::Child { .. } | Op::ChildExec { .. } => return Err(NOT_SUPPORTED),
            Op::Copy { .. }
            | Op::Memset { .. }
            | Op::Empty
            | Op::EventWait { .. }
            | Op::MemAlloc { .. }
            | Op::MemFree { .. } => {}
        }
        Ok(())
    }
}

impl Op {
    /// A memset of `width` elements of `element` bytes in each of `height` rows at `pitch`
    /// (checked when issued: [`Op::check`]).
    pub fn memset(
        dst: usize,
        pitch: usize,
        value: u32,
        element: usize,
        (width, height): (usize, usize),
    ) -> Op {
        Op::Memset {
            dst: Side {
                ptr: dst,
                pitch,
                slice: 0,
                device: true,
            },
            value,
            element,
            extent: Extent {
                width,
                height,
                depth: 1,
            },
        }
    }

    /// A memset node's operation (`cudaMemsetParams`, `CUDA_MEMSET_NODE_PARAMS`: the same
    /// fields): [`Op::memset`], `INVALID_VALUE` for an element size other than 1, 2 or 4 bytes
    /// or rows wider than the pitch.
    pub fn memset_node(
        dst: usize,
        pitch: usize,
        value: u32,
        element: u32,
        (width, height): (usize, usize),
    ) -> Result<Op, Code> {
        let element = element as usize;
        if ![1, 2, 4].contains(&element) || (height > 1 && pitch < width * element) {
            return Err(INVALID_VALUE);
        }
        Ok(Op::memset(dst, pitch, value, element, (width, height)))
    }
}
