//! `libstubs_cutensor.so`: cuTENSOR 2 (`cutensor.h`, `cutensor/types.h`; cuTENSOR 2.2.0 of CUDA
//! 11.x, 2.8.1 of 12.x and 13.x), forwarded to the real `libcutensor.so.2` found on the first
//! call. The exports are the generated spec's (`src/generated/`: `api.rs`, `types.rs`,
//! `status_texts.rs`, `data.rs`) and the macro's declarations, but for the functions taking a
//! compute descriptor, hand-written in `src/adapters/`.
//!
//! **One soname, one version, two releases.** Every major ships cuTENSOR as
//! `libcutensor.so.2`, and the CUDA 12 and CUDA 13 wheels hold the same cuTENSOR
//! (`cutensorGetVersion` 20800 in both). `cutensorGetCudartVersion` answers the runtime the copy
//! was built with (11080, 12090, 13040: `VersionProbe::Returned`), which the status API reports
//! as its `version`.
//!
//! **One CUDA release per process.** cuTENSOR links the runtime statically and needs the
//! major's `libcublasLt.so.<major>`; the streams and device memory a program hands it are the
//! program's runtime's. So it is held to the process's release like the math libraries
//! (`stub_loader`'s `search/release.rs`): a copy built for another major is rejected once its
//! version function says so.
//!
//! **Typed errors.** cuTENSOR has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUTENSOR_STATUS_NOT_INITIALIZED` (1), when no cuTENSOR of the
//!   process's release was found: cuBLAS's choice for the same case; the real `cutensorCreate`
//!   answers `CUTENSOR_STATUS_CUDA_ERROR` (18) without a GPU, so a program can tell the two
//!   apart; `cuda_stubs_cutensor_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUTENSOR_STATUS_NOT_SUPPORTED` (15), when the loaded cuTENSOR lacks the
//!   function (2.2.0 has no block-sparse contraction, no `cutensorCreateExtraction`).
//!
//! `cutensorGetErrorString` is never NULL: the real library's text, else the places searched
//! for the "no library" code and the enumerator's name for another.
//!
//! **The compute descriptors.** `cutensor/types.h` declares data, not functions:
//! `CUTENSOR_COMPUTE_DESC_16F` … `CUTENSOR_COMPUTE_DESC_4X16F` (`extern const
//! cutensorComputeDescriptor_t`, pointers into the real library; six in 2.2.0, nine in 2.8).
//! The stub exports each as an object of the same type and size (`STT_OBJECT`, 8 bytes, so an
//! executable linked without PIC copy-relocates it as it would NVIDIA's) whose value is the
//! address of the stub's own stand-in (`src/generated/data.rs`, `stub_loader::StandIns`). The
//! seven functions taking a compute descriptor (`src/adapters/`) hand the loaded library its own
//! descriptor of the same name instead (`dlsym`), any other pointer as given; a descriptor the
//! loaded version lacks (`CUTENSOR_COMPUTE_DESC_8XINT8` on 2.2.0) is
//! `CUTENSOR_STATUS_NOT_SUPPORTED`, never passed on.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod adapters;
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUTENSOR_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUTENSOR_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cutensor_status`, from the spec.
stub_loader::stub_library! {
    name: cutensor,
    spec: stub_spec::libraries::CUTENSOR,
    status_type: types::cutensorStatus_t,
    functions: api::FUNCTIONS,
}
