//! `cuModuleLoad`, `cuModuleLoadData`, `cuModuleLoadDataEx`, `cuModuleLoadFatBinary` (cuda.h,
//! every major; same prototypes in 11.8, 12.9 and 13.5): PTX newer than the driver — plain, or
//! the only code a fat binary holds for the device — is compiled to a CUBIN for the current
//! context's device by nvJitLink (`stub_loader::device_code`), and the driver loads that; every
//! other image is passed on untouched, the only cost a look at its first bytes.
//!
//! - `cuModuleLoadDataEx`'s JIT options shape the CUBIN (max registers, optimization level,
//!   debug and line info, verbose) and its info and error log buffers and wall time are filled
//!   as the driver's JIT fills them; the CUBIN is then loaded without options.
//! - `cuModuleLoad` reads the file when it is not ELF, and loads a reconciled image with
//!   `cuModuleLoadData`.
//! - Without a current context the image is passed on (the driver answers
//!   `CUDA_ERROR_INVALID_CONTEXT`); without an nvJitLink that reads the PTX, too (the driver
//!   answers 222, `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`), and `CUDA_STUBS_DEBUG` says what would
//!   fix it.
//!
//! Errors: `CUDA_ERROR_STUB_LIBRARY` (34) without a driver; otherwise the driver's own.

use super::device::{current_sm, prepare_for, tell_mock_source};
use crate::types::{CUjit_option, CUmodule, CUresult};
use core::ffi::{c_char, c_uint, c_void};
use stub_loader::device_code::{JitOptions, Outcome, classify, read_image_file};

/// `CUresult cuModuleLoadData(CUmodule *module, const void *image)`.
///
/// # Safety
/// The CUDA API contract of `cuModuleLoadData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) -> CUresult {
    // SAFETY: an image the driver takes (the API's contract).
    let seen = unsafe { classify(image) };
    let image = match prepare_for("cuModuleLoadData", seen, &current_sm, &JitOptions::NONE) {
        Outcome::Cubin(r) => {
            tell_mock_source(r.cubin, image);
            r.cubin.as_ptr().cast()
        }
        _ => image,
    };
    // SAFETY: forwarded contract.
    unsafe { crate::api::cuModuleLoadData::Forward::call(module, image) }
}

/// `CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
/// CUjit_option *options, void **optionValues)`.
///
/// # Safety
/// The CUDA API contract of `cuModuleLoadDataEx`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut CUmodule,
    image: *const c_void,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
) -> CUresult {
    // SAFETY: the API's contract: `numOptions` options and values.
    let jit = unsafe { JitOptions::new(options.cast_const(), optionValues, numOptions) };
    // SAFETY: an image the driver takes.
    let seen = unsafe { classify(image) };
    match prepare_for("cuModuleLoadDataEx", seen, &current_sm, &jit) {
        Outcome::Cubin(r) => {
            tell_mock_source(r.cubin, image);
            // SAFETY: a CUBIN the stub keeps for the process's lifetime; no options.
            let code = unsafe {
                crate::api::cuModuleLoadDataEx::Forward::call(
                    module,
                    r.cubin.as_ptr().cast(),
                    0,
                    core::ptr::null_mut(),
                    core::ptr::null_mut(),
                )
            };
            jit.report(&r.info_log, b"", r.millis);
            code
        }
        // SAFETY: forwarded contract.
        _ => unsafe {
            crate::api::cuModuleLoadDataEx::Forward::call(
                module,
                image,
                numOptions,
                options,
                optionValues,
            )
        },
    }
}

/// `CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)`.
///
/// # Safety
/// The CUDA API contract of `cuModuleLoadFatBinary`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoadFatBinary(
    module: *mut CUmodule,
    fatCubin: *const c_void,
) -> CUresult {
    // SAFETY: a fat binary (or its wrapper), per the API's contract.
    let seen = unsafe { classify(fatCubin) };
    match prepare_for(
        "cuModuleLoadFatBinary",
        seen,
        &current_sm,
        &JitOptions::NONE,
    ) {
        // A CUBIN is not a fat binary: loaded as the image it is.
        Outcome::Cubin(r) => {
            tell_mock_source(r.cubin, fatCubin);
            // SAFETY: a CUBIN the stub keeps.
            unsafe { crate::api::cuModuleLoadData::Forward::call(module, r.cubin.as_ptr().cast()) }
        }
        // SAFETY: forwarded contract.
        _ => unsafe { crate::api::cuModuleLoadFatBinary::Forward::call(module, fatCubin) },
    }
}

/// `CUresult cuModuleLoad(CUmodule *module, const char *fname)`.
///
/// # Safety
/// The CUDA API contract of `cuModuleLoad`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoad(module: *mut CUmodule, fname: *const c_char) -> CUresult {
    if !fname.is_null() {
        // SAFETY: a NUL-terminated path (the API's contract).
        let path = unsafe { core::ffi::CStr::from_ptr(fname) };
        if let Some(bytes) = read_image_file(path) {
            // SAFETY: the file's bytes, NUL-terminated.
            let seen = unsafe { classify(bytes.as_ptr().cast()) };
            if let Outcome::Cubin(r) =
                prepare_for("cuModuleLoad", seen, &current_sm, &JitOptions::NONE)
            {
                tell_mock_source(r.cubin, bytes.as_ptr().cast());
                // SAFETY: a CUBIN the stub keeps.
                return unsafe {
                    crate::api::cuModuleLoadData::Forward::call(module, r.cubin.as_ptr().cast())
                };
            }
        }
    }
    // SAFETY: forwarded contract.
    unsafe { crate::api::cuModuleLoad::Forward::call(module, fname) }
}
