//! `libcuda_stubs_mock.so`: a mock CUDA device for testing CUDA code without a GPU (issue 37).
//!
//! It exports a subset of the runtime API (`cuda_runtime_api.h`), the driver API (`cuda.h`) and
//! NVML (`nvml.h`) under their own names and CUDA 13 ABI, all three over one device model
//! (`device/model.rs`) made from a profile (`device/profile.rs`, chosen by `CUDA_STUBS_MOCK`):
//! the stubs bind it as they bind NVIDIA's libraries, so tracing, fault injection and the ABI
//! adapters apply to it. Every other status function of the three APIs it defines with its
//! exact prototype, answering the library's "not supported" code (`unmodelled.rs`). Device
//! memory is host memory with the profile's accounting; kernels' PTX runs on the CPU (the
//! kernel executor, crate `stub-ptx`: `code/execute.rs`).
//!
//! # Layers
//!
//! Imports go one way, from the device model up to the API faces; each layer imports only
//! those below it (`scripts/check-module-cycles.py stub-mock/src`, in `scripts/test.sh`, checks
//! that no module imports one that imports it back). Bottom up:
//!
//! 1. `device/`: the profile and the model made from it (devices, memory, faults), contexts
//!    and the driver's initialization, handles, the runtime's device properties.
//! 2. `code/`: device code and launches: images and their kernels' parameters, the driver's
//!    modules, the fat binaries and device variables nvcc registers, a launch checked and made
//!    (`code/launch.rs`: `run_kernel`, where the kernel executor is to be called; it takes a
//!    kernel, a launch and device memory, and knows nothing of the faces).
//! 3. `queue/`: what streams run: operations, their issue on a stream, graphs and stream
//!    capture, a kernel launch issued on a stream; a graph's replay runs kernels through
//!    `code/`.
//! 4. The API faces, which import the layers below and never each other: `runtime/`,
//!    `driver/`, `nvml/`.
//!
//! Beside them, leaves that import no layer: the C types (`types.rs`), text into C buffers
//! (`c_text.rs`), the board's error texts (`error_texts.rs`), the runtime's per-thread last error (`last_error.rs`, over the C types), which
//! any layer may import, and the unmodelled functions (`unmodelled.rs`, over the C types and the
//! last error), which none does. This file, the crate's root, exports the mock's own entry
//! points over the layers.
//!
//! Its file name is no NVIDIA soname (never found by a search for a real library), and it never
//! prints, panics or aborts: every entry point answers a status code. It is `no_std` like the
//! stubs, on the loader's runtime (`stub_loader::cdylib_runtime!`, `stub_loader::sync`): it ships
//! beside them, at their glibc floor.

#![no_std]

extern crate alloc;

stub_loader::cdylib_runtime!();

// The layers, bottom up (module docs).
mod device;

mod code;

mod queue;

mod driver;
mod nvml;
mod runtime;

// The leaves.
mod c_text;
mod error_texts;
mod last_error;
mod types;
mod unmodelled;

use alloc::ffi::CString;
use alloc::format;
use core::ffi::c_char;
use stub_loader::sync::Once;

/// The mock's state in words, for the stubs' status and debug log: `mock (profile h200 ×1,
/// driver 580.126.09, CUDA 13.0)`, or why the profile cannot be used. Never NULL; valid for the
/// life of the process.
#[unsafe(no_mangle)]
pub extern "C" fn cuda_stubs_mock_status() -> *const c_char {
    static TEXT: Once<CString> = Once::new();
    let text = TEXT.get_or_init(|| {
        let text = match device::model::model() {
            Ok(m) => {
                let p = &m.profile;
                format!(
                    "mock (profile {} \u{d7}{}, driver {}, CUDA {}.{})",
                    p.name,
                    p.devices.len(),
                    p.driver_version,
                    p.cuda_version / 1000,
                    p.cuda_version % 1000 / 10
                )
            }
            Err(e) => format!("mock: {e}"),
        };
        CString::new(text.replace('\0', " ")).unwrap_or_default()
    });
    // `None` only for a call from inside the profile's loading, which makes none.
    text.map_or(c"mock: loading its profile".as_ptr(), |t| t.as_ptr())
}

/// `1` when the profile `CUDA_STUBS_MOCK` names is usable, `0` when not (the stubs then bind
/// nothing and their status says why: [`cuda_stubs_mock_status`]).
#[unsafe(no_mangle)]
pub extern "C" fn cuda_stubs_mock_ready() -> core::ffi::c_int {
    device::model::model().is_ok() as core::ffi::c_int
}

/// How many functions of `lib` (`"cudart"`, `"cuda"`, `"nvml"`) the mock models and how many
/// it answers "not supported" (`unmodelled.rs`), into `*modelled` and `*refused`: `0`, or `-1`
/// for another name or a NULL pointer. The book's "Testing without a GPU" states the same
/// counts (`tests/tests/mock_device.rs` checks them).
///
/// # Safety
/// `lib` is NULL or a NUL-terminated string; `modelled` and `refused` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_stubs_mock_counts(
    lib: *const c_char,
    modelled: *mut core::ffi::c_int,
    refused: *mut core::ffi::c_int,
) -> core::ffi::c_int {
    if lib.is_null() || modelled.is_null() || refused.is_null() {
        return -1;
    }
    // SAFETY: non-NULL and NUL-terminated, by the contract.
    let lib = unsafe { core::ffi::CStr::from_ptr(lib) };
    match unmodelled::COUNTS
        .iter()
        .find(|(name, _, _)| name.as_bytes() == lib.to_bytes())
    {
        Some(&(_, m, r)) => {
            // SAFETY: non-NULL and writable, by the contract.
            unsafe {
                *modelled = m as core::ffi::c_int;
                *refused = r as core::ffi::c_int;
            }
            0
        }
        None => -1,
    }
}

/// The driver stub's word that `cubin`, which it is about to hand the mock, was made from
/// `image` (NUL-terminated PTX text, or a fat binary): its PTX newer than the profile's driver
/// became a CUBIN through nvJitLink, as for a real driver, and the kernel executor runs the
/// PTX (`code/kernels.rs`). Not in `include/cuda_stubs_mock.h`: the stubs' own channel.
///
/// # Safety
/// `cubin` is an ELF image kept for the process's life; `image` NULL or as `cuModuleLoadData`
/// takes it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_stubs_mock_keep_source(
    cubin: *const core::ffi::c_void,
    image: *const core::ffi::c_void,
) {
    if !cubin.is_null() && !image.is_null() {
        // SAFETY: forwarded contract.
        unsafe { code::kernels::keep_source(cubin as usize, image.cast()) };
    }
}

/// Registers `run` to run in place of kernel `name` on every later launch of it (the driver's
/// `cuLaunchKernel`), with the launch's `kernelParams`, its shape and `user` (it takes
/// precedence over the kernel executor: `include/cuda_stubs_mock.h`). A second registration of a name
/// replaces the first. `0`, or `-1` for a NULL `name` or `run`.
///
/// # Safety
/// `name` is NULL or NUL-terminated; `run` is callable as declared for as long as the process
/// launches `name`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuda_stubs_mock_register_kernel(
    name: *const c_char,
    run: Option<code::launch::HostKernel>,
    user: *mut core::ffi::c_void,
) -> core::ffi::c_int {
    let Some(run) = run else { return -1 };
    if name.is_null() {
        return -1;
    }
    // SAFETY: non-NULL and NUL-terminated, by the contract.
    let name = unsafe { core::ffi::CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    code::launch::register(name, run, user as usize);
    0
}
