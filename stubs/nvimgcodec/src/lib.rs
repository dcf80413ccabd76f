//! `libstubs_nvimgcodec.so`: nvImageCodec (`nvimgcodec.h`; NVIDIA's wheels 0.6.1 of CUDA 11.8,
//! 0.9.0 of 12.9 and of 13.x), forwarded to the real `libnvimgcodec.so.0` found on the first
//! call. Everything here is the generated spec (`src/generated/`) and this file's data.
//!
//! **Self-describing structs, untouched.** nvImageCodec's structs begin with `struct_type`,
//! `struct_size` and `struct_next`, which the library reads itself; the stub passes the
//! pointers on as they are.
//!
//! **Its extensions are not stubbed.** The codec extensions (`extensions/lib*_ext.so.0.*`:
//! nvJPEG's, nvJPEG2000's, nvTIFF's …) are plug-ins the real library loads itself from its own
//! folder, and they load the libraries they wrap by their sonames.
//!
//! **One CUDA release per process.** nvImageCodec links the runtime statically, has one soname
//! in every major and the same version (0.9.0) in two, and works on the device memory and
//! streams of the program's runtime. Before its search the stub reads which `libcudart.so.*`
//! the process has (else the release of the other libraries under the rule, `stub_loader`'s
//! `search/release.rs`); once a candidate is loaded, `nvimgcodecGetProperties` says the runtime
//! it was built with (`cudart_version`), and a copy of another major is refused (it stays
//! mapped, never called).
//!
//! **Its C API only.** NVIDIA's 0.6.1 file also defines 102 of the driver's entry points
//! (`cuInit` …, its own copies) and the C++ runtime's `__cxa_init_primary_exception`; the stub
//! exports none of them (the spec's `ExportSource::WheelsWithPrefix`), so it never interposes
//! them on the process.
//!
//! **Typed errors.** nvImageCodec has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVIMGCODEC_STATUS_NOT_INITIALIZED` (1), when no nvImageCodec of
//!   the process's release was found; `cuda_stubs_nvimgcodec_status` says what was searched and
//!   why each copy was rejected;
//! - [`STATUS_ABSENT`], `NVIMGCODEC_STATUS_IMPLEMENTATION_UNSUPPORTED` (9), when the loaded
//!   nvImageCodec lacks the function.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVIMGCODEC_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`NVIMGCODEC_STATUS_IMPLEMENTATION_UNSUPPORTED`) and the export
// `cuda_stubs_nvimgcodec_status`, from the spec.
stub_loader::stub_library! {
    name: nvimgcodec,
    spec: stub_spec::libraries::NVIMGCODEC,
    status_type: types::nvimgcodecStatus_t,
    functions: api::FUNCTIONS,
}
