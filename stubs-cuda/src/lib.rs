//! `libstubs_cuda.so`: the CUDA driver API (`cuda.h`, CUDA 11.8, 12.x, 13.x), forwarded to the
//! real `libcuda.so.1` found on the first call. Every function is exported under the ABI name
//! the headers bind it to (`cuMemAlloc_v2`, `cuCtxDestroy_v2`, `cuCtxCreate_v4` …) and resolved
//! to that exact entry point, never to the legacy unsuffixed one.
//!
//! Typed errors:
//! - `CUDA_ERROR_STUB_LIBRARY` (34) when no libcuda.so.1 was found (no driver installed);
//! - `CUDA_ERROR_NOT_SUPPORTED` (801) when the installed driver lacks the entry point.
//!
//! `cuGetErrorString` and `cuGetErrorName` answer for both without the real library.
//!
//! Entry points are resolved through the driver's `cuGetProcAddress` with the CUDA version
//! their ABI belongs to (`cuMemAlloc_v2` is `cuMemAlloc` at 3020; the table is generated from
//! `cudaTypedefs.h`), falling back to `dlsym` of the exact ABI name. Entry points whose struct
//! layout differs on an older driver major are refused there (801) unless an adapter in
//! `src/adapters/` can express the call in that major's layout.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
pub use generated::types;
use generated::{api, proc_address};

// Parameters keep the C names of the prototypes they implement.
#[allow(non_snake_case)]
mod adapters;
mod error_string;

use stub_loader::{Library, LibrarySpec, ProcAddress};
use stub_spec::libraries::CUDA;
use types::CUresult;

static SPEC: LibrarySpec = LibrarySpec {
    real: CUDA.real,
    replacements: &[],
    // The getter from the spec; the table codegen wrote from its typedefs header.
    proc_address: Some(ProcAddress {
        getter: CUDA
            .proc_address
            .expect("the driver's spec names cuGetProcAddress")
            .getter,
        names: proc_address::NAMES,
        entries: proc_address::ENTRIES,
    }),
    last_error: None,
};

/// The real libcuda.so.1 (the driver), searched for on the first call.
pub(crate) static LIBRARY: Library = Library::new(&SPEC, &api::FUNCTIONS);

/// Returned by every function when no driver library was found: `CUDA_ERROR_STUB_LIBRARY`.
pub const STATUS_NO_LIBRARY: CUresult = CUDA.errors.no_library.value;
/// Returned by a function the installed driver lacks: `CUDA_ERROR_NOT_SUPPORTED`.
pub const STATUS_ABSENT: CUresult = CUDA.errors.absent.value;

/// `int cuda_stubs_cuda_status(cuda_stubs_status *out)` (`cuda_stubs.h`): finds the real
/// libcuda if no call has yet, and describes what is bound. Returns 0, or -1 for a NULL `out`.
///
/// # Safety
/// `out` is NULL or points to writable storage for one `cuda_stubs_status`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_stubs_cuda_status(
    out: *mut stub_loader::CudaStubsStatus,
) -> core::ffi::c_int {
    // SAFETY: forwarded contract.
    unsafe { stub_loader::fill_status(&LIBRARY, out) }
}
