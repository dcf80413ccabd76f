//! `cudaLibraryLoadData`, `cudaLibraryLoadFromFile` (cuda_runtime_api.h, CUDA 12.0+; same
//! prototypes in 12.9 and 13.5; 11.x runtimes lack them and the gate refuses): PTX newer than
//! the driver is compiled to a CUBIN by nvJitLink (`stub_loader::device_code`) for the current
//! device, or for every device's architecture when there is none (a fat binary of them when
//! they differ), and the runtime loads that. `cudaJitOption` has `CUjit_option`'s values: the
//! options shape the CUBIN, and the log buffers and wall time are filled as the JIT fills them.
//! Everything else is passed on untouched.
//!
//! Errors: `cudaErrorStubLibrary` (34) without a runtime; otherwise the runtime's own.

use super::device_code::{current_sm, every_sm, reconcile_for};
use crate::types::{cudaError_t, cudaJitOption, cudaLibrary_t, cudaLibraryOption};
use alloc::vec::Vec;
use core::ffi::{c_char, c_uint, c_void};
use stub_loader::device_code::{Image, JitOptions, classify, fatbin_with_cubins, read_image_file};

/// The image to hand the runtime instead of `image`, kept for the process's lifetime, if any.
fn reconciled(entry: &str, image: Image<'_>, jit: &JitOptions) -> Option<&'static [u8]> {
    let sms = || match current_sm() {
        Some(sm) => alloc::vec![sm],
        None => every_sm(),
    };
    let made: Vec<(u32, &'static [u8])> = reconcile_for(entry, image, &sms, jit);
    match made.as_slice() {
        [] => None,
        [(_, one)] => Some(*one),
        many => {
            let fat: &'static [u64] =
                alloc::boxed::Box::leak(fatbin_with_cubins(many, None).into_boxed_slice());
            // SAFETY: plain data, viewed as the bytes it holds.
            Some(unsafe { core::slice::from_raw_parts(fat.as_ptr().cast(), fat.len() * 8) })
        }
    }
}

/// `cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code, enum cudaJitOption
/// *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, enum cudaLibraryOption
/// *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions)`.
///
/// # Safety
/// The CUDA API contract of `cudaLibraryLoadData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLibraryLoadData(
    library: *mut cudaLibrary_t,
    code: *const c_void,
    jitOptions: *mut cudaJitOption,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut cudaLibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> cudaError_t {
    // SAFETY: the API's contract: `numJitOptions` options and values; `code` an image.
    let (jit, seen) = unsafe {
        (
            JitOptions::new(jitOptions.cast_const(), jitOptionsValues, numJitOptions),
            classify(code),
        )
    };
    let (code, jitOptions, jitOptionsValues, numJitOptions) =
        match reconciled("cudaLibraryLoadData", seen, &jit) {
            Some(made) => (
                made.as_ptr().cast(),
                core::ptr::null_mut(),
                core::ptr::null_mut(),
                0,
            ),
            None => (code, jitOptions, jitOptionsValues, numJitOptions),
        };
    // SAFETY: forwarded contract (or the stub's own image, without JIT options).
    unsafe {
        crate::api::cudaLibraryLoadData::Forward::call(
            library,
            code,
            jitOptions,
            jitOptionsValues,
            numJitOptions,
            libraryOptions,
            libraryOptionValues,
            numLibraryOptions,
        )
    }
}

/// `cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName, enum
/// cudaJitOption *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, enum
/// cudaLibraryOption *libraryOptions, void **libraryOptionValues, unsigned int
/// numLibraryOptions)`.
///
/// # Safety
/// The CUDA API contract of `cudaLibraryLoadFromFile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLibraryLoadFromFile(
    library: *mut cudaLibrary_t,
    fileName: *const c_char,
    jitOptions: *mut cudaJitOption,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut cudaLibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> cudaError_t {
    if !fileName.is_null() {
        // SAFETY: a NUL-terminated path (the API's contract).
        let path = unsafe { core::ffi::CStr::from_ptr(fileName) };
        if let Some(bytes) = read_image_file(path) {
            // SAFETY: the API's contract for the options; the file's bytes, NUL-terminated.
            let (jit, seen) = unsafe {
                (
                    JitOptions::new(jitOptions.cast_const(), jitOptionsValues, numJitOptions),
                    classify(bytes.as_ptr().cast()),
                )
            };
            if let Some(made) = reconciled("cudaLibraryLoadFromFile", seen, &jit) {
                // SAFETY: the stub's own image, kept; the library options as given.
                return unsafe {
                    crate::api::cudaLibraryLoadData::Forward::call(
                        library,
                        made.as_ptr().cast(),
                        core::ptr::null_mut(),
                        core::ptr::null_mut(),
                        0,
                        libraryOptions,
                        libraryOptionValues,
                        numLibraryOptions,
                    )
                };
            }
        }
    }
    // SAFETY: forwarded contract.
    unsafe {
        crate::api::cudaLibraryLoadFromFile::Forward::call(
            library,
            fileName,
            jitOptions,
            jitOptionsValues,
            numJitOptions,
            libraryOptions,
            libraryOptionValues,
            numLibraryOptions,
        )
    }
}
