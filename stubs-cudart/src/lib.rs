//! `libstubs_cudart.so`: the CUDA runtime API (`cuda_runtime_api.h`, CUDA 11.8, 12.x, 13.x),
//! forwarded to the real `libcudart.so.13`, `.12` or `.11.0` found on the first call.
//!
//! Typed errors:
//! - `cudaErrorStubLibrary` (34) when no libcudart was found: the runtime's own code for "this
//!   is a stub, the real library is missing";
//! - `cudaErrorNotSupported` (801) when the loaded runtime lacks the function
//!   (`cudaThreadSynchronize` on 13.x) or has it with another ABI and no adapter exists.
//!
//! `cudaGetErrorString` and `cudaGetErrorName` answer for both without the real library.

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
pub mod types;

#[allow(non_snake_case)]
mod api;

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
mod abi_types;

#[allow(non_snake_case)]
mod adapters;
mod error_string;

use stub_loader::{Gating, Library, LibrarySpec, Soname, VersionProbe};
use types::cudaError_t;

static SPEC: LibrarySpec = LibrarySpec {
    name: "cudart",
    sonames: &[
        Soname {
            name: c"libcudart.so.13",
            major: 13,
        },
        Soname {
            name: c"libcudart.so.12",
            major: 12,
        },
        Soname {
            name: c"libcudart.so.11.0",
            major: 11,
        },
    ],
    env_path: "CUDA_STUBS_CUDART_PATH",
    wheel_dirs: &["nvidia/cu13/lib", "nvidia/cuda_runtime/lib"],
    version: VersionProbe::OneInt(c"cudaRuntimeGetVersion"),
    companion: None,
    replacements: REPLACEMENTS,
    gating: Gating::Exact,
};

/// Thread-era calls CUDA 13.0 removed, bound on 13.x to the device-era calls that replaced
/// them in CUDA 4.0: same prototypes, same semantics (cuda_runtime_api.h 12.9 marks each
/// "deprecated, use cudaDevice…").
static REPLACEMENTS: &[(&core::ffi::CStr, &core::ffi::CStr)] = &[
    (c"cudaThreadExit", c"cudaDeviceReset"),
    (c"cudaThreadSynchronize", c"cudaDeviceSynchronize"),
    (c"cudaThreadSetLimit", c"cudaDeviceSetLimit"),
    (c"cudaThreadGetLimit", c"cudaDeviceGetLimit"),
    (c"cudaThreadGetCacheConfig", c"cudaDeviceGetCacheConfig"),
    (c"cudaThreadSetCacheConfig", c"cudaDeviceSetCacheConfig"),
];

/// The real libcudart, searched for on the first call.
pub(crate) static LIBRARY: Library = Library::new(&SPEC);

/// Returned by every function when no libcudart was found: `cudaErrorStubLibrary`.
pub const STATUS_NO_LIBRARY: cudaError_t = 34;
/// Returned by a function the loaded runtime lacks or cannot take with this ABI:
/// `cudaErrorNotSupported`.
pub const STATUS_ABSENT: cudaError_t = 801;

/// `int cuda_stubs_cudart_status(cuda_stubs_status *out)` (`cuda_stubs.h`): finds the real
/// libcudart if no call has yet, and describes what is bound. Returns 0, or -1 for a NULL `out`.
///
/// # Safety
/// `out` is NULL or points to writable storage for one `cuda_stubs_status`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_stubs_cudart_status(
    out: *mut stub_loader::CudaStubsStatus,
) -> core::ffi::c_int {
    // SAFETY: forwarded contract.
    unsafe { stub_loader::fill_status(&LIBRARY, out) }
}
