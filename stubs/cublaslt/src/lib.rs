//! `libstubs_cublaslt.so`: the cuBLASLt API (`cublasLt.h`, CUDA 11.8, 12.x and 13.x), forwarded
//! to the real `libcublasLt.so.13`, `.12` or `.11` found on the first call. Everything here is
//! the generated spec (`src/generated/`: `api.rs`, `types.rs`) and this file's data: no code of
//! its own.
//!
//! **Across majors.** Codegen finds no prototype that changed between 11.8, 12.9 and 13.5. The
//! descriptor storage grew (`cublasLtMatmulDescOpaque_t`: 184, 256, 256 bytes;
//! `cublasLtMatrixLayoutOpaque_t`: 64, 64, 112), which does not change the ABI: a caller holds
//! it behind a pointer and never reads it, the library lays it out, and where a caller allocates
//! it (`cublasLtMatmulDescInit`) the size is passed and checked by the library. The attribute enumerators a caller passes (`CUBLASLT_MATMUL_DESC_*`,
//! `CUBLASLT_MATMUL_PREF_*` …) keep their values in every major that has them (every explicit
//! value of 11.8's and 12.9's `cublasLt.h` is the same in the next major's); 12.0 and 13.0
//! removed some (12.x's atomic-sync attributes), which a newer library answers with its own
//! invalid-value error. So the stub forwards unchanged, gated per major like cuBLAS.
//!
//! **One CUDA release per process.** As cuBLAS: its soname says CUDA's major, and a copy of
//! another release than the process has mapped is refused by its soname before `dlopen`. A
//! cuBLAS the process has bound already loaded its own libcublasLt, which the search finds
//! first (never a second copy).
//!
//! **Typed errors**, in cuBLAS's status type (cuBLAS's choices):
//! - [`STATUS_NO_LIBRARY`], `CUBLAS_STATUS_NOT_INITIALIZED` (1), when no cuBLASLt of the
//!   process's release was found: what the real `cublasLtCreate` answers without a GPU;
//! - [`STATUS_ABSENT`], `CUBLAS_STATUS_NOT_SUPPORTED` (15), when the loaded cuBLASLt lacks the
//!   function.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUBLAS_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUBLAS_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cublaslt_status`, from the spec.
stub_loader::stub_library! {
    name: cublaslt,
    spec: stub_spec::libraries::CUBLASLT,
    status_type: types::cublasStatus_t,
    functions: api::FUNCTIONS,
}
