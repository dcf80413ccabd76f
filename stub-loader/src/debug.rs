use core::sync::atomic::{AtomicU8, Ordering};

/// True when `CUDA_STUBS_DEBUG` is set to anything but empty or `0`. Like `LD_DEBUG=libs`, the
/// loader then writes one line per candidate and one for the final choice to stderr; otherwise
/// it never prints. Read once; ignored in secure-execution processes, whose stderr may reach
/// someone the paths should not.
pub fn debug_enabled() -> bool {
    // 0 unknown, 1 off, 2 on. Racing first readers compute the same answer.
    static ON: AtomicU8 = AtomicU8::new(0);
    match ON.load(Ordering::Relaxed) {
        0 => {
            let on = crate::secure::trusted_var(c"CUDA_STUBS_DEBUG").is_some_and(|v| v != b"0");
            ON.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Bytes shown as text, each invalid UTF-8 sequence as U+FFFD: a `Display`, so that a debug line
/// not written costs nothing (a `format_args!` argument is evaluated whether or not the line is
/// written; `to_string_lossy` would validate, and maybe copy, every time).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lossy<'a>(pub(crate) &'a [u8]);

impl core::fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

/// Writes one debug line with one `write(2)`; errors writing stderr are ignored (a closed
/// stderr must not matter).
pub(crate) fn line(lib: &str, text: core::fmt::Arguments<'_>) {
    if debug_enabled() {
        let text = alloc::format!("cuda-stubs[{lib}]: {text}\n");
        write_all(2, text.as_bytes());
    }
}

/// `write(2)` until done or an error; short writes to a pipe are continued.
#[cfg(unix)]
pub(crate) fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: a valid buffer of bytes.len() bytes.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(n) {
            Ok(n) if n > 0 => bytes = bytes.get(n..).unwrap_or_default(),
            _ if n < 0 && errno() == libc::EINTR => {}
            _ => return,
        }
    }
}

/// `WriteFile` to standard error (`fd` 2, the only one the Windows loader writes: trace files
/// are Linux-only) until done or an error.
#[cfg(windows)]
pub(crate) fn write_all(fd: i32, mut bytes: &[u8]) {
    use windows_sys::Win32::Storage::FileSystem::WriteFile;
    use windows_sys::Win32::System::Console::{GetStdHandle, STD_ERROR_HANDLE};
    if fd != 2 {
        return;
    }
    // SAFETY: no preconditions; NULL or INVALID_HANDLE_VALUE make WriteFile fail below.
    let handle = unsafe { GetStdHandle(STD_ERROR_HANDLE) };
    while !bytes.is_empty() {
        let mut n = 0u32;
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        // SAFETY: a valid buffer of `len` bytes, no overlapped I/O.
        let ok = unsafe { WriteFile(handle, bytes.as_ptr(), len, &mut n, core::ptr::null_mut()) };
        if ok == 0 || n == 0 {
            return;
        }
        bytes = bytes.get(n as usize..).unwrap_or_default();
    }
}

/// The calling thread's `errno`.
#[cfg(unix)]
pub(crate) fn errno() -> i32 {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// The calling thread's last Win32 error (`GetLastError`), Windows' `errno`.
#[cfg(windows)]
pub(crate) fn errno() -> i32 {
    // SAFETY: no preconditions.
    unsafe { windows_sys::Win32::Foundation::GetLastError() as i32 }
}

/// The system's text of a Win32 error code.
#[cfg(windows)]
pub(crate) fn errno_text(code: i32) -> alloc::string::String {
    crate::loadlibrary::error_text(code as u32)
}

/// `strerror` text of an errno value, e.g. "No such file or directory".
#[cfg(unix)]
pub(crate) fn errno_text(code: i32) -> alloc::string::String {
    let mut buf = [0u8; 128];
    // SAFETY: buf is writable for its length; the XSI strerror_r NUL-terminates on success.
    let rc = unsafe { libc::strerror_r(code, buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return alloc::format!("errno {code}");
    }
    let len = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    alloc::string::String::from_utf8_lossy(buf.get(..len).unwrap_or_default()).into_owned()
}
