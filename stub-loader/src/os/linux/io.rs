//! `errno` and its text, writes to a descriptor and to the C library's `stdout`, the trace file,
//! the monotonic and the real-time clock.

use alloc::string::String;

/// The calling thread's `errno`.
pub(crate) fn errno() -> i32 {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// `strerror` text of an errno value, e.g. "No such file or directory".
pub(crate) fn errno_text(code: i32) -> String {
    let mut buf = [0u8; 128];
    // SAFETY: buf is writable for its length; the XSI strerror_r NUL-terminates on success.
    let rc = unsafe { libc::strerror_r(code, buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return alloc::format!("errno {code}");
    }
    let len = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(buf.get(..len).unwrap_or_default()).into_owned()
}

/// `write(2)` until done or an error; short writes to a pipe are continued.
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

/// Opens `CUDA_STUBS_TRACE_FILE` for [`write_all`]: `O_WRONLY | O_CREAT | O_APPEND |
/// O_NOFOLLOW | O_CLOEXEC`, and `O_TRUNC` only when asked: a trace file never follows a
/// symbolic link and never clobbers an existing file by default.
pub(crate) fn open_trace_file(path: &str, truncate: bool) -> Result<i32, String> {
    if !path.starts_with('/') {
        return Err("not an absolute path".into());
    }
    let c = alloc::ffi::CString::new(path).map_err(|_| String::from("contains NUL"))?;
    let mut flags =
        libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    if truncate {
        flags |= libc::O_TRUNC;
    }
    // SAFETY: c is a valid NUL-terminated path.
    let fd = unsafe { libc::open(c.as_ptr(), flags, 0o644 as libc::c_uint) };
    if fd < 0 {
        Err(errno_text(errno()))
    } else {
        Ok(fd)
    }
}

/// Monotonic nanoseconds, for call durations.
#[inline]
pub fn clock_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is valid for writing.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(ts.tv_nsec).unwrap_or(0)
}

/// Nanoseconds since the Unix epoch (`CLOCK_REALTIME`): the mock device's `%globaltimer`, which
/// on a board counts real time too.
pub(crate) fn realtime_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is valid for writing.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    u64::try_from(ts.tv_sec)
        .unwrap_or(0)
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::try_from(ts.tv_nsec).unwrap_or(0))
}

unsafe extern "C" {
    /// glibc's `FILE *stdout`.
    static mut stdout: *mut libc::FILE;
}

/// Writes `bytes` to the C stream `stdout`, unflushed: text that must interleave with the
/// program's own buffered `printf` output as a board's driver writes it (the mock device's
/// device-side `printf`).
pub(crate) fn write_stdout(bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: glibc's stdout stream, written with a buffer of `bytes.len()` bytes.
    unsafe { libc::fwrite(bytes.as_ptr().cast(), 1, bytes.len(), stdout) };
}

/// C99's `snprintf`, glibc's (`stub_loader::sync::snprintf`).
pub use libc::snprintf;
