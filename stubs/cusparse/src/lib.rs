//! `libstubs_cusparse.so`: the cuSPARSE API (`cusparse.h`, CUDA 11.8, 12.x and 13.x), forwarded
//! to the real `libcusparse.so.12` or `.11` found on the first call. Everything here is the
//! generated spec (`src/generated/`: `api.rs`, `types.rs`) and this file's data: no code of its
//! own.
//!
//! **Across majors.** 12.0 removed the legacy API (`cusparseScsrmv`, `cusparseCreateMatDescr`'s
//! companions …): a program built against 11.8's header that calls it gets
//! [`STATUS_ABSENT`] on 12.x and 13.x, never a call into a library without it. The generic API
//! (`cusparseSpMV`, `cusparseCreateCsr` …) has the same prototypes in every major.
//!
//! **One CUDA release per process.** `libcusparse.so.12` is both 12.x's and 13.x's: the version
//! (`cusparseGetProperty`: 12.0 – 12.5 are CUDA 12.x, 12.6 and later 13.x; the spec's
//! `releases`) says which, and a cuSPARSE of another release than the process has mapped is
//! refused. 12.x's needs `libnvJitLink.so.12`, which its RUNPATH finds in the wheel layout.
//!
//! **Typed errors.** cuSPARSE has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUSPARSE_STATUS_NOT_INITIALIZED` (1): what the real
//!   `cusparseCreate` answers without a GPU;
//! - [`STATUS_ABSENT`], `CUSPARSE_STATUS_NOT_SUPPORTED` (10), as the runtime's "not supported".

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSPARSE_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUSPARSE_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cusparse_status`, from the spec.
stub_loader::stub_library! {
    name: cusparse,
    spec: stub_spec::libraries::CUSPARSE,
    status_type: types::cusparseStatus_t,
    functions: api::FUNCTIONS,
}
