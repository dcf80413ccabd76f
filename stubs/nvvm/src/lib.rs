//! `libstubs_nvvm.so`: libNVVM (`nvvm.h` of CUDA 11.8, 12.x and 13.x), forwarded to the real
//! `libnvvm.so.4` found on the first call. Everything here is the generated spec
//! (`src/generated/`) and this file's data: no code of its own.
//!
//! **One soname, three majors.** Every release's libNVVM is `libnvvm.so.4`, and NVIDIA's 11.x
//! and 12.x wheels ship it as `nvvm/lib64/libnvvm.so` (the search tries that name in each
//! folder after the soname). `nvvmVersion` says 1.9 (11.8) or 2.0 (12.x and 13.x): the stub
//! reads the release from the loaded file's build string, `Cuda compilation tools, release
//! 13.5` (`VersionProbe::BuiltForMajorMinor`), and the status API reports it
//! (`1000 * major + 10 * minor`).
//!
//! **One CUDA release per process.** Its anchor is the runtime: a copy whose build string names
//! another major than the process's runtime is refused (its PTX would not load on that stack).
//!
//! **Typed errors.** libNVVM has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVVM_ERROR_PROGRAM_CREATION_FAILURE` (2), when no libNVVM of the
//!   process's release was found: what `nvvmCreateProgram`, a program's first call, may answer,
//!   and no loaded libNVVM answers for a well-formed call; `cuda_stubs_nvvm_status` says what
//!   was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `NVVM_ERROR_INVALID_INPUT` (4), when the loaded libNVVM lacks the
//!   function (`nvvmLLVMVersion` before 13.x, `nvvmDisableConcurrentAPI` in 11.8).
//!
//! `nvvmGetErrorString` answers without a library, from the header's enumerators
//! (`src/generated/status_texts.rs`), never NULL.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVVM_ERROR_PROGRAM_CREATION_FAILURE`), `STATUS_ABSENT`
// (`NVVM_ERROR_INVALID_INPUT`) and the export `cuda_stubs_nvvm_status`, from the spec.
stub_loader::stub_library! {
    name: nvvm,
    spec: stub_spec::libraries::NVVM,
    status_type: types::nvvmResult,
    functions: api::FUNCTIONS,
}
