//! `libstubs_cupti.so`: CUPTI (`cupti.h` and the profiling headers beside it; CUPTI 11.8 of
//! CUDA 11.x, 12.9 of 12.x, 13.4 of 13.x), forwarded to the real `libcupti.so.13`,
//! `libcupti.so.12` or `libcupti.so.11.<minor>` found on the first call. Everything here is the
//! generated spec (`src/generated/`: `api.rs`, `types.rs`, `status_texts.rs`) and this file's
//! data: CUPTI needs no hand-written export and no adapter.
//!
//! **The release.** CUPTI's soname carries the CUDA major, so a copy of another release is
//! refused by its name before `dlopen`. Once loaded, `cuptiGetVersion` gives CUPTI's own API
//! version (18 in 11.8, 28 in 12.9, 130401 in 13.4: `VersionProbe::OwnVersion` maps it to the
//! CUDA major); CUPTI 13.x answers it only where it reaches a driver (without `libcuda.so.1`
//! every call of 13.4, this one too, is CUPTI_ERROR_UNKNOWN), and the soname's major stands
//! then.
//!
//! **One CUDA release per process.** CUPTI links the runtime statically and reaches the driver
//! itself; what it traces are the program's runtime and driver calls, and its callback
//! identifiers (`CUPTI_RUNTIME_TRACE_CBID_*`) are its release's. So it is held to the process's
//! release like the math libraries: before its search the stub reads which `libcudart.so.*` the
//! process has (else the release of the other libraries naming the runtime), and a copy of
//! another major is rejected by its soname.
//!
//! **Callbacks and activity buffers, untouched.** `cuptiSubscribe`'s `CUpti_CallbackFunc`,
//! `cuptiActivityRegisterCallbacks`' buffer-request and buffer-completed functions, the
//! timestamp and CRC callbacks and their user data are passed to the real CUPTI as the program
//! gave them: CUPTI calls the program's functions directly, with its own `CUpti_CallbackData`
//! and the buffers the program allocated, and the stub is never between them (no wrapper, no
//! copy). Activity records are the loaded CUPTI's format, read by the program from its own
//! buffers (`cuptiActivityGetNextRecord` forwarded): each record version keeps its layout in
//! every header (`CUpti_ActivityKernel9` is the same in 12.9's and 13.4's), so a program reads
//! the version the CUPTI of its release writes.
//!
//! **Self-sized structures.** The profiling APIs take one parameter structure each
//! (`CUpti_Profiler_*_Params`, `CUpti_RangeProfiler_*_Params`, `CUpti_PmSampling_*_Params` …)
//! whose first field, `structSize`, the caller sets to its header's `*_STRUCT_SIZE` and CUPTI
//! checks before reading anything else (12.9 answers CUPTI_ERROR_INVALID_PARAMETER to a size
//! it does not know). Five of them grew at their end between majors
//! (`CUpti_Profiler_DeviceSupported_Params`: 48, 56, 56 bytes …; manifest/ABI-REPORT.md): their
//! functions keep one ABI (codegen's self-sized rule), and are forwarded on every major. No
//! other structure a function takes differs between majors, so nothing is translated or
//! refused for its layout.
//!
//! **Typed errors.** CUPTI has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], CUPTI_ERROR_NOT_INITIALIZED (15), when no CUPTI of the process's
//!   release was found: "CUPTI is unable to initialize its connection to the CUDA driver", what
//!   11.8 and 12.9 answer `cuptiActivityEnable` and `cuptiSubscribe` on a machine without a
//!   driver, so a program treats a missing CUPTI as a machine without CUDA;
//!   `cuda_stubs_cupti_status` says what was searched and why each copy was rejected;
//! - [`STATUS_ABSENT`], CUPTI_ERROR_API_NOT_IMPLEMENTED (11), when the loaded CUPTI lacks the
//!   function (11.8 has no range profiler, 13.x no `cuptiEnableNonOverlappingMode`): "API is
//!   not implemented".
//!
//! An export no header declares and whose prototype NVIDIA documents nowhere
//! (`cuptiGetRecommendedBufferSize`, `cuptiStateQuery` …: the ABI report's "opaque") is
//! forwarded by a tail jump, and answers CUPTI_ERROR_NOT_INITIALIZED without a library. NVTX's
//! injection entry points (`InitializeInjectionNvtx2` …, for `NVTX_INJECTION64_PATH`) answer
//! 0, NVTX's "failed", without one.
//!
//! Error texts are never NULL: `cuptiGetResultString` (the enumerator's name) and
//! `cuptiGetErrorMessage` (12.x: its description) write the real library's text, else the
//! places searched for the "no library" code and the headers' text for another; both answer
//! CUPTI_ERROR_INVALID_PARAMETER for a code no header defines or a NULL out-pointer, as CUPTI
//! does.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// generated code names it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (CUPTI_ERROR_NOT_INITIALIZED), `STATUS_ABSENT`
// (CUPTI_ERROR_API_NOT_IMPLEMENTED) and the export `cuda_stubs_cupti_status`, from the spec.
stub_loader::stub_library! {
    name: cupti,
    spec: stub_spec::libraries::CUPTI,
    status_type: types::CUptiResult,
    functions: api::FUNCTIONS,
}
