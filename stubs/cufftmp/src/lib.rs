//! `libstubs_cufftmp.so`: the cuFFTMp host API (`cufftMp.h` with its own `cufft.h` and
//! `cufftXt.h`; CUDA 12.x and 13.x), forwarded to the real `libcufftMp.so.12` or `.11` found on
//! the first call. A program links it instead of libcufft: it exports what libcufftMp exports
//! (cuFFT's host API and the `cufftMp*` calls). Everything here is the generated spec
//! (`src/generated/`: `api.rs`, `types.rs`, `versioned_names.rs`) and this file's data: no code
//! of its own.
//!
//! **One CUDA release per process.** cuFFTMp's soname takes cuFFT's number of its major (`.11`
//! is 12.x, `.12` 13.x) and `cufftGetVersion` confirms it (11.4.0, 12.1.3 in the tested wheels).
//! It links the runtime statically, yet a copy of another major than the process's runtime or
//! libcufft mixes releases: before its search the stub reads the release the process has
//! mapped (`stub_loader`'s `search/release.rs`), and a candidate whose file name or version
//! says another major is refused (by its name before `dlopen`).
//!
//! **NVSHMEM.** The real library needs `libnvshmem_host.so.3` (`DT_NEEDED`), which its own
//! `RPATH $ORIGIN/../../../nvshmem/lib` finds in NVSHMEM's wheel folder, or which the process
//! already mapped (a program that calls `nvshmem_malloc` links it): the stub adds nothing to
//! that search. A copy without it fails to `dlopen`, and the stub's summary says so. NVSHMEM's
//! soname is one for both majors and nothing in it says its CUDA release, so its major is not
//! checked (`docs/src/wheel-libraries.md`).
//!
//! **Names.** `cufftMp.h` binds `cufftMpMakeReshape` to `__cufftMpMakeReshape_11_4`, and 12.x's
//! `cufftXt.h` `cufftXtSetJITCallback` to `__cufftXtSetJITCallback_12_7`, through static inline
//! wrappers. The stub exports both names and binds each versioned name to the loaded library's
//! own, else to its plain name ([`versioned_names::REPLACEMENTS`]).
//!
//! **Inner calls.** libcufftMp is not linked `-Bsymbolic` (libcufft is): it calls 20 of its own
//! exports (`cufftCreate`, `cufftMakePlanMany`, `cufftXtExec` …) through its PLT, which binds
//! them to the first definition in the process's global scope, here the stub's; each forwards
//! to the library's own, so the inner call lands where it would without the stub.
//!
//! **Typed errors.** cuFFT's, as the cuFFT stub's (cuFFTMp has no code for "library missing"
//! or "function missing" either):
//! - [`STATUS_NO_LIBRARY`], `CUFFT_SETUP_FAILED` (7), "the cuFFT library failed to
//!   initialize", when no cuFFTMp of the process's release was found;
//!   `cuda_stubs_cufftmp_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUFFT_NOT_SUPPORTED` (16), when the loaded cuFFTMp lacks the function
//!   (`__cufftXtSetJITCallback_12_7`'s plain name aside, 12.1.3 lacks nothing 11.4.0 has).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::{types, versioned_names};

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUFFT_SETUP_FAILED`), `STATUS_ABSENT`
// (`CUFFT_NOT_SUPPORTED`) and the export `cuda_stubs_cufftmp_status`, from the spec; the
// per-version names' plain names as their replacements.
stub_loader::stub_library! {
    name: cufftmp,
    spec: stub_spec::libraries::CUFFTMP,
    status_type: types::cufftResult,
    functions: api::FUNCTIONS,
    replacements: versioned_names::REPLACEMENTS,
}
