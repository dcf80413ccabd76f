//! `libstubs_cublas.so`: the cuBLAS API (`cublas_v2.h`, CUDA 11.8, 12.x and 13.x), forwarded to
//! the real `libcublas.so.13`, `.12` or `.11` found on the first call. Everything here is the
//! generated spec (`src/generated/`: `api.rs`, `types.rs`) and this file's data: no code of its
//! own.
//!
//! **Names.** `cublas_v2.h` renames the handle API to its `_v2` ABI names (`cublasCreate` →
//! `cublasCreate_v2`, `cublasSgemm` → `cublasSgemm_v2`); 12.x and 13.x add the 64-bit-index
//! `_64` twins. The library also exports the legacy API of `cublas.h` under the plain names
//! (`cublasSgemm` without a handle), whose header cannot be included with `cublas_v2.h`: those
//! are forwarded opaquely (a tail jump, every argument untouched). The real library loads its
//! `libcublasLt.so.<major>` itself (`DT_NEEDED`, RUNPATH `$ORIGIN`); a copy without RUNPATH
//! (13.10.0.20's) found by path has the `libcublasLt.so.13` beside it loaded first.
//!
//! **One CUDA release per process.** cuBLAS's major is CUDA's and its soname says it; every
//! major links the runtime statically. Before its search the stub reads the release the process
//! has mapped (`stub_loader`'s `search/release.rs`) and refuses a cuBLAS of another major by its
//! soname, before `dlopen`.
//!
//! **Typed errors.** cuBLAS has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUBLAS_STATUS_NOT_INITIALIZED` (1), when no cuBLAS of the
//!   process's release was found: what the real `cublasCreate` answers without a GPU, so a
//!   program treats a missing cuBLAS as a machine without CUDA;
//! - [`STATUS_ABSENT`], `CUBLAS_STATUS_NOT_SUPPORTED` (15), when the loaded cuBLAS lacks the
//!   function, as the runtime's and the driver's "not supported".

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUBLAS_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUBLAS_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cublas_status`, from the spec.
stub_loader::stub_library! {
    name: cublas,
    spec: stub_spec::libraries::CUBLAS,
    status_type: types::cublasStatus_t,
    functions: api::FUNCTIONS,
}
