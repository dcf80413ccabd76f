//! `libstubs_nvfatbin.so`: nvFatbin (`nvFatbin.h`, CUDA 12.4 and later: NVIDIA's wheels 12.9 and
//! 13.4), forwarded to the real `libnvfatbin.so.13` or `.12` found on the first call. Everything
//! here is the generated spec (`src/generated/`) and this file's data: the library has no
//! callback, no struct argument and the same prototypes in both majors.
//!
//! nvFatbin is a host tool, like nvJitLink: it needs no GPU and links no CUDA library, so it is
//! under no release rule; the soname says its major.
//!
//! **Typed errors.** nvFatbin has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVFATBIN_ERROR_INTERNAL` (1), when no libnvfatbin was found (as the
//!   NVRTC and nvJitLink stubs answer); `cuda_stubs_nvfatbin_status` says what was searched;
//! - [`STATUS_ABSENT`], `NVFATBIN_ERROR_UNRECOGNIZED_OPTION` (8), when the loaded nvFatbin lacks
//!   the function (`nvFatbinAddTileIR`, 13.1 and later, on 12.x): what nvFatbin answers a
//!   request it does not know.
//!
//! `nvFatbinGetErrorString` never answers NULL: NVIDIA's does for `NVFATBIN_SUCCESS`, where the
//! stub answers the header's name for it; without a library, the places searched for the "no
//! library" code (`stub_loader::ErrorTexts`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVFATBIN_ERROR_INTERNAL`), `STATUS_ABSENT`
// (`NVFATBIN_ERROR_UNRECOGNIZED_OPTION`) and the export `cuda_stubs_nvfatbin_status`, from the
// spec.
stub_loader::stub_library! {
    name: nvfatbin,
    spec: stub_spec::libraries::NVFATBIN,
    status_type: types::nvFatbinResult,
    functions: api::FUNCTIONS,
}
