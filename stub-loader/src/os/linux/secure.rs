//! Secure execution (`AT_SECURE`) and the environment (`getenv`).

use core::ffi::CStr;
use core::sync::atomic::{AtomicU8, Ordering};

/// True in a secure-execution process (`getauxval(AT_SECURE) != 0`: setuid or setgid binary, or
/// one granted file capabilities). The loader then ignores every path the environment gives, as
/// glibc ignores `LD_LIBRARY_PATH`.
///
/// Read once: `AT_SECURE` is fixed for the life of the process, and every environment variable
/// the loader reads asks for it.
pub fn secure_execution() -> bool {
    // 0 unknown, 1 no, 2 yes. Racing first readers compute the same answer.
    static SECURE: AtomicU8 = AtomicU8::new(0);
    match SECURE.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: getauxval reads the auxiliary vector; it has no preconditions.
            let secure = unsafe { libc::getauxval(libc::AT_SECURE) != 0 };
            SECURE.store(if secure { 2 } else { 1 }, Ordering::Relaxed);
            secure
        }
        v => v == 2,
    }
}

/// An environment variable (`getenv`): `None` when unset or empty. Whether to trust it is the
/// caller's question (`env.rs`).
pub(crate) fn env_var(name: &CStr) -> Option<&'static [u8]> {
    // SAFETY: a NUL-terminated name; the result is NULL or a string in the environment block.
    let value = unsafe { libc::getenv(name.as_ptr()) };
    if value.is_null() {
        return None;
    }
    // SAFETY: getenv returned a NUL-terminated string, which lives as long as the process
    // unless the program changes that variable (the same contract std's var_os relies on).
    let bytes = unsafe { CStr::from_ptr(value) }.to_bytes();
    (!bytes.is_empty()).then_some(bytes)
}
