//! The machinery every stub's hand-written ABI adapters share (`stubs-cudart/src/adapters/`,
//! `stubs-cuda/src/adapters/`, `stubs/cutensor/src/adapters/`, …): which major is loaded ([`Target`]), the typed refusal
//! ([`Adapted::refusal`]), and the loaded major's own entry points looked up once, ungated
//! ([`RawFn`]), called with a generated prototype ([`call_raw!`](crate::call_raw)).
//!
//! An adapter exports a name whose prototype or struct layout differs between CUDA majors. It
//! forwards to a library with its own ABI through the gated slot; on another major it calls
//! that major's entry point (never through the gated slot, which refuses it) with that major's
//! prototype and translates arguments and results; what the loaded major cannot express is
//! refused with the library's typed error, recorded as the calling thread's last error where
//! the API has one, outputs untouched.
//!
//! A stub implements [`Adapted`] once, on a type of its own, and names
//! `stub_loader::RawFn<ThatType>` in its adapters.

use crate::library::Library;
use core::ffi::{CStr, c_void};
use core::marker::PhantomData;
use core::sync::atomic::{AtomicPtr, Ordering};
use stub_spec::TypedErrors;

/// What an adapter does for the loaded library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// No real library bound: return the "library not found" error (`cudaErrorStubLibrary`,
    /// `CUDA_ERROR_STUB_LIBRARY`).
    NoLibrary,
    /// The loaded major (11, 12, 13 …; the driver's is `cuDriverGetVersion` / 1000).
    Major(u32),
}

/// A stub crate with hand-written adapters: its real library and typed errors. Implemented
/// once per crate, on a type of its own (an empty enum).
pub trait Adapted: 'static {
    /// The stub's real library (its `LIBRARY` static).
    fn library() -> &'static Library;

    /// The codes of the library's status type the adapters refuse with (the spec's
    /// `errors`): every status type is a C enum, `unsigned int` in the bindings.
    const ERRORS: TypedErrors;

    /// The loaded library's major, searching for it on the first call: the one whose
    /// prototypes its entry points have ([`Loaded::abi_major`](crate::Loaded::abi_major): the
    /// mock device's are 13.x's whatever release it reports).
    fn target() -> Target {
        let loaded = Self::library().loaded();
        if loaded.is_bound() {
            Target::Major(loaded.abi_major())
        } else {
            Target::NoLibrary
        }
    }

    /// The code for "no library" or "this library cannot do it", as the generated fallbacks
    /// return; recorded as the calling thread's last error where the API has one (the runtime;
    /// [`Library::note_refusal`]), as the generated fallbacks do. As the adapted libraries'
    /// status types have it (`cudaError_t`, `CUresult`: `c_uint`).
    fn refusal() -> u32 {
        let library = Self::library();
        library.note_refusal();
        let code = if library.loaded().is_bound() {
            Self::ERRORS.absent.value
        } else {
            Self::ERRORS.no_library.value
        };
        code as u32
    }
}

/// Marks a name looked up and missing.
const MISSING: *mut c_void = core::ptr::dangling_mut::<c_void>();

/// An entry point of `L`'s loaded library, looked up by its exact (ABI) name once, ungated
/// (the adapter knows which major's prototype it has; [`Library::ungated_symbol`]). Never
/// closed; a missing name is remembered (the answer cannot change once a library is bound).
pub struct RawFn<L: Adapted> {
    name: &'static CStr,
    ptr: AtomicPtr<c_void>,
    library: PhantomData<fn() -> L>,
}

impl<L: Adapted> RawFn<L> {
    /// Not yet looked up.
    pub const fn new(name: &'static CStr) -> Self {
        RawFn {
            name,
            ptr: AtomicPtr::new(core::ptr::null_mut()),
            library: PhantomData,
        }
    }

    /// The address in the loaded library, `None` when it lacks the symbol (or none is bound).
    pub fn get(&self) -> Option<*mut c_void> {
        let p = self.ptr.load(Ordering::Acquire);
        if p == MISSING {
            return None;
        }
        if !p.is_null() {
            return Some(p);
        }
        self.look_up()
    }

    /// [`RawFn::get`]'s first call: out of line, so that each adapter inlines only the load of
    /// the kept address (the lookup inlined at every call site cost the runtime stub kilobytes).
    #[cold]
    #[inline(never)]
    fn look_up(&self) -> Option<*mut c_void> {
        let library = L::library();
        let found = library.ungated_symbol(self.name);
        // Kept once a library is bound: a call from inside the search (`Library::loaded`) sees
        // none yet, and must not leave the name missing for the calls after it.
        if library.loaded().is_bound() {
            self.ptr.store(found.unwrap_or(MISSING), Ordering::Release);
        }
        found
    }

    /// [`Adapted::refusal`] of `L`: what [`call_raw!`](crate::call_raw) returns when the entry
    /// point is missing.
    #[cold]
    #[inline(never)]
    pub fn refusal(&self) -> u32 {
        L::refusal()
    }
}

/// Calls `$raw` (a [`RawFn`]) with the C prototype `$ty`, or evaluates to the refusal code
/// ([`Adapted::refusal`]) when the loaded library lacks it. `$ty` is the loaded major's
/// generated prototype (`crate::abi_fns::vNN::<name>` in the runtime), never one typed by hand,
/// and returns the library's status type.
#[macro_export]
macro_rules! call_raw {
    ($raw:expr, $ty:ty, ($($arg:expr),* $(,)?)) => {
        match $raw.get() {
            // SAFETY: the symbol has this prototype in the loaded major (see the adapter's docs).
            Some(p) => unsafe { ::core::mem::transmute::<*mut ::core::ffi::c_void, $ty>(p)($($arg),*) },
            None => $raw.refusal(),
        }
    };
}
