//! `libstubs_nvcomp.so`: nvCOMP's C API (`nvcomp.h`; NVIDIA's wheels 5.0.0 of CUDA 11.8, 6.0.0
//! of 12.9 and of 13.x), forwarded to the real `libnvcomp.so.6` (CUDA 12, 13) or
//! `libnvcomp.so.5` (CUDA 11) found on the first call. Everything here is the generated spec
//! (`src/generated/`) and this file's data.
//!
//! **Two ABIs, one per soname.** nvCOMP's soname is its own major, and 6.0 changed the C API
//! (5.x's `nvcompBatched<Format>CompressGetTempSizeAsync` became `…GetTempSize` with a stream;
//! the option structs gained fields out of their reserved bytes): the stub's CUDA 11
//! declarations are 5.0's, its CUDA 12 and 13 ones 6.0's, and `libnvcomp.so.5` is searched
//! for CUDA 11 only. A call a program built against one header makes on the other's library
//! (a name the loaded version lacks) is the "absent" code, never a jump through NULL.
//!
//! **One CUDA release per process.** nvCOMP links the runtime statically, has one soname in
//! two majors and the same version (6.0.0) in both, and works on the device memory and streams
//! of the program's runtime. Before its search the stub reads which `libcudart.so.*` the
//! process has (else the release of the other libraries under the rule, `stub_loader`'s
//! `search/release.rs`); once a candidate is loaded, `nvcompGetProperties` says the runtime it
//! was built with (`cudart_version`), and a copy of another major is refused (it stays mapped,
//! never called).
//!
//! **Its C API only.** NVIDIA's files also define the C++ runtime's `__cxa_call_terminate`,
//! nvCOMP's C++ classes and the native Bitcomp API (`bitcomp*`, `bitcompResult_t`); the stub
//! exports none of them (the spec's `ExportSource::WheelsWithPrefix`).
//!
//! **Typed errors.** nvCOMP has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `nvcompErrorInternal` (10000), when no nvCOMP of the process's
//!   release was found; `cuda_stubs_nvcomp_status` says what was searched and why each copy was
//!   rejected (`nvcompErrorCudaError`, 1000, is the real library's answer without a device);
//! - [`STATUS_ABSENT`], `nvcompErrorNotSupported` (11), when the loaded nvCOMP lacks the
//!   function. `nvcompGetStatusString` answers the header's text of every code without one.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`nvcompErrorInternal`), `STATUS_ABSENT`
// (`nvcompErrorNotSupported`) and the export `cuda_stubs_nvcomp_status`, from the spec.
stub_loader::stub_library! {
    name: nvcomp,
    spec: stub_spec::libraries::NVCOMP,
    status_type: types::nvcompStatus_t,
    functions: api::FUNCTIONS,
}
