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
/// Forwarded when the bound runtime has it, its answer unchanged (13.x's runtime without a
/// driver answers NULL for its own codes, as a program linked to it sees); otherwise the stub
/// answers, and for `cudaErrorStubLibrary` says where it searched.
///
/// # Safety
/// None beyond the C API's: any value is accepted.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorString(error: cudaError_t) -> *const c_char {
    if real_has(c"cudaGetErrorString") {
        // SAFETY: same prototype in every runtime major.
        return unsafe { crate::api::cudaGetErrorString::Forward::call(error) };
    }
    own_text(error, false).as_ptr()
}

/// `const char *cudaGetErrorName(cudaError_t error)` (cuda_runtime_api.h, all versions).
///
/// Forwarded when the bound runtime has it, its answer unchanged (NULL included, see
/// [`cudaGetErrorString`]); otherwise the stub names its own codes.
///
/// # Safety
/// None beyond the C API's: any value is accepted.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorName(error: cudaError_t) -> *const c_char {
    if real_has(c"cudaGetErrorName") {
        // SAFETY: same prototype in every runtime major.
        return unsafe { crate::api::cudaGetErrorName::Forward::call(error) };
    }
    own_text(error, true).as_ptr()
}

/// Whether a runtime is bound and exports `name`: only then is its answer the program's
/// (a runtime without the function would make the call a refusal, whose fallback answers NULL).
fn real_has(name: &CStr) -> bool {
    LIBRARY.ungated_symbol(name).is_some()
}
