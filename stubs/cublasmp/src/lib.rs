//! `libstubs_cublasmp.so`: NVIDIA's cuBLASMp host API (`cublasmp.h`; cuBLASMp 0.10.0 of CUDA
//! 12.x and 13.x), forwarded to the real `libcublasmp.so.0` found on the first call. Everything
//! here is the generated spec (`src/generated/`) and this file's data: no code of its own.
//!
//! **One soname and one version, two majors.** NVIDIA's `nvidia-cublasmp-cu12` and `-cu13`
//! 0.10.0.3695 ship the same file name, exports, prototypes and version (`cublasMpGetVersion`
//! 1000): only what the file needs says its release, `libcublas.so.12` or `libcublas.so.13` in
//! its `DT_NEEDED` (the runtime is linked statically). The stub reads it once the copy is loaded
//! (`VersionProbe::NeededOwnVersion`) and the status API reports that major (`1000 * major`).
//!
//! **One CUDA release per process.** Its anchors are the runtime and cuBLAS: before its search
//! the stub reads which of their sonames the process has mapped (else the release of the other
//! math libraries it has; `stub_loader`'s `search/release.rs`), and rejects a copy needing
//! another major's cuBLAS before `dlopen`, so a CUDA 12 cuBLASMp never brings `libcublas.so.12`
//! into a CUDA 13 process. Its NCCL (`libnccl.so.2`, one soname for every release) and the
//! driver (`libcuda.so.1`) come through its RPATH and the system's search; a copy whose
//! dependencies cannot be loaded (no driver installed, no NCCL wheel) fails `dlopen`, and the
//! status's summary keeps the dynamic loader's text, which names the missing library.
//!
//! **Typed errors.** cuBLASMp has no code for either case:
//! - [`STATUS_NO_LIBRARY`], `CUBLASMP_STATUS_NOT_INITIALIZED` (1), when no cuBLASMp of the
//!   process's release was found, as cuBLAS's stub answers; the real `cublasMpCreate` answers 6
//!   (`CUBLASMP_STATUS_INTERNAL_ERROR`) without a GPU, so a program can tell the two apart, and
//!   `cuda_stubs_cublasmp_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUBLASMP_STATUS_NOT_SUPPORTED` (7), when the loaded cuBLASMp lacks the
//!   function. No wheel lacks one today.
//!
//! `cublasMpGetStatusString` answers without a library, from the header's enumerators
//! (`src/generated/status_texts.rs`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUBLASMP_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUBLASMP_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cublasmp_status`, from the spec.
stub_loader::stub_library! {
    name: cublasmp,
    spec: stub_spec::libraries::CUBLASMP,
    status_type: types::cublasMpStatus_t,
    functions: api::FUNCTIONS,
}
