//! `libstubs_cusolvermp.so`: NVIDIA's cuSOLVERMp host API (`cusolverMp.h`; cuSOLVERMp 0.9.1 of
//! CUDA 12.x and 13.x), forwarded to the real `libcusolverMp.so.0` found on the first call.
//! Everything here is the generated spec (`src/generated/`) and this file's data: no code of
//! its own.
//!
//! **One soname and one version, two majors.** NVIDIA's `nvidia-cusolvermp-cu12` and `-cu13`
//! 0.9.1.9318.post1 ship the same file name and header; the CUDA 13 build exports four calls
//! more (the math mode and emulation strategy), absent from the CUDA 12 one. Only what the file
//! needs says its release: `libcudart.so.12`, `libcublas.so.12`, `libcusolver.so.11` or their
//! 13.x sonames in its `DT_NEEDED`. Its own `cusolverMpGetVersion` needs a handle (a GPU), so
//! the version the stub logs is that of the cuBLASMp the copy loaded (`cublasMpGetVersion`,
//! found through the copy's handle), and the release its `DT_NEEDED`
//! (`VersionProbe::NeededOwnVersion`); the status API reports that major (`1000 * major`).
//!
//! **One CUDA release per process.** Its anchors are the runtime, cuBLAS and cuSOLVER: a copy
//! needing another major's than the process has is rejected before `dlopen`. Its cuBLASMp,
//! NCCL and the driver (`libcuda.so.1`) come through its RPATH and the system's search; a copy
//! whose dependencies cannot be loaded fails `dlopen`, and the status's summary keeps the
//! dynamic loader's text, which names the missing library.
//!
//! **Typed errors.** cuSOLVER's codes and choices, as cuSOLVERMg's:
//! - [`STATUS_NO_LIBRARY`], `CUSOLVER_STATUS_NOT_INITIALIZED` (1), when no cuSOLVERMp of the
//!   process's release was found; the real `cusolverMpCreate` answers 7
//!   (`CUSOLVER_STATUS_INTERNAL_ERROR`) without a GPU, so a program can tell the two apart;
//! - [`STATUS_ABSENT`], `CUSOLVER_STATUS_NOT_SUPPORTED` (9), when the loaded cuSOLVERMp lacks the
//!   function: the CUDA 12 build's `cusolverMpSetMathMode` and the three others.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSOLVER_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUSOLVER_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cusolvermp_status`, from the spec.
stub_loader::stub_library! {
    name: cusolvermp,
    spec: stub_spec::libraries::CUSOLVERMP,
    status_type: types::cusolverStatus_t,
    functions: api::FUNCTIONS,
}
