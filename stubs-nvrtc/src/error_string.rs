use crate::types::nvrtcResult;
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY};
use core::ffi::c_char;

/// `const char *nvrtcGetErrorString(nvrtcResult result)` (nvrtc.h, all versions).
///
/// Forwarded when a libnvrtc is bound. Without one, answers itself: for the stub's
/// "library not found" status, the list of places searched.
///
/// # Safety
/// None beyond the C API's: any value is accepted.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvrtcGetErrorString(result: nvrtcResult) -> *const c_char {
    let loaded = LIBRARY.loaded();
    if loaded.is_bound() {
        // SAFETY: same prototype in every NVRTC major.
        let text = unsafe { crate::api::nvrtcGetErrorString::Forward::call(result) };
        if !text.is_null() {
            return text;
        }
    }
    match result {
        0 => c"NVRTC_SUCCESS".as_ptr(),
        STATUS_NO_LIBRARY if !loaded.is_bound() => loaded.summary().as_ptr(),
        STATUS_ABSENT => c"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (cuda-stubs: function absent from the loaded NVRTC)".as_ptr(),
        _ => c"NVRTC_ERROR unknown (cuda-stubs: no libnvrtc loaded)".as_ptr(),
    }
}
