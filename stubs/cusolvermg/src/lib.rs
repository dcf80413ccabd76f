//! `libstubs_cusolvermg.so`: cuSOLVERMg, cuSOLVER's multi-GPU dense solvers (`cusolverMg.h`;
//! CUDA 11.8, 12.x and 13.x), forwarded to the real `libcusolverMg.so.12` or `.11` found on
//! the first call. Everything here is the generated spec (`src/generated/`: `api.rs`,
//! `types.rs`) and this file's data: no code of its own.
//!
//! **One CUDA release per process.** `libcusolverMg.so.11` is 11.x's and 12.x's alike, and
//! cuSOLVERMg has no version function: its release is the cuBLAS it needs (`DT_NEEDED
//! libcublas.so.<major>`), which the stub reads before `dlopen` (a candidate beside a cuBLAS of
//! another major than the process's is refused) and, once loaded, asks (`cublasGetProperty`,
//! found through the cuSOLVERMg handle, whose lookup searches its dependencies).
//!
//! **Names.** The header declares 18 functions; the library exports 223 `cusolverMg*` names
//! and 8 `cudaLibMg*` helpers, the undeclared ones forwarded opaquely (the status fallback).
//!
//! **Typed errors**, cuSOLVER's (cuSOLVERMg has no code for "library missing" or "function
//! missing"):
//! - [`STATUS_NO_LIBRARY`], `CUSOLVER_STATUS_NOT_INITIALIZED` (1), when no cuSOLVERMg of the
//!   process's release was found; `cuda_stubs_cusolvermg_status` says what was searched and
//!   why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUSOLVER_STATUS_NOT_SUPPORTED` (9), when the loaded one lacks the
//!   function, as the runtime's and the driver's "not supported".

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSOLVER_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUSOLVER_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cusolvermg_status`, from the
// spec.
stub_loader::stub_library! {
    name: cusolvermg,
    spec: stub_spec::libraries::CUSOLVERMG,
    status_type: types::cusolverStatus_t,
    functions: api::FUNCTIONS,
}
