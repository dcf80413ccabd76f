//! What can go wrong: a module that does not parse or decode ([`PtxError`]), a launch that stops
//! ([`Fault`]).

use alloc::string::String;

/// Why a module was refused, with the PTX line (1-based) and that line's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxError {
    /// The PTX source line, 1-based; 0 where the error concerns the whole module.
    pub line: u32,
    /// The source line's text, trimmed (the instruction or directive refused).
    pub text: String,
    /// What is wrong.
    pub reason: Reason,
}

/// The kinds of [`PtxError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The text is not PTX this parser reads (the detail says what was expected).
    Syntax(&'static str),
    /// A name (register, variable, label, function) that no declaration in scope defines.
    Undefined(String),
    /// An instruction or directive the executor does not run: refused at decode, never skipped.
    Unsupported(&'static str),
    /// No `.entry` of that name in the module.
    NoKernel,
}

/// Why a launch stopped before its kernel ended; the mock maps each to a CUDA error
/// (`cudaErrorIllegalAddress` 700, `cudaErrorMisalignedAddress` 716, `cudaErrorLaunchFailure`
/// 719, `cudaErrorAssert` 710, `cudaErrorLaunchTimeout` 702, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A load, store or atomic outside every allocation (global), outside the block's shared
    /// memory, the thread's local memory or the parameter buffer. `addr`: the (generic or
    /// state-space) address, `len`: the access's bytes, `line`: the instruction's PTX line.
    IllegalAddress {
        /// The address accessed.
        addr: u64,
        /// The access's size in bytes.
        len: u32,
        /// The instruction's PTX line.
        line: u32,
    },
    /// An access whose address is not a multiple of its size (PTX ISA 6.4: addresses are
    /// naturally aligned).
    MisalignedAddress {
        /// The address accessed.
        addr: u64,
        /// The instruction's PTX line.
        line: u32,
    },
    /// `trap`, or `brkpt`.
    Trap {
        /// The instruction's PTX line.
        line: u32,
    },
    /// `__assertfail` (the device-side `assert`): its message, file, line and function, read
    /// from the kernel's memory (empty where unreadable).
    Assert {
        /// The failed expression's text.
        message: String,
        /// The source file.
        file: String,
        /// The source line.
        source_line: u32,
        /// The function.
        function: String,
        /// The failing thread's block (`%ctaid`).
        block: [u32; 3],
        /// The failing thread (`%tid`): the lowest lane of its warp that failed.
        thread: [u32; 3],
    },
    /// The launch's instruction budget ran out or its deadline callback said stop.
    Timeout,
    /// An instruction this executor does not run, met at run time (an indirect call target
    /// that is no function of the kernel, a vprintf without a device).
    Unsupported {
        /// The instruction's PTX line.
        line: u32,
        /// The instruction's text or a description.
        instruction: String,
    },
    /// `cudaGraphSetConditional` named a handle the device does not know as one of the running
    /// graph launch's (a kernel launched outside a graph, or a handle of another graph): what
    /// the board does then is not documented, so the launch ends rather than guess.
    Conditional {
        /// The handle the kernel passed.
        handle: u64,
        /// The call's PTX line.
        line: u32,
    },
    /// The call stack outgrew its limit (4096 nested calls or 64 MiB of a warp's local
    /// memory: runaway recursion); the mock answers `cudaErrorLaunchFailure`.
    StackOverflow {
        /// The call's PTX line.
        line: u32,
    },
    /// The launch's shape is not one the kernel can run (no threads, block over 1024 threads,
    /// parameter buffer shorter than the kernel's parameters).
    InvalidLaunch(&'static str),
    /// An inconsistency of the decoded form (a defect of this crate, never of the kernel).
    Internal(&'static str),
}
