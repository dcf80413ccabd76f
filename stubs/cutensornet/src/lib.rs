//! `libstubs_cutensornet.so`: cuQuantum's cuTensorNet host API (`cutensornet.h`,
//! `cutensornet/types.h`, `cutensornet/typesDistributed.h`; cuTensorNet 2.14.0 of CUDA 12.x and
//! 13.x), forwarded to the real `libcutensornet.so.2` found on the first call. Everything here is
//! the generated spec (`src/generated/`) and this file's one hand-written export,
//! `cutensornetGetLastError`.
//!
//! **One soname and one version, two majors.** NVIDIA's `cutensornet-cu12` and `-cu13` 2.14.0
//! ship the same file name, exports, prototypes and `cutensornetGetVersion`; the runtime is
//! linked statically and `cutensornetGetCudartVersion` answers the one each was built with,
//! which the stub reads once the copy is loaded (`VersionProbe::Returned`) and the status API
//! reports.
//!
//! **One CUDA release per process.** Its anchors are the runtime and cuBLAS: each build needs
//! its major's cuBLAS and cuSOLVER (`DT_NEEDED libcublas.so.12`, `libcusolver.so.11` /
//! `libcublas.so.13`, `libcusolver.so.12`), so a copy of another release than the process's is
//! refused before `dlopen`; its `libcutensor.so.2`, every major's soname, is the one its RUNPATH
//! finds (`../../cutensor/lib`, the `cutensor-cu<major>` wheel its own wheel requires).
//!
//! **Typed errors.** cuTensorNet has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUTENSORNET_STATUS_NOT_INITIALIZED` (1), when no cuTensorNet of the
//!   process's release was found: cuTENSOR's and cuBLAS's choice; `cuda_stubs_cutensornet_status`
//!   and `cutensornetGetLastError` say what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUTENSORNET_STATUS_NOT_SUPPORTED` (15), when the loaded cuTensorNet
//!   lacks the function. No wheel lacks one today.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

use core::ffi::c_char;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUTENSORNET_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUTENSORNET_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cutensornet_status`, from the
// spec.
stub_loader::stub_library! {
    name: cutensornet,
    spec: stub_spec::libraries::CUTENSORNET,
    status_type: types::cutensornetStatus_t,
    functions: api::FUNCTIONS,
}

/// `const char *cutensornetGetLastError(void)` (`cutensornet.h`, 2.12 and later): the text of
/// the last error cuTensorNet recorded on the calling thread, `""` when none. The real
/// function's text where the loaded library has it (called through its slot, traced like any
/// call); else the stub's: the search's summary with no library (a program printing its last
/// error learns why there is none), `""` with one. Never NULL, as NVIDIA's never is.
///
/// # Safety
/// None beyond a C call's: no arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cutensornetGetLastError() -> *const c_char {
    LIBRARY.last_error_text(c"cutensornetGetLastError", || {
        // SAFETY: the loaded library's function, no arguments.
        unsafe { api::cutensornetGetLastError::Forward::call() }
    })
}
