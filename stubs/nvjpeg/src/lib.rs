//! `libstubs_nvjpeg.so`: nvJPEG (`nvjpeg.h`; NVIDIA's wheels 11.9 of CUDA 11.8, 12.4 of 12.9,
//! 13.2 of 13.4), forwarded to the real `libnvjpeg.so.13`, `.12` or `.11` found on the first
//! call. Everything here is the generated spec (`src/generated/`) and this file's data.
//!
//! **Allocators and callbacks, untouched.** nvJPEG takes structs of function pointers, the
//! program's allocators (`nvjpegDevAllocator_t`, `nvjpegPinnedAllocator_t`, and the V2 structs
//! with a context pointer), which it calls from its own threads. The stub passes the pointers to
//! the structs on as they are: nvJPEG reads the program's structs and calls the program's
//! functions directly, never through the stub. Their layouts are the same in the three majors
//! (codegen's ABI report), so nothing is translated.
//!
//! **One CUDA release per process.** nvJPEG links the runtime statically and works on the device
//! memory and streams of the program's runtime, so its copy must be of the process's release:
//! before its search the stub reads which `libcudart.so.*` the process has (else the release of
//! the other libraries under the rule, `stub_loader`'s `search/release.rs`), and a candidate of
//! another major is refused by its soname, before `dlopen`.
//!
//! **Typed errors.** nvJPEG has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVJPEG_STATUS_EXECUTION_FAILED` (6), when no nvJPEG of the
//!   process's release was found: what the real library's handle creation answers when CUDA
//!   cannot be set up, so a program treats a missing nvJPEG as a machine without CUDA;
//!   `cuda_stubs_nvjpeg_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], `NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED` (9), when the loaded nvJPEG
//!   lacks the function (11.x has no `nvjpegEncode`, 13.x no
//!   `nvjpegEncoderParamsCopyHuffmanTables`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVJPEG_STATUS_EXECUTION_FAILED`), `STATUS_ABSENT`
// (`NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED`) and the export `cuda_stubs_nvjpeg_status`, from
// the spec.
stub_loader::stub_library! {
    name: nvjpeg,
    spec: stub_spec::libraries::NVJPEG,
    status_type: types::nvjpegStatus_t,
    functions: api::FUNCTIONS,
}
