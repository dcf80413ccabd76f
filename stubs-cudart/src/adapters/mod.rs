//! Hand-written ABI adapters: exports whose prototype or struct layout differs between CUDA
//! majors. Each forwards to a runtime with its own ABI unchanged (through the gated slot) and,
//! on another runtime, calls that major's own entry point (found by name with
//! [`stub_loader::Library::raw_symbol`], never through the gated slot) and translates the
//! arguments and results. What the loaded runtime cannot express is refused with
//! `cudaErrorNotSupported` (801), outputs untouched.
//!
//! The names whose prototype differs between 12.x and 13.x headers are exported once per ABI
//! (ELF symbol versions, see `stub_loader::versioned_export!`): `abi13/` holds each one's CUDA
//! 13 version (`name@@CUDA_STUBS_CUDART_13`), `abi12/` its CUDA 12 version
//! (`name@CUDA_STUBS_CUDART_12`), each re-exported at `adapters::abi13::name` /
//! `adapters::abi12::name`, where the `cuda_stubs` macro binds them. The files here are the
//! exports whose 12.x and 13.x prototypes agree (only 11.x's differ: one definition, exported
//! unversioned) and the conversions both versions share.
//!
//! Rules every adapter keeps: no panic and no output across the C ABI; outputs are written
//! only on success (results are built in a local and copied out last); a missing old entry
//! point is a typed refusal, never a call through NULL.

use crate::types::cudaError_t;
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY};
use core::ffi::{CStr, c_void};
use core::sync::atomic::{AtomicPtr, Ordering};

pub(crate) mod abi12;
pub(crate) mod abi13;
// One definition each: 12.x and 13.x prototypes agree (only 11.x's differ).
mod cuda_func_get_attributes;
mod cuda_get_device_properties;
mod cuda_get_driver_entry_point;
mod cuda_get_texture_object_texture_desc;
mod cuda_graph_exec_update;
mod cuda_graph_instantiate;
mod nvcc_launch_kernel;
// Descriptor conversions both versions' texture / surface adapters use.
mod resource_desc;

/// `cudaSuccess`, short for the adapters' many comparisons.
pub(crate) const SUCCESS: cudaError_t = crate::types::cudaSuccess;

/// What an adapter does for the loaded runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// No runtime bound: return `cudaErrorStubLibrary`.
    NoLibrary,
    /// The loaded major (11, 12, 13 …).
    Major(u32),
}

/// The loaded runtime's major, searching for it on the first call.
pub(crate) fn target() -> Target {
    let loaded = LIBRARY.loaded();
    if loaded.is_bound() {
        Target::Major(loaded.major())
    } else {
        Target::NoLibrary
    }
}

/// The code for "no runtime" or "this runtime cannot do it", as the generated stubs return;
/// recorded as the calling thread's last error, as the generated fallbacks do.
pub(crate) fn refusal() -> cudaError_t {
    LIBRARY.note_refusal();
    if LIBRARY.loaded().is_bound() {
        STATUS_ABSENT
    } else {
        STATUS_NO_LIBRARY
    }
}

/// An entry point of the loaded runtime looked up by name once (ungated: the adapter knows
/// which major's prototype it has). Never closed.
pub(crate) struct RawFn {
    name: &'static CStr,
    ptr: AtomicPtr<c_void>,
}

/// Marks a name looked up and missing.
const MISSING: *mut c_void = core::ptr::dangling_mut::<c_void>();

impl RawFn {
    /// Not yet looked up.
    pub(crate) const fn new(name: &'static CStr) -> Self {
        RawFn {
            name,
            ptr: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// The address in the loaded runtime, `None` when it lacks the symbol (or none is bound).
    pub(crate) fn get(&self) -> Option<*mut c_void> {
        let p = self.ptr.load(Ordering::Acquire);
        if p == MISSING {
            return None;
        }
        if !p.is_null() {
            return Some(p);
        }
        let found = LIBRARY.raw_symbol(self.name);
        self.ptr.store(found.unwrap_or(MISSING), Ordering::Release);
        found
    }
}

/// Calls `$raw` (a [`RawFn`]) with the C prototype `$ty`, or evaluates to the refusal code when
/// the loaded runtime lacks it. `$ty` is the loaded major's generated prototype,
/// `crate::abi_fns::vNN::<name>`, never one typed by hand.
macro_rules! call_raw {
    ($raw:expr, $ty:ty, ($($arg:expr),* $(,)?)) => {
        match $raw.get() {
            // SAFETY: the symbol has this prototype in the loaded major (see the adapter's docs).
            Some(p) => unsafe { ::core::mem::transmute::<*mut ::core::ffi::c_void, $ty>(p)($($arg),*) },
            None => $crate::adapters::refusal(),
        }
    };
}
pub(crate) use call_raw;

/// A zeroed (default) `cudaGraphEdgeData` array of at least `n` entries, read-only and valid
/// for the life of the process: what older runtimes, which only have default edges, would
/// describe. `None` only if `n` is absurd or memory is exhausted.
///
/// One shared buffer that only grows: a larger request installs a larger zeroed block (its
/// capacity in a header before the entries) and leaks the old one, which callers may still be
/// reading (at most twice the largest request).
pub(crate) fn default_edges(n: usize) -> Option<*const crate::types::cudaGraphEdgeData> {
    use crate::types::cudaGraphEdgeData;
    /// Capacity word, padded so that the entries keep a 16-byte alignment.
    const HEADER: usize = 16;
    static EDGES: AtomicPtr<usize> = AtomicPtr::new(core::ptr::null_mut());
    if n > (1 << 24) {
        return None;
    }
    let n = n.max(1);
    let size = core::mem::size_of::<cudaGraphEdgeData>();
    loop {
        let have = EDGES.load(Ordering::Acquire);
        // SAFETY: a published block starts with its capacity, never written again.
        let capacity = if have.is_null() { 0 } else { unsafe { *have } };
        if capacity >= n {
            // SAFETY: the entries follow the header inside the same allocation.
            return Some(unsafe { have.cast::<u8>().add(HEADER) }.cast());
        }
        let want = n.max(64).next_power_of_two();
        // SAFETY: calloc of the header and `want` zeroed entries (the default
        // cudaGraphEdgeData is all zero bytes).
        let fresh: *mut usize = unsafe { libc::calloc(1, HEADER + want * size) }.cast();
        if fresh.is_null() {
            return None;
        }
        // SAFETY: fresh is a new, private, suitably aligned block.
        unsafe { fresh.write(want) };
        // Replaces exactly the block seen too small, so the installed block only grows.
        if EDGES
            .compare_exchange(have, fresh, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // SAFETY: fresh came from calloc above and was never shared.
            unsafe { libc::free(fresh.cast()) };
        }
    }
}
