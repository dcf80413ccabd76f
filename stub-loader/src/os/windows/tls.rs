//! One thread-local word per key (a TLS index), for `last_error.rs`.

use core::ffi::c_void;
use windows_sys::Win32::System::Threading::{
    TLS_OUT_OF_INDEXES, TlsAlloc, TlsGetValue, TlsSetValue,
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
