//! The thread's last error and its text, writes to standard error, the monotonic clock; no
//! trace files.

use super::wide::from_wide;
use alloc::string::String;
use windows_sys::Win32::System::Diagnostics::Debug::{
    FORMAT_MESSAGE_FROM_SYSTEM, FORMAT_MESSAGE_IGNORE_INSERTS, FormatMessageW,
};

/// The calling thread's last Win32 error (`GetLastError`), Windows' `errno`.
pub(crate) fn errno() -> i32 {
    // SAFETY: no preconditions.
    unsafe { windows_sys::Win32::Foundation::GetLastError() as i32 }
}

/// The system's text of a Win32 error code, as [`error_text`] gives it.
pub(crate) fn errno_text(code: i32) -> String {
    error_text(code as u32)
}

/// The system's text of a Win32 error code (`FormatMessageW`), e.g. "The specified module could
/// not be found." with the code.
pub(crate) fn error_text(code: u32) -> String {
    let mut buf = [0u16; 512];
    // SAFETY: a writable buffer of its length; no inserts are expanded.
    let n = unsafe {
        FormatMessageW(
            FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
            core::ptr::null(),
            code,
            0,
            buf.as_mut_ptr(),
            u32::try_from(buf.len()).unwrap_or(0),
            core::ptr::null(),
        )
    };
    let text = from_wide(buf.get(..n as usize).unwrap_or_default());
    let text = String::from_utf8_lossy(&text);
    alloc::format!("{} (error {code})", text.trim_end())
}

/// `WriteFile` to standard error (`fd` 2, the only one the Windows loader writes: trace files
/// are Linux-only) until done or an error.
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

/// Trace files are Linux-only for now: on Windows, traces go to standard error.
pub(crate) fn open_trace_file(_path: &str, _truncate: bool) -> Result<i32, String> {
    Err("trace files are not supported on Windows (traces go to standard error)".into())
}

/// Monotonic nanoseconds, for call durations (`QueryPerformanceCounter`).
#[inline]
pub fn clock_ns() -> u64 {
    use windows_sys::Win32::System::Performance::{
        QueryPerformanceCounter, QueryPerformanceFrequency,
    };
    let (mut count, mut freq) = (0i64, 0i64);
    // SAFETY: valid out-pointers; both succeed on every Windows since XP.
    unsafe {
        QueryPerformanceCounter(&mut count);
        QueryPerformanceFrequency(&mut freq);
    }
    let (count, freq) = (count.unsigned_abs(), freq.unsigned_abs().max(1));
    u64::try_from(u128::from(count) * 1_000_000_000 / u128::from(freq)).unwrap_or(u64::MAX)
}
