//! The calling thread's "last error" of refusals: what a stub did not call, recorded so that a
//! runtime-API program sees it the way it sees a failed call of the real runtime
//! (`cudaPeekAtLastError` returns it, `cudaGetLastError` returns and clears it).
//!
//! One thread-local key (`pthread_key_t`; on Windows a TLS index) holding the code itself as
//! the pointer value: nothing is allocated, no destructor is needed, and a thread that never
//! had a refusal pays nothing.

use crate::once::Once;
use crate::os::{TlsKey, tls_create, tls_get, tls_set};
use core::ffi::c_void;

static KEY: Once<Option<TlsKey>> = Once::new();

fn key() -> Option<TlsKey> {
    // `tls_create` calls no stub: never a re-entry.
    KEY.get_or_init(tls_create).copied().flatten()
}

/// Records `code` as the calling thread's last refusal (0 clears it).
pub fn set_last_refusal(code: u32) {
    if let Some(key) = key() {
        // SAFETY: a key created above; the value is an integer, never dereferenced.
        unsafe { tls_set(key, code as usize as *const c_void) };
    }
}

/// The calling thread's last refusal code, 0 when none.
pub fn peek_last_refusal() -> u32 {
    match KEY.get().copied().flatten() {
        // SAFETY: a key created by `key()`.
        Some(key) => (unsafe { tls_get(key) }) as usize as u32,
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
