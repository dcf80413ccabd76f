//! `cudaGetLastError` and `cudaPeekAtLastError` once the stub has refused a call (see
//! `stub_loader::LastError`): the real runtime's own last error first, then the stub's. When the
//! stub records a failure of its own (a refusal, an injected fault) it first clears the runtime's
//! older one, so the newest failure is what both readers answer.
//!
//! Until the first refusal in the process both names are bound straight to the real runtime
//! (one `jmp *slot`, no wrapper); these take over their slots from then on, and from the start
//! when no runtime is bound. With no runtime bound both answer `cudaErrorStubLibrary` (34) on
//! every read, sticky as the real runtime's error without a driver is
//! (`stub_loader::Library::unbound_last_error`).

use crate::LIBRARY;
use crate::adapters::RawFn;
use crate::types::cudaError_t;

/// The readers' names: the spec's (`cudaGetLastError`, `cudaPeekAtLastError`).
const NAMES: stub_spec::LastErrorReaders = match stub_spec::libraries::CUDART.last_error {
    Some(names) => names,
    None => panic!("the runtime's spec names its last-error readers"),
};

/// The real readers, looked up by name (ungated: `cudaError_t f(void)` in every major).
static REAL_GET: RawFn = RawFn::new(NAMES.take);
static REAL_PEEK: RawFn = RawFn::new(NAMES.peek);

/// The readers and their wrappers, for the spec (`LastError::readers`).
pub(crate) static READERS: &[(&core::ffi::CStr, stub_loader::StatusReader)] = &[
    (NAMES.take, get_last_error),
    (NAMES.peek, peek_at_last_error),
];

fn call_real(f: &RawFn) -> cudaError_t {
    match f.get() {
        // SAFETY: `cudaError_t cudaGetLastError(void)` / `cudaPeekAtLastError(void)`, all majors.
        Some(p) => unsafe {
            core::mem::transmute::<*mut core::ffi::c_void, unsafe extern "C" fn() -> cudaError_t>(p)(
            )
        },
        None => 0,
    }
}

/// `cudaError_t cudaGetLastError(void)` (cuda_runtime_api.h, every major): returns the last
/// error of the calling thread and resets it to `cudaSuccess`. The real runtime's error wins;
/// the stub's own (801 `cudaErrorNotSupported`) is returned when the runtime has none. Both are
/// cleared. With no runtime bound: 34 `cudaErrorStubLibrary`, never cleared.
unsafe extern "C" fn get_last_error() -> cudaError_t {
    if let Some(code) = LIBRARY.unbound_last_error() {
        return code;
    }
    let real = call_real(&REAL_GET);
    let ours = stub_loader::take_last_refusal();
    if real != 0 { real } else { ours }
}

/// `cudaError_t cudaPeekAtLastError(void)`: like [`get_last_error`] without clearing either.
unsafe extern "C" fn peek_at_last_error() -> cudaError_t {
    if let Some(code) = LIBRARY.unbound_last_error() {
        return code;
    }
    let real = call_real(&REAL_PEEK);
    if real != 0 {
        real
    } else {
        stub_loader::peek_last_refusal()
    }
}
