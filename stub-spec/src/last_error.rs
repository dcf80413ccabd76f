//! The readers of an API's per-thread last error ([`crate::Library::last_error`]): the runtime's
//! `cudaGetLastError` and `cudaPeekAtLastError`.

use core::ffi::CStr;

/// The two functions that answer an API's per-thread last error, each `status f(void)`. A call
/// the stub cannot make (no library, the name absent, an ABI it cannot translate) is recorded
/// there as well as returned, so that a program checking the last error after a call whose
/// result it cannot check (a `void` or pointer-returning one) sees it: the stubs' wrappers of
/// these readers merge that record with the real library's own (`stub_loader::LastError`), and a
/// compatibility library's do the same for its own refusals (`stub-compat`).
#[derive(Debug, Clone, Copy)]
pub struct LastErrorReaders {
    /// Returns the last error and resets it (`cudaGetLastError`).
    pub take: &'static CStr,
    /// Returns the last error and keeps it (`cudaPeekAtLastError`).
    pub peek: &'static CStr,
}
