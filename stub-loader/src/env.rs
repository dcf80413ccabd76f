//! The environment variables the loader may trust: none in a secure-execution process
//! ([`crate::secure_execution`]), as glibc ignores `LD_LIBRARY_PATH` there.

use crate::os::{env_var, secure_execution};
use core::ffi::CStr;

/// Reads an environment variable the loader may trust: `None` when unset, empty, or in a
/// secure-execution process.
pub(crate) fn trusted_var(name: &CStr) -> Option<&'static [u8]> {
    if secure_execution() {
        return None;
    }
    env_var(name)
}

/// [`trusted_var`] as text (lossy UTF-8).
pub(crate) fn trusted_text(name: &CStr) -> Option<alloc::string::String> {
    trusted_var(name).map(|v| alloc::string::String::from_utf8_lossy(v).into_owned())
}
