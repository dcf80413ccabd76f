//! `libstubs_cusparselt.so`: cuSPARSELt (`cusparseLt.h`; 0.8.1 of CUDA 12, 0.10.0 of CUDA 13),
//! forwarded to the real `libcusparseLt.so.0` found on the first call. Everything here is the
//! generated spec (`src/generated/`: `api.rs`, `types.rs`, `status_texts.rs`) and this file's
//! data: no code of its own.
//!
//! **One soname, overlapping versions.** Every major ships cuSPARSELt as `libcusparseLt.so.0`
//! with the same 31 functions and prototypes, and its own version does not say the CUDA release
//! (NVIDIA publishes 0.8.0 and 0.8.1 for CUDA 12 and for CUDA 13). Its device code does: the
//! loader reads the PTX ISA version of the first PTX in the file's `.nv_fatbin` (8.8 in cu12
//! 0.8.1, written by CUDA 12.9's `nvcc`; 9.2 in cu13 0.10.0, by 13.2's) and maps it to the CUDA
//! major (`VersionProbe::DeviceCode`); the status API's `version` is `1000 * major`, the debug
//! log has cuSPARSELt's own (`cusparseLtGetProperty 0.10.0: PTX ISA 9.2: CUDA 13`).
//!
//! **One CUDA release per process.** Every NVIDIA build links the runtime statically (its
//! `DT_NEEDED` is the C and C++ libraries only); the streams and device memory a program hands
//! it are the program's runtime's. So it is held to the process's release like the math
//! libraries: before its search the stub reads which `libcudart.so.*` the process has (else the
//! release of the math libraries it has; `stub_loader`'s `search/release.rs`), and a copy of
//! another major is rejected once its device code says so (it stays mapped, never called).
//!
//! **Opaque storage.** `cusparseLtHandle_t` and the descriptors, plan and algorithm selection
//! are structs of `alignas(16) uint8_t data[512]` the caller allocates and passes by pointer
//! (512 bytes in 0.8.1 and 0.10.0 alike): the library's own storage, forwarded untouched.
//!
//! **Typed errors.** cuSPARSELt answers cuSPARSE's `cusparseStatus_t`, with no code for
//! "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUSPARSE_STATUS_NOT_INITIALIZED` (1), when no cuSPARSELt of the
//!   process's release was found: what the real `cusparseLtInit` answers without a GPU, so a
//!   program treats a missing cuSPARSELt as a machine without CUDA; `cuda_stubs_cusparselt_status`
//!   says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `CUSPARSE_STATUS_NOT_SUPPORTED` (10), when the loaded cuSPARSELt lacks
//!   the function (none of the supported versions lacks one today).
//!
//! Error texts are never NULL: `cusparseLtGetErrorName` and `cusparseLtGetErrorString` answer
//! the real library's text, else the enumerator's name (the places searched for the "no
//! library" code's string).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUSPARSE_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUSPARSE_STATUS_NOT_SUPPORTED`) and the export `cuda_stubs_cusparselt_status`, from the
// spec.
stub_loader::stub_library! {
    name: cusparselt,
    spec: stub_spec::libraries::CUSPARSELT,
    status_type: types::cusparseStatus_t,
    functions: api::FUNCTIONS,
}
