//! One thread-local word per key (a TLS index), for `last_error.rs`. And the calling thread's
//! identity, for `once.rs`.

use core::ffi::c_void;
use windows_sys::Win32::System::Threading::{
    GetCurrentThreadId, TLS_OUT_OF_INDEXES, TlsAlloc, TlsGetValue, TlsSetValue,
};

/// A thread-local key.
pub(crate) type TlsKey = u32;

/// A new TLS index; `None` when the process has none left.
pub(crate) fn tls_create() -> Option<TlsKey> {
    // SAFETY: no preconditions.
    let index = unsafe { TlsAlloc() };
    (index != TLS_OUT_OF_INDEXES).then_some(index)
}

/// Sets the calling thread's value of `key`.
///
/// # Safety
/// `key` came from [`tls_create`].
pub(crate) unsafe fn tls_set(key: TlsKey, value: *const c_void) {
    // SAFETY: by contract.
    unsafe { TlsSetValue(key, value) };
}

/// The calling thread's value of `key` (NULL until set).
///
/// # Safety
/// `key` came from [`tls_create`].
pub(crate) unsafe fn tls_get(key: TlsKey) -> *mut c_void {
    // SAFETY: by contract.
    unsafe { TlsGetValue(key) }
}

/// The calling thread (`GetCurrentThreadId`, never 0 for a thread): what `once.rs` compares to
/// tell a call made from inside its own initialisation.
pub(crate) fn thread_id() -> usize {
    // SAFETY: no preconditions.
    unsafe { GetCurrentThreadId() as usize }
}
