use crate::types::cudaError_t;
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY};
use core::ffi::{CStr, c_char};

/// Text for the codes the stub itself returns, when no runtime can be asked.
fn own_text(error: cudaError_t, name: bool) -> &'static CStr {
    let loaded = LIBRARY.loaded();
    match (error, name) {
        (0, true) => c"cudaSuccess",
        (0, false) => c"no error",
        (STATUS_NO_LIBRARY, true) => c"cudaErrorStubLibrary",
        (STATUS_NO_LIBRARY, false) if !loaded.is_bound() => loaded.summary(),
        (STATUS_NO_LIBRARY, false) => c"CUDA driver is a stub library",
        (STATUS_ABSENT, true) => c"cudaErrorNotSupported",
        (STATUS_ABSENT, false) => {
            c"operation not supported (cuda-stubs: function absent from the loaded CUDA runtime, or not translatable to its ABI)"
        }
        (_, true) => c"cudaErrorUnknown",
        (_, false) => c"unrecognized error code (cuda-stubs: no CUDA runtime loaded to describe it)",
    }
}

/// `const char *cudaGetErrorString(cudaError_t error)` (cuda_runtime_api.h, all versions).
///
/// Forwarded when a runtime is bound; otherwise the stub answers, and for
/// `cudaErrorStubLibrary` says where it searched.
///
/// # Safety
/// None beyond the C API's: any value is accepted.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorString(error: cudaError_t) -> *const c_char {
    if LIBRARY.loaded().is_bound() {
        // SAFETY: same prototype in every runtime major.
        let text = unsafe { crate::api::cudaGetErrorString::Forward::call(error) };
        if !text.is_null() {
            return text;
        }
    }
    own_text(error, false).as_ptr()
}

/// `const char *cudaGetErrorName(cudaError_t error)` (cuda_runtime_api.h, all versions).
///
/// Forwarded when a runtime is bound; otherwise the stub names its own codes.
///
/// # Safety
/// None beyond the C API's: any value is accepted.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorName(error: cudaError_t) -> *const c_char {
    if LIBRARY.loaded().is_bound() {
        // SAFETY: same prototype in every runtime major.
        let text = unsafe { crate::api::cudaGetErrorName::Forward::call(error) };
        if !text.is_null() {
            return text;
        }
    }
    own_text(error, true).as_ptr()
}
