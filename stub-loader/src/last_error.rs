//! The calling thread's "last error" of refusals: what a stub did not call, recorded so that a
//! runtime-API program sees it the way it sees a failed call of the real runtime
//! (`cudaPeekAtLastError` returns it, `cudaGetLastError` returns and clears it).
//!
//! One thread-local key (`pthread_key_t`; on Windows a TLS index) holding the code itself as
//! the pointer value: nothing is allocated, no destructor is needed, and a thread that never
//! had a refusal pays nothing.

use crate::once::Once;
use core::ffi::c_void;

#[cfg(unix)]
mod key {
    pub(super) type Key = libc::pthread_key_t;

    pub(super) fn create() -> Option<Key> {
        let mut key: Key = 0;
        // SAFETY: a valid out-pointer; no destructor (the values are codes, not allocations).
        (unsafe { crate::glibc::pthread_key_create(&mut key, None) } == 0).then_some(key)
    }

    /// # Safety
    /// `key` came from [`create`].
    pub(super) unsafe fn set(key: Key, value: *const core::ffi::c_void) {
        // SAFETY: by contract.
        unsafe { crate::glibc::pthread_setspecific(key, value) };
    }

    /// # Safety
    /// `key` came from [`create`].
    pub(super) unsafe fn get(key: Key) -> *mut core::ffi::c_void {
        // SAFETY: by contract.
        unsafe { crate::glibc::pthread_getspecific(key) }
    }
}

#[cfg(windows)]
mod key {
    use windows_sys::Win32::System::Threading::{
        TLS_OUT_OF_INDEXES, TlsAlloc, TlsGetValue, TlsSetValue,
    };

    pub(super) type Key = u32;

    pub(super) fn create() -> Option<Key> {
        // SAFETY: no preconditions.
        let index = unsafe { TlsAlloc() };
        (index != TLS_OUT_OF_INDEXES).then_some(index)
    }

    /// # Safety
    /// `key` came from [`create`].
    pub(super) unsafe fn set(key: Key, value: *const core::ffi::c_void) {
        // SAFETY: by contract.
        unsafe { TlsSetValue(key, value) };
    }

    /// # Safety
    /// `key` came from [`create`].
    pub(super) unsafe fn get(key: Key) -> *mut core::ffi::c_void {
        // SAFETY: by contract.
        unsafe { TlsGetValue(key) }
    }
}

static KEY: Once<Option<key::Key>> = Once::new();

fn key() -> Option<key::Key> {
    *KEY.get_or_init(key::create)
}

/// Records `code` as the calling thread's last refusal (0 clears it).
pub fn set_last_refusal(code: u32) {
    if let Some(key) = key() {
        // SAFETY: a key created above; the value is an integer, never dereferenced.
        unsafe { key::set(key, code as usize as *const c_void) };
    }
}

/// The calling thread's last refusal code, 0 when none.
pub fn peek_last_refusal() -> u32 {
    match KEY.get().copied().flatten() {
        // SAFETY: a key created by `key()`.
        Some(key) => (unsafe { key::get(key) }) as usize as u32,
        None => 0,
    }
}

/// The calling thread's last refusal code, cleared; 0 when none.
pub fn take_last_refusal() -> u32 {
    let code = peek_last_refusal();
    if code != 0 {
        set_last_refusal(0);
    }
    code
}
