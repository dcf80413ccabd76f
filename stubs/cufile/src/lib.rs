//! `libstubs_cufile.so`: cuFile, GPUDirect Storage (`cufile.h`; NVIDIA's wheels 1.14 of CUDA 12.9
//! and 1.19 of 13.x), forwarded to the real `libcufile.so.0` found on the first call. Linux only:
//! NVIDIA ships no cuFile for Windows.
//!
//! **A status struct.** cuFile's calls return `CUfileError_t { CUfileOpError err; CUresult
//! cu_err; }` by value (8 bytes, in the integer return register on x86-64 and aarch64). The
//! stub's typed errors are that struct with the code in `err` and `cu_err` 0
//! (`stub_loader::status_value`); the real library's answers are forwarded untouched, `cu_err`
//! included.
//!
//! **A machine without GPUDirect Storage** gets the real library's own answers, as linked
//! normally: its compatibility mode where `cufile.json` allows it, else its errors
//! (`cuFileDriverOpen` without a CUDA driver: `CU_FILE_NVFS_SETUP_ERROR` from 1.14).
//!
//! **One CUDA release per process.** `libcufile.so.0` is every major's soname and links no CUDA
//! library (it opens the driver itself), so its version says its release: a cuFile of another
//! major than the runtime the process uses is refused once loaded (it stays mapped, never
//! called), as the math libraries' copies of one soname are.
//!
//! **Exports.** The C API only: libcufile.so.0 also exports its C++ internals and hundreds of
//! C++ standard library instances (`std::` containers, `operator delete`), which a stub must not
//! interpose on the process (`stub_spec::is_c_entry_point`).
//!
//! **Typed errors.** cuFile has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CU_FILE_DRIVER_NOT_INITIALIZED` (5001), when no cuFile of the
//!   process's release was found: what cuFile answers a call that needs the driver open before
//!   `cuFileDriverOpen` succeeded; `cuda_stubs_cufile_status` says what was searched;
//! - [`STATUS_ABSENT`], `CU_FILE_PLATFORM_NOT_SUPPORTED` (5007), when the loaded cuFile lacks the
//!   function (1.14 has no `cuFileReadv`, no statistics API).
//!
//! - the I/O calls returning `ssize_t` (a byte count, or a negative code: `-1` with `errno`,
//!   `-CU_FILE_*`), refused, answer these codes negated, `-5001` and `-5007`, never 0, which a
//!   program would take for "nothing read" (the spec's `counts_negate_status`).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CU_FILE_DRIVER_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CU_FILE_PLATFORM_NOT_SUPPORTED`) and the export `cuda_stubs_cufile_status`, from the spec.
stub_loader::stub_library! {
    name: cufile,
    spec: stub_spec::libraries::CUFILE,
    status_type: types::CUfileError_t,
    functions: api::FUNCTIONS,
}
