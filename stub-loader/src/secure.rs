/// True in a secure-execution process (`getauxval(AT_SECURE) != 0`: setuid or setgid binary, or
/// one granted file capabilities). The loader then ignores every path the environment gives, as
/// glibc ignores `LD_LIBRARY_PATH`.
pub fn secure_execution() -> bool {
    // SAFETY: getauxval reads the auxiliary vector; it has no preconditions.
    unsafe { libc::getauxval(libc::AT_SECURE) != 0 }
}

/// Reads an environment variable the loader may trust: `None` in secure-execution processes.
pub(crate) fn trusted_var(name: &str) -> Option<std::ffi::OsString> {
    if secure_execution() {
        return None;
    }
    std::env::var_os(name).filter(|v| !v.is_empty())
}
