//! `libstubs_nvjpeg2k.so`: nvJPEG2000 (`nvjpeg2k.h`; NVIDIA's wheels 0.9.0 of CUDA 11.8, 0.11.0
//! of 12.9 and of 13.x), forwarded to the real `libnvjpeg2k.so.0` found on the first call.
//! Everything here is the generated spec (`src/generated/`) and this file's data.
//!
//! **Allocators, untouched.** nvJPEG2000 takes structs of function pointers, the program's
//! allocators (`nvjpeg2kDeviceAllocator_t`, `nvjpeg2kPinnedAllocator_t`), which it calls
//! itself; the stub passes the pointers to the structs on as they are.
//!
//! **One CUDA release per process.** nvJPEG2000 links the runtime statically, has one soname
//! in every major and the same version (0.11.0) in two, and works on the device memory and
//! streams of the program's runtime. Before its search the stub reads which `libcudart.so.*`
//! the process has (else the release of the other libraries under the rule, `stub_loader`'s
//! `search/release.rs`); once a candidate is loaded, `nvjpeg2kGetCudartProperty` says the
//! runtime it was built with, and a copy of another major is refused (it stays mapped, never
//! called).
//!
//! **Typed errors.** nvJPEG2000 has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVJPEG2K_STATUS_NOT_INITIALIZED` (1), when no nvJPEG2000 of the
//!   process's release was found; `cuda_stubs_nvjpeg2k_status` says what was searched and why
//!   each copy was rejected;
//! - [`STATUS_ABSENT`], `NVJPEG2K_STATUS_IMPLEMENTATION_NOT_SUPPORTED` (9), when the loaded
//!   nvJPEG2000 lacks the function (0.11 has no `nvjpeg2kEncodeParamsSetQuality`, 0.9 no
//!   `nvjpeg2kEncodeParamsSetNLTInfo`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVJPEG2K_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`NVJPEG2K_STATUS_IMPLEMENTATION_NOT_SUPPORTED`) and the export `cuda_stubs_nvjpeg2k_status`,
// from the spec.
stub_loader::stub_library! {
    name: nvjpeg2k,
    spec: stub_spec::libraries::NVJPEG2K,
    status_type: types::nvjpeg2kStatus_t,
    functions: api::FUNCTIONS,
}
