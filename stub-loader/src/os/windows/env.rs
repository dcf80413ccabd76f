//! The environment (`GetEnvironmentVariableW`); Windows has no secure-execution processes.

use super::wide::{from_wide, to_wide};
use core::ffi::CStr;

/// Windows has no secure-execution processes (setuid, file capabilities): always false.
pub fn secure_execution() -> bool {
    false
}

/// An environment variable (`GetEnvironmentVariableW`, as UTF-8): `None` when unset or empty.
/// The value is kept for the life of the process, as `getenv`'s is on Linux: the loader reads
/// a handful of variables, once per search.
pub(crate) fn env_var(name: &CStr) -> Option<&'static [u8]> {
    use windows_sys::Win32::System::Environment::GetEnvironmentVariableW;
    let wide = to_wide(name.to_bytes(), false);
    let mut size = 256usize;
    loop {
        let mut buf: alloc::vec::Vec<u16> = alloc::vec![0; size];
        let cap = u32::try_from(size).unwrap_or(u32::MAX);
        // SAFETY: a NUL-terminated name and a writable buffer of `cap` units.
        let n = unsafe { GetEnvironmentVariableW(wide.as_ptr(), buf.as_mut_ptr(), cap) } as usize;
        if n == 0 {
            return None; // unset, or empty
        }
        if n < size {
            let value = from_wide(buf.get(..n).unwrap_or_default());
            return Some(alloc::boxed::Box::leak(value.into_boxed_slice()));
        }
        size = n; // too small: `n` is the size needed, NUL included
    }
}
