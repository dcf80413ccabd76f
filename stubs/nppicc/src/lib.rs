//! `libstubs_nppicc.so`: NPP's image color conversion (`nppi_color_conversion.h`; CUDA 11.8, 12.x
//! and 13.x), forwarded to the real `libnppicc.so.13`, `.12` or `.11` found on the first call.
//! Everything here is the generated spec (`src/generated/`) and this file's data: no code of its
//! own. What the eleven NPP stubs share (one release per process with `libnppc`, the typed errors)
//! is `stubs-nppc`'s documentation.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root.
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NPP_CUDA_KERNEL_EXECUTION_ERROR`), `STATUS_ABSENT`
// (`NPP_NOT_IMPLEMENTED_ERROR`) and the export `cuda_stubs_nppicc_status`, from the spec.
stub_loader::stub_library! {
    name: nppicc,
    spec: stub_spec::libraries::NPPICC,
    status_type: types::NppStatus,
    functions: api::FUNCTIONS,
}
