//! `libstubs_cudss.so`: cuDSS (`cudss.h`; NVIDIA's wheels 1.0.0.35 of CUDA 12 and 13),
//! forwarded to the real `libcudss.so.1` found on the first call. Everything here is the
//! generated spec (`src/generated/`) and this file's data.
//!
//! **One CUDA release per process.** cuDSS 1.0 has one soname and one version for both CUDA
//! majors, links the runtime statically and needs its major's cuBLAS (`DT_NEEDED
//! libcublas.so.12` / `.13`). Before its search the stub reads which runtime or cuBLAS the
//! process has (`stub_loader`'s `search/release.rs`); a candidate whose `DT_NEEDED` names
//! another major's cuBLAS is refused before `dlopen`, so a CUDA 12 cuDSS never brings a second
//! cuBLAS into a CUDA 13 process. Once loaded, that cuBLAS's major is the release it records
//! (`VersionProbe::Needed`; the aarch64 builds carry no PTX to read a release from).
//!
//! **A cuDSS without its cuBLAS** (a wheel installed without `nvidia-cublas-cu12`) cannot be
//! loaded: the dynamic loader's answer, naming the missing `libcublas.so.12`, is the rejected
//! candidate's reason in `cuda_stubs_cudss_status`, and every call answers the typed error.
//!
//! **Typed errors.** cuDSS has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUDSS_STATUS_NOT_INITIALIZED` (1), when no cuDSS of the process's
//!   release could be loaded: cuBLAS's and cuSOLVER's choice for the same case;
//!   `cuda_stubs_cudss_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUDSS_STATUS_NOT_SUPPORTED` (4), when the loaded cuDSS lacks the
//!   function.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUDSS_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUDSS_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cudss_status`, from the spec.
stub_loader::stub_library! {
    name: cudss,
    spec: stub_spec::libraries::CUDSS,
    status_type: types::cudssStatus_t,
    functions: api::FUNCTIONS,
}
