use crate::types::CUresult;
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY};
use core::ffi::{CStr, c_char};

/// `CUDA_ERROR_INVALID_VALUE`: what the driver returns for a code it does not know.
const INVALID_VALUE: CUresult = 1;

fn own_text(error: CUresult, name: bool) -> Option<&'static CStr> {
    let loaded = LIBRARY.loaded();
    Some(match (error, name) {
        (0, true) => c"CUDA_SUCCESS",
        (0, false) => c"no error",
        (STATUS_NO_LIBRARY, true) => c"CUDA_ERROR_STUB_LIBRARY",
        (STATUS_NO_LIBRARY, false) if !loaded.is_bound() => loaded.summary(),
        (STATUS_NO_LIBRARY, false) => c"CUDA driver is a stub library",
        (STATUS_ABSENT, true) => c"CUDA_ERROR_NOT_SUPPORTED",
        (STATUS_ABSENT, false) => {
            c"operation not supported (cuda-stubs: entry point absent from the installed driver)"
        }
        _ => return None,
    })
}

/// Shared body of the two hand-written exports: forward when a driver is bound, else answer
/// for the stub's own codes and, like the driver, reject others with `CUDA_ERROR_INVALID_VALUE`
/// and `*p_str = NULL`.
fn describe(
    error: CUresult,
    p_str: *mut *const c_char,
    name: bool,
    forward: unsafe fn(CUresult, *mut *const c_char) -> CUresult,
) -> CUresult {
    if LIBRARY.loaded().is_bound() {
        // SAFETY: same prototype in every driver; p_str is the caller's.
        let r = unsafe { forward(error, p_str) };
        if r != STATUS_ABSENT {
            return r;
        }
    }
    if p_str.is_null() {
        return INVALID_VALUE;
    }
    let text = own_text(error, name);
    // SAFETY: p_str is non-NULL and points to the caller's `const char *`.
    unsafe { *p_str = text.map_or(core::ptr::null(), CStr::as_ptr) };
    if text.is_some() { 0 } else { INVALID_VALUE }
}

/// `CUresult cuGetErrorString(CUresult error, const char **pStr)` (cuda.h, all versions).
///
/// # Safety
/// `p_str` is NULL or points to writable storage for one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGetErrorString(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    describe(error, p_str, false, |e, p| unsafe {
        crate::api::cuGetErrorString::Forward::call(e, p)
    })
}

/// `CUresult cuGetErrorName(CUresult error, const char **pStr)` (cuda.h, all versions).
///
/// # Safety
/// `p_str` is NULL or points to writable storage for one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGetErrorName(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    describe(error, p_str, true, |e, p| unsafe {
        crate::api::cuGetErrorName::Forward::call(e, p)
    })
}
