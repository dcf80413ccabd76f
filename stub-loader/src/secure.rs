use core::ffi::CStr;
#[cfg(unix)]
use core::sync::atomic::{AtomicU8, Ordering};

/// True in a secure-execution process (`getauxval(AT_SECURE) != 0`: setuid or setgid binary, or
/// one granted file capabilities). The loader then ignores every path the environment gives, as
/// glibc ignores `LD_LIBRARY_PATH`.
///
/// Read once: `AT_SECURE` is fixed for the life of the process, and every environment variable
/// the loader reads asks for it.
///
/// Windows has no such processes: always false there.
#[cfg(windows)]
pub fn secure_execution() -> bool {
    false
}

/// See the Windows variant.
#[cfg(unix)]
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

/// Reads an environment variable the loader may trust (`getenv`): `None` when unset, empty, or
/// in a secure-execution process.
#[cfg(unix)]
pub(crate) fn trusted_var(name: &CStr) -> Option<&'static [u8]> {
    if secure_execution() {
        return None;
    }
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

/// Reads an environment variable (`GetEnvironmentVariableW`, as UTF-8): `None` when unset or
/// empty. The value is kept for the life of the process, as `getenv`'s is on Linux: the loader
/// reads a handful of variables, once per search.
#[cfg(windows)]
pub(crate) fn trusted_var(name: &CStr) -> Option<&'static [u8]> {
    use windows_sys::Win32::System::Environment::GetEnvironmentVariableW;
    let wide = crate::wide::to_wide(name.to_bytes(), false);
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
            let value = crate::wide::from_wide(buf.get(..n).unwrap_or_default());
            return Some(alloc::boxed::Box::leak(value.into_boxed_slice()));
        }
        size = n; // too small: `n` is the size needed, NUL included
    }
}

/// [`trusted_var`] as text (lossy UTF-8).
pub(crate) fn trusted_text(name: &CStr) -> Option<alloc::string::String> {
    trusted_var(name).map(|v| alloc::string::String::from_utf8_lossy(v).into_owned())
}
