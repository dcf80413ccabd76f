//! `libstubs_cuda.so`: the CUDA driver API (`cuda.h`, CUDA 11.8, 12.x, 13.x), forwarded to the
//! real `libcuda.so.1` found on the first call. Every function is exported under the ABI name
//! the headers bind it to (`cuMemAlloc_v2`, `cuCtxDestroy_v2`, `cuCtxCreate_v4` …) and resolved
//! to that exact entry point, never to the legacy unsuffixed one.
//!
//! Typed errors:
//! - `CUDA_ERROR_STUB_LIBRARY` (34) when no libcuda.so.1 was found (no driver installed);
//! - `CUDA_ERROR_NOT_SUPPORTED` (801) when the installed driver lacks the entry point.
//!
//! `cuGetErrorString` and `cuGetErrorName` answer for both without the real library (the spec's
//! `error_texts`, `stub_loader::ErrorTexts`).
//!
//! Entry points are resolved through the driver's `cuGetProcAddress` with the CUDA version
//! their ABI belongs to (`cuMemAlloc_v2` is `cuMemAlloc` at 3020; the table is generated from
//! `cudaTypedefs.h`), falling back to `dlsym` of the exact ABI name. Entry points whose struct
//! layout differs on an older driver major are refused there (801) unless an adapter in
//! `src/adapters/` can express the call in that major's layout.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
pub use generated::types;
use generated::{abi_fns, api, proc_address};

// Parameters keep the C names of the prototypes they implement.
#[allow(non_snake_case)]
mod adapters;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUDA_ERROR_STUB_LIBRARY`), `STATUS_ABSENT`
// (`CUDA_ERROR_NOT_SUPPORTED`) and the export `cuda_stubs_cuda_status`, from the spec: entry
// points resolved through the spec's getter (`cuGetProcAddress`) with the table codegen wrote
// from its typedefs header.
stub_loader::stub_library! {
    name: cuda,
    spec: stub_spec::libraries::CUDA,
    status_type: types::CUresult,
    functions: api::FUNCTIONS,
    proc_address: (proc_address::NAMES, proc_address::ENTRIES),
}
