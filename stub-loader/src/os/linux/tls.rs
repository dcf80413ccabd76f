//! One thread-local word per key (`pthread_key_t`), for `last_error.rs`; the calls are the
//! glibc-floor ones (`glibc.rs`). And the calling thread's identity, for `once.rs`.

use super::glibc;
use core::ffi::c_void;

/// A thread-local key.
pub(crate) type TlsKey = libc::pthread_key_t;

/// A new key, without destructor (the values are codes, not allocations); `None` when the
/// process has none left.
pub(crate) fn tls_create() -> Option<TlsKey> {
    let mut key: TlsKey = 0;
    // SAFETY: a valid out-pointer; no destructor.
    (unsafe { glibc::pthread_key_create(&mut key, None) } == 0).then_some(key)
}

/// Sets the calling thread's value of `key`.
///
/// # Safety
/// `key` came from [`tls_create`].
pub(crate) unsafe fn tls_set(key: TlsKey, value: *const c_void) {
    // SAFETY: by contract.
    unsafe { glibc::pthread_setspecific(key, value) };
}

/// The calling thread's value of `key` (NULL until set).
///
/// # Safety
/// `key` came from [`tls_create`].
pub(crate) unsafe fn tls_get(key: TlsKey) -> *mut c_void {
    // SAFETY: by contract.
    unsafe { glibc::pthread_getspecific(key) }
}

/// The calling thread (`pthread_self`: in `libc.so.6` at the floor's version on every glibc),
/// never 0: what `once.rs` compares to tell a call made from inside its own initialisation.
pub(crate) fn thread_id() -> usize {
    // SAFETY: no preconditions.
    unsafe { libc::pthread_self() as usize }
}
