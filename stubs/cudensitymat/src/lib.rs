//! `libstubs_cudensitymat.so`: cuQuantum's cuDensityMat host API (`cudensitymat.h`;
//! cuDensityMat 0.7.0 of CUDA 12.x and 13.x), forwarded to the real `libcudensitymat.so.0`
//! found on the first call. Everything here is the generated spec (`src/generated/`) and this
//! file's data: no code of its own.
//!
//! **One soname and one version, two majors.** NVIDIA's `cudensitymat-cu12` and `-cu13` 0.7.0
//! ship the same file name, exports, prototypes and version (`cudensitymatGetVersion` 700):
//! only what the file needs says its release, `libcublas.so.12` or `libcublas.so.13` in its
//! `DT_NEEDED` (the runtime is linked statically). The stub reads it once the copy is loaded
//! (`VersionProbe::NeededReturned`) and the status API reports that major (`1000 * major`).
//!
//! **One CUDA release per process.** Its anchors are the runtime and cuBLAS: before its search
//! the stub reads which of their sonames the process has mapped (else the release of the other
//! math libraries it has; `stub_loader`'s `search/release.rs`), and rejects a copy needing
//! another major's cuBLAS before `dlopen`, so a CUDA 12 cuDensityMat never brings
//! `libcublas.so.12` into a CUDA 13 process. What it needs beside cuBLAS (cuTensorNet,
//! cuTENSOR, cuSOLVER, cuSPARSE, cuRAND, nvJitLink) the dynamic loader finds through its
//! RUNPATH (`$ORIGIN`, `../../cutensor/lib`, `../../nvidia/<library>/lib` or
//! `../../nvidia/cu13/lib`); a copy whose dependency cannot be found is rejected with
//! `dlerror`'s text naming it, in the summary.
//!
//! **Typed errors.** cuDensityMat has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUDENSITYMAT_STATUS_NOT_INITIALIZED` (1), when no cuDensityMat of
//!   the process's release was found: cuTensorNet's, cuTENSOR's and cuBLAS's choice;
//!   `cuda_stubs_cudensitymat_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUDENSITYMAT_STATUS_NOT_SUPPORTED` (15), when the loaded cuDensityMat
//!   lacks the function. No wheel lacks one today.
//!
//! `size_t cudensitymatGetVersion()` answers 0 without a library (the generated fallback of a
//! non-status result), never a version it does not have.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUDENSITYMAT_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUDENSITYMAT_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cudensitymat_status`, from
// the spec.
stub_loader::stub_library! {
    name: cudensitymat,
    spec: stub_spec::libraries::CUDENSITYMAT,
    status_type: types::cudensitymatStatus_t,
    functions: api::FUNCTIONS,
}
