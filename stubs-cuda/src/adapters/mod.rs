//! Hand-written driver adapters: entry points whose struct layout differs between the CUDA 13.x
//! headers the stub exports and an older driver major. Each adapter forwards to a 13.x (or
//! newer) driver unchanged; on an older driver it checks or converts the arguments to that
//! major's layout and calls the same ABI name, resolved as the generated stubs would
//! ([`stub_loader::Library::proc_symbol`]: `cuGetProcAddress` at the ABI's version, else
//! `dlsym`), never through the gated slot. What the older driver cannot express is refused
//! with `CUDA_ERROR_NOT_SUPPORTED` (801) before anything is called or written.
//!
//! Rules every adapter keeps: no panic across the C ABI; a missing entry point is a typed
//! refusal, never a call through NULL.

use crate::types::CUresult;
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY};
use core::ffi::{CStr, c_void};
use core::sync::atomic::{AtomicPtr, Ordering};

mod cu_graph_node_params;

/// What an adapter does for the loaded driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// No driver bound: return `CUDA_ERROR_STUB_LIBRARY`.
    NoLibrary,
    /// The loaded driver's major (`cuDriverGetVersion` / 1000: 11, 12, 13 …).
    Major(u32),
}

/// The loaded driver's major, searching for it on the first call.
pub(crate) fn target() -> Target {
    let loaded = LIBRARY.loaded();
    if loaded.is_bound() {
        Target::Major(loaded.major())
    } else {
        Target::NoLibrary
    }
}

/// `CUDA_ERROR_STUB_LIBRARY` (34) without a driver, else `CUDA_ERROR_NOT_SUPPORTED` (801).
pub(crate) fn refusal() -> CUresult {
    if LIBRARY.loaded().is_bound() {
        STATUS_ABSENT
    } else {
        STATUS_NO_LIBRARY
    }
}

/// One driver entry point, looked up by ABI name on first use and cached (a null result is
/// looked up again, which is harmless: the answer does not change).
pub(crate) struct ProcFn {
    name: &'static CStr,
    ptr: AtomicPtr<c_void>,
}

impl ProcFn {
    /// An entry point not yet looked up.
    pub(crate) const fn new(name: &'static CStr) -> Self {
        ProcFn {
            name,
            ptr: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// Its address in the loaded driver, if it has it.
    pub(crate) fn get(&self) -> Option<*mut c_void> {
        let p = self.ptr.load(Ordering::Acquire);
        if !p.is_null() {
            return Some(p);
        }
        let p = LIBRARY.proc_symbol(self.name)?;
        self.ptr.store(p, Ordering::Release);
        Some(p)
    }
}

/// Calls `$f` (a [`ProcFn`]) as `$ty` with `$args`, or returns [`refusal`] when the driver
/// lacks it.
macro_rules! call_proc {
    ($f:expr, $ty:ty, ($($arg:expr),* $(,)?)) => {{
        match $f.get() {
            // SAFETY: `$ty` is the prototype of this ABI name in every driver that has it (the
            // caller checked the arguments fit the loaded driver's layout).
            Some(p) => unsafe { core::mem::transmute::<*mut core::ffi::c_void, $ty>(p)($($arg),*) },
            None => $crate::adapters::refusal(),
        }
    }};
}
pub(crate) use call_proc;
