//! `libstubs_nvtx.so`: NVTX's annotation API (`nvToolsExt.h` and its CUDA, runtime, OpenCL and
//! synchronisation headers: NVTX version 2), forwarded to the real `libnvToolsExt.so.1` found
//! on the first call. Everything here is the generated spec (`src/generated/`: `api.rs`,
//! `types.rs`) and this file's data: no code of its own.
//!
//! **NVTX's release is its own.** `libnvToolsExt.so.1` has one soname, one export table and
//! one ABI in every CUDA release that ships it (11.x to 12.8; NVIDIA's wheels 11.8.86 and
//! 12.8.90 export the same 65 names), links no CUDA library and has no version function. So
//! the stub binds any copy it finds, whatever the process's CUDA release (no release rule), and
//! the status API reports version 0, "CUDA release unknown". CUDA 12.9 and 13.x ship no
//! `libnvToolsExt` (NVTX 3 is header-only): a program linked with `-lnvToolsExt` binds the
//! stub, and the stub whatever copy of an older release is there, or none.
//!
//! **Results without a library.** NVTX has no status type. What NVIDIA's library answers when
//! no tool is injected (`NVTX_INJECTION64_PATH` unset), which is also what NVTX promises a
//! program when nothing listens, is what the stub answers with no library:
//! - the pushes and pops (`nvtxRangePushA`, `nvtxRangePop`, `nvtxDomainRangePushEx` …, `int`)
//!   answer `NVTX_NO_PUSH_POP_TRACKING` (-2): the spec makes `int` NVTX's status type, so
//!   [`STATUS_NO_LIBRARY`] and [`STATUS_ABSENT`] are -2. The loader's default for a plain
//!   integer, 0, would read as "pushed, nesting level 0": a silent success;
//! - range ids (`nvtxRangeStartA`, `nvtxRangeId_t`) answer 0, and handles
//!   (`nvtxDomainCreateA`, `nvtxDomainRegisterStringA`, `nvtxDomainSyncUserCreate`) NULL, as
//!   NVIDIA's library does without a tool; `nvtxGetExportTable` (exported, declared by no
//!   header of version 2) answers NULL, "no such table";
//! - the `void` calls (markers, names) do nothing.
//!
//! Each refusal is counted and logged like any stub's (`CUDA_STUBS_DEBUG`), and
//! `cuda_stubs_nvtx_status` says what was searched.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` and `STATUS_ABSENT` (both `NVTX_NO_PUSH_POP_TRACKING`, -2) and
// the export `cuda_stubs_nvtx_status`, from the spec.
stub_loader::stub_library! {
    name: nvtx,
    spec: stub_spec::libraries::NVTX,
    status_type: ::core::ffi::c_int,
    functions: api::FUNCTIONS,
}
