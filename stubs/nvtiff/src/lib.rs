//! `libstubs_nvtiff.so`: nvTIFF (`nvtiff.h`; NVIDIA's wheels 0.8.0 of CUDA 12 and 13),
//! forwarded to the real `libnvtiff.so.0` found on the first call. Everything here is the
//! generated spec (`src/generated/`) and this file's data.
//!
//! **Allocators, untouched.** nvTIFF takes structs of function pointers, the program's
//! allocators (`nvtiffDeviceAllocator_t`, `nvtiffPinnedAllocator_t`), which it calls itself;
//! the stub passes the pointers to the structs on as they are.
//!
//! **One CUDA release per process.** nvTIFF links the runtime statically, has one soname and
//! one version (0.8.0) in both majors, and works on the device memory and streams of the
//! program's runtime. Before its search the stub reads which `libcudart.so.*` the process has
//! (else the release of the other libraries under the rule, `stub_loader`'s
//! `search/release.rs`); once a candidate is loaded, the PTX ISA of its device code says the
//! release it was built for, and a copy of another major is refused (it stays mapped, never
//! called).
//!
//! **Typed errors.** nvTIFF has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVTIFF_STATUS_NOT_INITIALIZED` (1), when no nvTIFF of the
//!   process's release was found; `cuda_stubs_nvtiff_status` says what was searched and why
//!   each copy was rejected;
//! - [`STATUS_ABSENT`], `NVTIFF_STATUS_TIFF_NOT_SUPPORTED` (4), when the loaded nvTIFF lacks
//!   the function: nvTIFF has no "not supported" code for a call, and this one is never the
//!   answer to a correct call on a supported file (`NVTIFF_STATUS_INTERNAL_ERROR`, 8, is what
//!   decoder creation answers without a GPU).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVTIFF_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`NVTIFF_STATUS_TIFF_NOT_SUPPORTED`) and the export `cuda_stubs_nvtiff_status`, from the spec.
stub_loader::stub_library! {
    name: nvtiff,
    spec: stub_spec::libraries::NVTIFF,
    status_type: types::nvtiffStatus_t,
    functions: api::FUNCTIONS,
}
