//! `libstubs_nvperf_target.so`: NVIDIA's Perfworks target library, the device side of profiling (`nvperf_target.h`
//! of CUPTI 11.8, 12.x and 13.x), forwarded to the real `libnvperf_target.so` found on the first
//! call. Everything here is the generated spec (`src/generated/`) and this file's data: no code
//! of its own.
//!
//! **One soname, three majors.** Every release names the file `libnvperf_target.so`, with no
//! version; `NVPW_QueryVersionNumber` asked for `NVPW_SDK_VERSION` answers CUPTI's release
//! (2025.2.0 for 12.9, 2026.3.1 for 13.4: `VersionProbe::QueryVersionNumber`), 11.8's
//! `NVPA_STATUS_INVALID_ARGUMENT` (bound, release unknown).
//!
//! **One CUDA release per process.** Its anchors are the runtime and CUPTI, which loads
//! Perfworks itself: a copy of another release than theirs is refused once its version says so.
//!
//! **Self-sized params.** Every call takes one `NVPW_<name>_Params *` whose first field is
//! `size_t structSize`: a struct that only grew between majors is forwarded (the library reads
//! the caller's size), one laid out otherwise on the loaded major is refused (absent).
//!
//! **Typed errors.** `nvperf_common.h` has a code for each situation:
//! - [`STATUS_NO_LIBRARY`], `NVPA_STATUS_NOT_LOADED` (4), "the NvPerf DLL/DSO could not be
//!   loaded", when no Perfworks of the process's release was found; the loaded library answers
//!   success to `NVPW_Initialize*` without a GPU, never this; `cuda_stubs_nvperf_target_status`
//!   says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `NVPA_STATUS_FUNCTION_NOT_FOUND` (5), "the function was not found in
//!   this version of the NvPerf DLL/DSO", when the loaded library lacks the call.
//!
//! The status texts are the header's inline `NVPW_NVPAStatusToString` (12.x, 13.x): no export.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVPA_STATUS_NOT_LOADED`), `STATUS_ABSENT`
// (`NVPA_STATUS_FUNCTION_NOT_FOUND`) and the export `cuda_stubs_nvperf_target_status`, from the spec.
stub_loader::stub_library! {
    name: nvperf_target,
    spec: stub_spec::libraries::NVPERF_TARGET,
    status_type: types::NVPA_Status,
    functions: api::FUNCTIONS,
}
