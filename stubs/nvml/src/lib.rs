//! `libstubs_nvml.so`: the NVML API (`nvml.h`, CUDA 11.8, 12.x and 13.x), forwarded to the
//! driver's `libnvidia-ml.so.1` found on the first call. Everything here is the generated spec
//! (`src/generated/`: `api.rs`, `types.rs`) and this file's data: no code of its own.
//!
//! **Names and versions.** Like `cuda.h`, `nvml.h` renames calls to their current ABI names
//! (`nvmlInit` → `nvmlInit_v2`, `nvmlDeviceGetCount` → `nvmlDeviceGetCount_v2`); the stub
//! exports every name driver 580's `libnvidia-ml.so.1` exports and every name a header declares,
//! and forwards each to the same name (the unversioned legacy names opaquely: their old
//! prototypes are only declared under `NVML_NO_UNVERSIONED_FUNC_DEFS`). The driver's CUDA major
//! comes from `nvmlSystemGetNVMLVersion`, which answers before `nvmlInit` (`13.580.159.04`); the
//! stub never calls `nvmlInit` itself. A function first declared by a newer major's header than
//! the driver serves is absent (`Gating::AtLeast`, as the driver API). NVML serves every CUDA
//! release: it has no release anchor.
//!
//! **Typed errors.** NVML names both cases itself:
//! - [`STATUS_NO_LIBRARY`], `NVML_ERROR_LIBRARY_NOT_FOUND` (12), "NVML Shared Library couldn't
//!   be found or loaded": no driver on the machine;
//! - [`STATUS_ABSENT`], `NVML_ERROR_FUNCTION_NOT_FOUND` (13), "Local version of NVML doesn't
//!   implement this function".

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVML_ERROR_LIBRARY_NOT_FOUND`), `STATUS_ABSENT`
// (`NVML_ERROR_FUNCTION_NOT_FOUND`) and the export `cuda_stubs_nvml_status`, from the spec.
stub_loader::stub_library! {
    name: nvml,
    spec: stub_spec::libraries::NVML,
    status_type: types::nvmlReturn_t,
    functions: api::FUNCTIONS,
}
