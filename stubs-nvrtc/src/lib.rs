//! `libstubs_nvrtc.so`: the NVRTC C API (`nvrtc.h`, CUDA 11.8, 12.x, 13.x), forwarded to the
//! real `libnvrtc.so.13`, `.12` or `.11.2` found on the first call.
//!
//! NVRTC has no status for "library missing" or "function missing", so the stub uses:
//! - `NVRTC_ERROR_INTERNAL_ERROR` (11) when no libnvrtc was found;
//! - `NVRTC_ERROR_BUILTIN_OPERATION_FAILURE` (7) when the loaded NVRTC lacks the function
//!   (e.g. `nvrtcGetPCHHeapSize` on 11.8) and has no same-prototype [`REPLACEMENTS`] entry.
//!
//! `nvrtcGetErrorString` answers for both without the real library and says what was searched
//! (the spec's `error_texts`, `stub_loader::ErrorTexts`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

use stub_loader::Replacement;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVRTC_ERROR_INTERNAL_ERROR`), `STATUS_ABSENT`
// (`NVRTC_ERROR_BUILTIN_OPERATION_FAILURE`) and the export `cuda_stubs_nvrtc_status`, from the
// spec.
stub_loader::stub_library! {
    name: nvrtc,
    spec: stub_spec::libraries::NVRTC,
    status_type: types::nvrtcResult,
    functions: api::FUNCTIONS,
    replacements: REPLACEMENTS,
}

/// The LTO-IR getters under their other name: CUDA 12.0 renamed `nvrtcGetNVVM[Size]` (11.x, the
/// IR `-dlto` produces) to `nvrtcGetLTOIR[Size]`, same prototypes and result (nvrtc.h 12.x keeps
/// both, 13.0 drops the old names). So `-dlto` code built against either header runs on 11.8
/// and 13.x instead of getting the "absent" code.
pub static REPLACEMENTS: &[Replacement] = &[
    Replacement {
        removed: c"nvrtcGetLTOIR",
        with: c"nvrtcGetNVVM",
        on: &[11],
    },
    Replacement {
        removed: c"nvrtcGetLTOIRSize",
        with: c"nvrtcGetNVVMSize",
        on: &[11],
    },
    Replacement {
        removed: c"nvrtcGetNVVM",
        with: c"nvrtcGetLTOIR",
        on: &[13],
    },
    Replacement {
        removed: c"nvrtcGetNVVMSize",
        with: c"nvrtcGetLTOIRSize",
        on: &[13],
    },
];
