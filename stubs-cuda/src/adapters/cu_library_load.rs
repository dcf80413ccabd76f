//! `cuLibraryLoadData`, `cuLibraryLoadFromFile` (cuda.h, CUDA 12.0+; same prototypes in 12.9
//! and 13.5; 11.x drivers lack them and the gate answers `CUDA_ERROR_NOT_SUPPORTED`): as
//! `cu_module_load.rs`, PTX newer than the driver is compiled to CUBIN by nvJitLink before the
//! driver sees it. A library is loaded for every device, context or not, so the CUBIN is made
//! for each device architecture present (a fat binary of them when the devices differ); with
//! a current context, for its device only, as the driver's own JIT would first.
//!
//! JIT options shape the CUBIN and their log buffers and wall time are filled as for
//! `cuModuleLoadDataEx`; the library options are passed on unchanged.
//!
//! Errors: `CUDA_ERROR_STUB_LIBRARY` (34) without a driver, `CUDA_ERROR_NOT_SUPPORTED` (801)
//! on a driver without `cuLibraryLoad*`; otherwise the driver's own.

use super::device::{current_sm, driver_version, every_sm, prepare_for};
use crate::types::{CUjit_option, CUlibrary, CUlibraryOption, CUresult};
use alloc::vec::Vec;
use core::ffi::{c_char, c_uint, c_void};
use stub_loader::device_code::{
    Image, JitOptions, Outcome, classify, fatbin_with_cubins, newer_than_driver, read_image_file,
};

/// The image to hand the driver instead of `image`, if any: one CUBIN, or a fat binary of one
/// CUBIN per architecture; with the info log and wall time to report. Kept for the process's
/// lifetime (the driver may read a library's code lazily, at its first kernel).
fn reconciled(entry: &str, image: Image<'_>, jit: &JitOptions) -> Option<&'static [u8]> {
    // Only PTX newer than the driver needs the devices asked.
    newer_than_driver(image, driver_version())?;
    let sms = match current_sm() {
        Some(sm) => alloc::vec![sm],
        None => every_sm(),
    };
    let mut made: Vec<(u32, &'static [u8])> = Vec::new();
    let (mut info, mut millis) = (Vec::new(), 0.0);
    for sm in sms {
        let device = move || Some(sm);
        if let Outcome::Cubin(r) = prepare_for(entry, image, &device, jit) {
            info.extend_from_slice(&r.info_log);
            millis += r.millis;
            made.push((r.sm, r.cubin));
        }
    }
    let chosen = match made.as_slice() {
        [] => return None,
        [(_, one)] => *one,
        many => {
            let fat = fatbin_with_cubins(many, None);
            let fat: &'static [u64] = alloc::boxed::Box::leak(fat.into_boxed_slice());
            // SAFETY: plain data, viewed as the bytes it holds.
            unsafe { core::slice::from_raw_parts(fat.as_ptr().cast(), fat.len() * 8) }
        }
    };
    jit.report(&info, b"", millis);
    Some(chosen)
}

/// `CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
/// void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void
/// **libraryOptionValues, unsigned int numLibraryOptions)`.
///
/// # Safety
/// The CUDA API contract of `cuLibraryLoadData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLibraryLoadData(
    library: *mut CUlibrary,
    code: *const c_void,
    jitOptions: *mut CUjit_option,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut CUlibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> CUresult {
    // SAFETY: the API's contract: `numJitOptions` options and values; `code` an image.
    let (jit, seen) = unsafe {
        (
            JitOptions::new(jitOptions.cast_const(), jitOptionsValues, numJitOptions),
            classify(code),
        )
    };
    let (code, jitOptions, jitOptionsValues, numJitOptions) =
        match reconciled("cuLibraryLoadData", seen, &jit) {
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
        crate::api::cuLibraryLoadData::Forward::call(
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

/// `CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option
/// *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption
/// *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions)`.
///
/// # Safety
/// The CUDA API contract of `cuLibraryLoadFromFile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLibraryLoadFromFile(
    library: *mut CUlibrary,
    fileName: *const c_char,
    jitOptions: *mut CUjit_option,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut CUlibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> CUresult {
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
            if let Some(made) = reconciled("cuLibraryLoadFromFile", seen, &jit) {
                // SAFETY: the stub's own image, kept; the library options as given.
                return unsafe {
                    crate::api::cuLibraryLoadData::Forward::call(
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
        crate::api::cuLibraryLoadFromFile::Forward::call(
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
