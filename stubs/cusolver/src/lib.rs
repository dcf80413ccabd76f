//! `libstubs_cusolver.so`: the cuSOLVER API (`cusolverDn.h`, `cusolverSp.h`, `cusolverRf.h`;
//! CUDA 11.8, 12.x and 13.x), forwarded to the real `libcusolver.so.12` or `.11` found on the
//! first call. Everything here is the generated spec (`src/generated/`: `api.rs`, `types.rs`) and
//! this file's data: no code of its own.
//!
//! **One CUDA release per process.** `libcusolver.so.11` is both 11.x's and 12.x's: the version
//! (`cusolverGetProperty`: 11.4.2 and later 11.x are CUDA 12.x; the spec's `releases`) says which.
//! cuSOLVER needs cuBLAS, cuBLASLt, cuSPARSE and (12.x+) nvJitLink of its own release: the spec
//! names the runtime and cuBLAS as its anchors, so a 13.x cuSOLVER (`DT_NEEDED
//! libcublas.so.13`) beside a 12.x runtime or cuBLAS is refused before `dlopen`, and one found
//! by path has what it needs and the process lacks loaded from its own folder first (13.x's has
//! no RUNPATH; its wheel folder `nvidia/cu13/lib` holds them all).
//!
//! **Typed errors.** cuSOLVER has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUSOLVER_STATUS_NOT_INITIALIZED` (1): what the real
//!   `cusolverDnCreate` answers without a GPU;
//! - [`STATUS_ABSENT`], `CUSOLVER_STATUS_NOT_SUPPORTED` (9), as the runtime's "not supported".

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSOLVER_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUSOLVER_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cusolver_status`, from the spec.
stub_loader::stub_library! {
    name: cusolver,
    spec: stub_spec::libraries::CUSOLVER,
    status_type: types::cusolverStatus_t,
    functions: api::FUNCTIONS,
}
