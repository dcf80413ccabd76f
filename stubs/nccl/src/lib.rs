//! `libstubs_nccl.so`: NCCL (`nccl.h`, and `nccl_device/host.h` from NCCL 2.28; NCCL 2.21.5 of
//! CUDA 11.x, 2.32.3 of 12.x and 13.x), forwarded to the real `libnccl.so.2` found on the
//! first call. Everything here is the generated spec (`src/generated/`: `api.rs`, `types.rs`,
//! `status_texts.rs`) and this file's data, but for `ncclGetLastError` ([`last_error`]).
//!
//! **One soname, one version, two releases.** Every major ships NCCL as `libnccl.so.2`, and
//! NVIDIA's CUDA 12 and CUDA 13 wheels hold the same NCCL (2.32.3: `ncclGetVersion` answers
//! 23203 in both), so neither says which CUDA release a copy belongs to. The file does: NCCL's
//! version string, `NCCL version 2.32.3+cuda13.4` in its `.rodata` (`+cuda11.0` and
//! `+cuda12.9` in the other wheels), read by the loader once the library is loaded
//! (`VersionProbe::BuiltFor`); the status API's `version` is that CUDA version
//! (`1000 * major + 10 * minor`: 13040), the debug log has NCCL's own (`ncclGetVersion 23203:
//! built for CUDA 13.4`).
//!
//! **One CUDA release per process.** Every NVIDIA build of NCCL links the runtime statically
//! (its `DT_NEEDED` is the C and C++ libraries only) and reaches the driver itself; the
//! streams and device memory a program hands it are the program's runtime's. So NCCL is held
//! to the process's release like the math libraries: before its search the stub reads which
//! `libcudart.so.*` the process has (else the release of the math libraries it has, or NCCL's
//! for them; `stub_loader`'s `search/release.rs`), and a copy built for another major is
//! rejected once its version string says so (it stays mapped, never called: nothing in its
//! `DT_NEEDED` could say it before `dlopen`). A copy with no such string is bound with version
//! 0 (release unknown).
//!
//! **Profiling aliases.** NCCL exports every function twice, `ncclX` and `pncclX` (a profiler
//! defines `ncclX` and calls `pncclX`, as MPI's `PMPI_`); the stub exports and forwards both.
//!
//! **Typed errors.** NCCL has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `ncclUnhandledCudaError` (1), when no NCCL of the process's release
//!   was found: what the real library answers when CUDA cannot be set up (no driver:
//!   `ncclCommInitRank`, `ncclCommInitAll`, `ncclMemAlloc`), so a program treats a missing
//!   NCCL as a machine without CUDA; `cuda_stubs_nccl_status` says what was searched and why
//!   each copy was rejected;
//! - [`STATUS_ABSENT`], `ncclInvalidUsage` (5), when the loaded NCCL lacks the function (2.21.5
//!   has no `ncclCommShrink`, no device API): what NCCL answers a program built against a
//!   newer NCCL ("NCCL library is too old").
//!
//! Error texts are never NULL: `ncclGetErrorString` answers the real library's text, else the
//! places searched for the "no library" code and the enumerator's name for another;
//! `ncclGetLastError` the real library's text, else the same summary.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

use core::ffi::{CStr, c_char};

// `LIBRARY`, `STATUS_NO_LIBRARY` (`ncclUnhandledCudaError`), `STATUS_ABSENT`
// (`ncclInvalidUsage`) and the export `cuda_stubs_nccl_status`, from the spec.
stub_loader::stub_library! {
    name: nccl,
    spec: stub_spec::libraries::NCCL,
    status_type: types::ncclResult_t,
    functions: api::FUNCTIONS,
}

/// `const char *ncclGetLastError(ncclComm_t comm)` (`nccl.h`, NCCL 2.13 and later): the text of
/// the last error NCCL recorded (for `comm`, or the calling thread's with NULL), `""` when
/// none. Never NULL: without a library, the places searched and why each copy was rejected.
///
/// # Safety
/// `comm` is NULL or a communicator of the loaded NCCL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ncclGetLastError(comm: types::ncclComm_t) -> *const c_char {
    last_error(c"ncclGetLastError", || {
        // SAFETY: forwarded contract.
        unsafe { api::ncclGetLastError::Forward::call(comm) }
    })
}

/// `pncclGetLastError`, the profiling alias of [`ncclGetLastError`] (`nccl.h`): the same answer.
///
/// # Safety
/// As [`ncclGetLastError`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pncclGetLastError(comm: types::ncclComm_t) -> *const c_char {
    last_error(c"pncclGetLastError", || {
        // SAFETY: forwarded contract.
        unsafe { api::pncclGetLastError::Forward::call(comm) }
    })
}

/// What `ncclGetLastError` answers ([`stub_loader::Library::last_error_text`]): the real
/// function's text, else the search's summary with no library, `""` (NCCL's "no error") with one.
fn last_error(function: &CStr, real: impl FnOnce() -> *const c_char) -> *const c_char {
    LIBRARY.last_error_text(function, real)
}
