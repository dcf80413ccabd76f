//! `libstubs_custatevec.so`: cuQuantum's cuStateVec host API (`custatevec.h`, `custatevecEx.h`,
//! `custatevecEx_ext.h`; cuStateVec 1.15.0 of CUDA 12.x and 13.x), forwarded to the real
//! `libcustatevec.so.1` found on the first call. Everything here is the generated spec
//! (`src/generated/`) and this file's data: no code of its own.
//!
//! **One soname and one version, two majors.** NVIDIA's `custatevec-cu12` and `-cu13` 1.15.0
//! ship the same file name, exports, prototypes and version (`custatevecGetProperty` 1.15.0,
//! `custatevecGetVersion` 11500): only what the file needs says its release, `libcublas.so.12`
//! or `libcublas.so.13` in its `DT_NEEDED` (the runtime is linked statically). The stub reads it
//! once the copy is loaded (`VersionProbe::Needed`) and the status API reports that major
//! (`1000 * major`).
//!
//! **One CUDA release per process.** Its anchors are the runtime and cuBLAS: before its search
//! the stub reads which of their sonames the process has mapped (else the release of the other
//! math libraries it has; `stub_loader`'s `search/release.rs`), and rejects a copy needing
//! another major's cuBLAS before `dlopen`, so a CUDA 12 cuStateVec never brings
//! `libcublas.so.12` into a CUDA 13 process. A copy found by path whose cuBLAS the process lacks
//! gets it from its own folder first where that holds it (the RUNPATH points to the cuBLAS
//! wheel's folder, `../../nvidia/cublas/lib` or `../../nvidia/cu13/lib`).
//!
//! **Typed errors.** cuStateVec has a code for the first case, none for the second:
//! - [`STATUS_NO_LIBRARY`], `CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED` (13), when no cuStateVec
//!   of the process's release was found: "dynamic loading of the shared library failed",
//!   literally the case; the real `custatevecCreate` answers another code without a GPU, so a
//!   program can tell the two apart, and `cuda_stubs_custatevec_status` says what was searched
//!   and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUSTATEVEC_STATUS_NOT_SUPPORTED` (7), when the loaded cuStateVec lacks
//!   the function: "API is not supported by the backend". No wheel lacks one today.
//!
//! `custatevecGetErrorName` and `custatevecGetErrorString` answer without a library, from the
//! header's enumerators (`src/generated/status_texts.rs`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED`), `STATUS_ABSENT`
// (`CUSTATEVEC_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_custatevec_status`, from the
// spec.
stub_loader::stub_library! {
    name: custatevec,
    spec: stub_spec::libraries::CUSTATEVEC,
    status_type: types::custatevecStatus_t,
    functions: api::FUNCTIONS,
}
