//! `libstubs_cufft.so`: the cuFFT host API (`cufft.h`, `cufftXt.h`; CUDA 11.8, 12.x and 13.x),
//! forwarded to the real `libcufft.so.12`, `.11` or `.10` found on the first call. Everything
//! here is the generated spec (`src/generated/`: `api.rs`, `types.rs`, `versioned_names.rs`)
//! and this file's data: no code of its own.
//!
//! **One CUDA release per process.** cuFFT's soname says its CUDA major (`.10` is 11.x, `.11`
//! 12.x, `.12` 13.x) and `cufftGetVersion` confirms it (10.9.0, 11.4.1, 12.5.0 in the tested
//! wheels). Every major links the runtime statically, yet a cuFFT of another major than the
//! process's runtime mixes releases: before its search the stub reads the release the process
//! has mapped (`stub_loader`'s `search/release.rs`), and a candidate whose file name or version
//! says another major is refused (by its name before `dlopen`).
//!
//! **Names.** 12.x's `cufftXt.h` binds `cufftXtSetJITCallback` to `__cufftXtSetJITCallback_12_7`
//! through a static inline wrapper; 13.x exports only the plain name. The stub exports both and
//! binds the versioned name to the loaded library's own, else to its plain name
//! ([`versioned_names::REPLACEMENTS`]: codegen pairs them only where their prototypes agree).
//! 11.8's private exports (`cufftEnterCS`, `cufftLeaveCS`, `cufftMakePlanGuru64`,
//! `cufftXtSetDistribution`) and 13.x's `cufft_device.h` functions are forwarded opaquely.
//!
//! **Typed errors.** cuFFT has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUFFT_SETUP_FAILED` (7), "the cuFFT library failed to
//!   initialize", when no cuFFT of the process's release was found;
//!   `cuda_stubs_cufft_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUFFT_NOT_SUPPORTED` (16), when the loaded cuFFT lacks the function,
//!   as the runtime's and the driver's "not supported" (`cufftResetPlanProperty` on 11.8).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::{types, versioned_names};

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUFFT_SETUP_FAILED`), `STATUS_ABSENT`
// (`CUFFT_NOT_SUPPORTED`) and the export `cuda_stubs_cufft_status`, from the spec; the
// per-version name's plain name as its replacement.
stub_loader::stub_library! {
    name: cufft,
    spec: stub_spec::libraries::CUFFT,
    status_type: types::cufftResult,
    functions: api::FUNCTIONS,
    replacements: versioned_names::REPLACEMENTS,
}
