//! `libstubs_cudart.so`: the CUDA runtime API (`cuda_runtime_api.h`, CUDA 11.8, 12.x, 13.x),
//! forwarded to the real `libcudart.so.13`, `.12` or `.11.0` found on the first call.
//!
//! Typed errors:
//! - `cudaErrorStubLibrary` (34) when no libcudart was found: the runtime's own code for "this
//!   is a stub, the real library is missing";
//! - `cudaErrorNotSupported` (801) when the loaded runtime lacks the function
//!   (`cudaThreadSynchronize` on 13.x) or has it with another ABI and no adapter exists.
//!
//! `cudaGetErrorString` and `cudaGetErrorName` answer for both without the real library (the
//! spec's `error_texts`, `stub_loader::ErrorTexts`).
//!
//! The 35 names whose prototype differs between the CUDA 12.x and 13.x headers are exported
//! once per ABI under ELF symbol versions, `name@@CUDA_STUBS_CUDART_13` (what a link against
//! this file records) and `name@CUDA_STUBS_CUDART_12` (what a link against the link-time stub
//! `libstubs_cudart_abi12.so` records), each with its adapter (`adapters/`, one file per
//! function holding both versions, `NAME_abi13` and `NAME_abi12`): callers built against either
//! headers share this one file in a process.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
pub use generated::types;
use generated::{abi_fns, abi_types, api};

#[allow(non_snake_case)]
mod adapters;
mod last_error;

use stub_loader::Replacement;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`cudaErrorStubLibrary`), `STATUS_ABSENT`
// (`cudaErrorNotSupported`) and the export `cuda_stubs_cudart_status`, from the spec.
stub_loader::stub_library! {
    name: cudart,
    spec: stub_spec::libraries::CUDART,
    status_type: types::cudaError_t,
    functions: api::FUNCTIONS,
    replacements: REPLACEMENTS,
    last_error_readers: last_error::READERS,
}

/// Names CUDA 13.0 removed, bound on 13.x to a name of the same prototype and semantics:
/// - the thread-era calls, to the device-era calls that replaced them in CUDA 4.0
///   (cuda_runtime_api.h 12.9 marks each "deprecated, use cudaDevice…");
/// - the 12.x spellings 13.0 renamed to the plain name, the plain name taking over their
///   prototype (the 13.0 header declares the plain name as 12.9 declares `_v2` / `_v3`; codegen's
///   manifest shows the same parameter types and struct layouts, `tests/tests/abi_coverage.rs`
///   checks it): what programs built against 12.x headers call, explicitly or through the
///   header's own `#define` (`cudaSignalExternalSemaphoresAsync` → `…_v2`). Not
///   `cudaStreamGetCaptureInfo_v2` (one argument fewer than 13.x's plain name) nor
///   `cudaGetDeviceProperties_v2` and `cudaGraphAddNode_v2` (12.9's struct layouts): adapters.
static REPLACEMENTS: &[Replacement] = &[
    renamed_in_13(c"cudaThreadExit", c"cudaDeviceReset"),
    renamed_in_13(c"cudaThreadSynchronize", c"cudaDeviceSynchronize"),
    renamed_in_13(c"cudaThreadSetLimit", c"cudaDeviceSetLimit"),
    renamed_in_13(c"cudaThreadGetLimit", c"cudaDeviceGetLimit"),
    renamed_in_13(c"cudaThreadGetCacheConfig", c"cudaDeviceGetCacheConfig"),
    renamed_in_13(c"cudaThreadSetCacheConfig", c"cudaDeviceSetCacheConfig"),
    renamed_in_13(c"cudaEventElapsedTime_v2", c"cudaEventElapsedTime"),
    renamed_in_13(c"cudaGraphAddDependencies_v2", c"cudaGraphAddDependencies"),
    renamed_in_13(
        c"cudaGraphRemoveDependencies_v2",
        c"cudaGraphRemoveDependencies",
    ),
    renamed_in_13(c"cudaGraphGetEdges_v2", c"cudaGraphGetEdges"),
    renamed_in_13(
        c"cudaGraphNodeGetDependencies_v2",
        c"cudaGraphNodeGetDependencies",
    ),
    renamed_in_13(
        c"cudaGraphNodeGetDependentNodes_v2",
        c"cudaGraphNodeGetDependentNodes",
    ),
    renamed_in_13(c"cudaMemAdvise_v2", c"cudaMemAdvise"),
    renamed_in_13(c"cudaMemPrefetchAsync_v2", c"cudaMemPrefetchAsync"),
    renamed_in_13(
        c"cudaMemPrefetchAsync_v2_ptsz",
        c"cudaMemPrefetchAsync_ptsz",
    ),
    renamed_in_13(
        c"cudaSignalExternalSemaphoresAsync_v2",
        c"cudaSignalExternalSemaphoresAsync",
    ),
    renamed_in_13(
        c"cudaSignalExternalSemaphoresAsync_v2_ptsz",
        c"cudaSignalExternalSemaphoresAsync_ptsz",
    ),
    renamed_in_13(
        c"cudaWaitExternalSemaphoresAsync_v2",
        c"cudaWaitExternalSemaphoresAsync",
    ),
    renamed_in_13(
        c"cudaWaitExternalSemaphoresAsync_v2_ptsz",
        c"cudaWaitExternalSemaphoresAsync_ptsz",
    ),
    renamed_in_13(c"cudaStreamGetCaptureInfo_v3", c"cudaStreamGetCaptureInfo"),
    renamed_in_13(
        c"cudaStreamGetCaptureInfo_v3_ptsz",
        c"cudaStreamGetCaptureInfo_ptsz",
    ),
    renamed_in_13(
        c"cudaStreamUpdateCaptureDependencies_v2",
        c"cudaStreamUpdateCaptureDependencies",
    ),
    renamed_in_13(
        c"cudaStreamUpdateCaptureDependencies_v2_ptsz",
        c"cudaStreamUpdateCaptureDependencies_ptsz",
    ),
];

/// `removed` bound to `with` on 13.x, the major that removed it.
const fn renamed_in_13(
    removed: &'static core::ffi::CStr,
    with: &'static core::ffi::CStr,
) -> Replacement {
    Replacement {
        removed,
        with,
        on: &[13],
    }
}
