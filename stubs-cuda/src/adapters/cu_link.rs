//! `cuLinkCreate`, `cuLinkAddData`, `cuLinkAddFile` (each also as its `_v2` ABI name, the one
//! cuda.h's macros call; same prototypes in 11.8, 12.9 and 13.5), `cuLinkComplete`,
//! `cuLinkDestroy`: a link given PTX newer than the driver — or a fat binary whose only code for
//! the device is such PTX — holds that input back from the driver, which would answer 222
//! `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`, and `cuLinkComplete` hands out the CUBIN nvJitLink
//! links from every input of the link (`stub_loader::device_code::link`). A link without such
//! an input is the driver's from start to end; its inputs are also copied while it lives.
//!
//! - The held-back input answers `CUDA_SUCCESS`; `cuLinkComplete` fills `cuLinkCreate`'s log
//!   buffers and wall time as the driver would, and answers `CUDA_ERROR_INVALID_PTX` (218) with
//!   nvJitLink's error log when nvJitLink cannot link them.
//! - Without an nvJitLink that reads the PTX, the input goes to the driver (222), and
//!   `CUDA_STUBS_DEBUG` says what would fix it; without a current context, too.
//!
//! Errors: `CUDA_ERROR_STUB_LIBRARY` (34) without a driver; otherwise the driver's own.

use super::device::{current_sm, driver_version};
use crate::types::{CUjit_option, CUjitInputType, CUlinkState, CUresult};
use core::ffi::{CStr, c_char, c_uint, c_void};
use stub_loader::device_code::Driver;
use stub_loader::device_code::link::{self, Added, Completed};

/// `CUDA_ERROR_INVALID_PTX`.
const INVALID_PTX: CUresult = 218;

fn driver() -> Driver<'static> {
    Driver {
        library: "cuda",
        cuda_version: driver_version(),
        device_sm: &current_sm,
    }
}

/// Records a link the driver made.
///
/// # Safety
/// cuLinkCreate's contract for the arrays.
unsafe fn created(
    code: CUresult,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
    stateOut: *mut CUlinkState,
) -> CUresult {
    if code == 0 && !stateOut.is_null() {
        // SAFETY: the driver wrote the state; the arrays per the caller's contract.
        unsafe {
            link::created(
                (*stateOut).cast(),
                options.cast_const(),
                optionValues,
                numOptions,
            )
        };
    }
    code
}

/// `CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void
/// **optionValues, CUlinkState *stateOut)`.
///
/// # Safety
/// The CUDA API contract of `cuLinkCreate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkCreate_v2(
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
    stateOut: *mut CUlinkState,
) -> CUresult {
    // SAFETY: forwarded contract.
    let code = unsafe {
        crate::api::cuLinkCreate_v2::Forward::call(numOptions, options, optionValues, stateOut)
    };
    // SAFETY: the same arrays.
    unsafe { created(code, numOptions, options, optionValues, stateOut) }
}

/// `cuLinkCreate`: the unsuffixed ABI name of [`cuLinkCreate_v2`], same prototype.
///
/// # Safety
/// The CUDA API contract of `cuLinkCreate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkCreate(
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
    stateOut: *mut CUlinkState,
) -> CUresult {
    // SAFETY: forwarded contract.
    let code = unsafe {
        crate::api::cuLinkCreate::Forward::call(numOptions, options, optionValues, stateOut)
    };
    // SAFETY: the same arrays.
    unsafe { created(code, numOptions, options, optionValues, stateOut) }
}

/// Whether input `data` (`size` bytes) of `type_` is held back from the driver.
///
/// # Safety
/// `data` is readable for `size` bytes when not NULL.
unsafe fn held_back(
    entry: &str,
    state: CUlinkState,
    type_: CUjitInputType,
    data: *const c_void,
    size: usize,
) -> bool {
    if data.is_null() || size == 0 || driver_version() == 0 {
        return false;
    }
    // SAFETY: caller's contract.
    let bytes = unsafe { core::slice::from_raw_parts(data.cast::<u8>(), size) };
    link::add(entry, state.cast(), type_ as c_uint, bytes, driver()) == Added::HeldBack
}

/// `CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
/// const char *name, unsigned int numOptions, CUjit_option *options, void **optionValues)`.
///
/// # Safety
/// The CUDA API contract of `cuLinkAddData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkAddData_v2(
    state: CUlinkState,
    type_: CUjitInputType,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
) -> CUresult {
    // SAFETY: `data` holds `size` bytes (the API's contract).
    if unsafe { held_back("cuLinkAddData", state, type_, data, size) } {
        return 0;
    }
    // SAFETY: forwarded contract.
    unsafe {
        crate::api::cuLinkAddData_v2::Forward::call(
            state,
            type_,
            data,
            size,
            name,
            numOptions,
            options,
            optionValues,
        )
    }
}

/// `cuLinkAddData`: the unsuffixed ABI name of [`cuLinkAddData_v2`], same prototype.
///
/// # Safety
/// The CUDA API contract of `cuLinkAddData`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkAddData(
    state: CUlinkState,
    type_: CUjitInputType,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
) -> CUresult {
    // SAFETY: `data` holds `size` bytes (the API's contract).
    if unsafe { held_back("cuLinkAddData", state, type_, data, size) } {
        return 0;
    }
    // SAFETY: forwarded contract.
    unsafe {
        crate::api::cuLinkAddData::Forward::call(
            state,
            type_,
            data,
            size,
            name,
            numOptions,
            options,
            optionValues,
        )
    }
}

/// Whether the file at `path` (an input of `type_`) is held back from the driver.
///
/// # Safety
/// `path` is NULL or NUL-terminated.
unsafe fn file_held_back(state: CUlinkState, type_: CUjitInputType, path: *const c_char) -> bool {
    if path.is_null() || driver_version() == 0 {
        return false;
    }
    // SAFETY: caller's contract.
    let path = unsafe { CStr::from_ptr(path) };
    let Some(bytes) = link::read_input_file(path, type_ as c_uint) else {
        return false;
    };
    link::add(
        "cuLinkAddFile",
        state.cast(),
        type_ as c_uint,
        &bytes,
        driver(),
    ) == Added::HeldBack
}

/// `CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
/// unsigned int numOptions, CUjit_option *options, void **optionValues)`.
///
/// # Safety
/// The CUDA API contract of `cuLinkAddFile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkAddFile_v2(
    state: CUlinkState,
    type_: CUjitInputType,
    path: *const c_char,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
) -> CUresult {
    // SAFETY: a NUL-terminated path (the API's contract).
    if unsafe { file_held_back(state, type_, path) } {
        return 0;
    }
    // SAFETY: forwarded contract.
    unsafe {
        crate::api::cuLinkAddFile_v2::Forward::call(
            state,
            type_,
            path,
            numOptions,
            options,
            optionValues,
        )
    }
}

/// `cuLinkAddFile`: the unsuffixed ABI name of [`cuLinkAddFile_v2`], same prototype.
///
/// # Safety
/// The CUDA API contract of `cuLinkAddFile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkAddFile(
    state: CUlinkState,
    type_: CUjitInputType,
    path: *const c_char,
    numOptions: c_uint,
    options: *mut CUjit_option,
    optionValues: *mut *mut c_void,
) -> CUresult {
    // SAFETY: a NUL-terminated path (the API's contract).
    if unsafe { file_held_back(state, type_, path) } {
        return 0;
    }
    // SAFETY: forwarded contract.
    unsafe {
        crate::api::cuLinkAddFile::Forward::call(
            state,
            type_,
            path,
            numOptions,
            options,
            optionValues,
        )
    }
}

/// `CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)`.
///
/// # Safety
/// The CUDA API contract of `cuLinkComplete`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkComplete(
    state: CUlinkState,
    cubinOut: *mut *mut c_void,
    sizeOut: *mut usize,
) -> CUresult {
    if cubinOut.is_null() || sizeOut.is_null() {
        // SAFETY: forwarded contract (the driver refuses them).
        return unsafe { crate::api::cuLinkComplete::Forward::call(state, cubinOut, sizeOut) };
    }
    match link::complete(state.cast(), driver()) {
        Completed::Cubin(cubin, size) => {
            // SAFETY: checked non-NULL; the API's out-parameters.
            unsafe {
                *cubinOut = cubin.cast_mut();
                *sizeOut = size;
            }
            0
        }
        Completed::Failed => INVALID_PTX,
        // SAFETY: forwarded contract.
        Completed::Forward => unsafe {
            crate::api::cuLinkComplete::Forward::call(state, cubinOut, sizeOut)
        },
    }
}

/// `CUresult cuLinkDestroy(CUlinkState state)`.
///
/// # Safety
/// The CUDA API contract of `cuLinkDestroy`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLinkDestroy(state: CUlinkState) -> CUresult {
    // SAFETY: forwarded contract.
    let code = unsafe { crate::api::cuLinkDestroy::Forward::call(state) };
    if code == 0 {
        link::destroyed(state.cast());
    }
    code
}
