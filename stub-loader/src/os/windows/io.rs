//! The thread's last error and its text, writes to standard error and output, the monotonic and
//! the real-time clock; no trace files.

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
pub(crate) fn write_all(fd: i32, bytes: &[u8]) {
    use windows_sys::Win32::System::Console::STD_ERROR_HANDLE;
    if fd == 2 {
        write_std(STD_ERROR_HANDLE, bytes);
    }
}

/// Writes `bytes` to standard output (the mock device's device-side `printf`). Unlike Linux's
/// `stdout` stream this is unbuffered: the program's C runtime (UCRT or msvcrt, whichever it
/// links) keeps a buffer of its own that a DLL cannot reach, so text printed by kernels may come
/// before the program's earlier, still-buffered `printf` output when standard output is a pipe.
pub(crate) fn write_stdout(bytes: &[u8]) {
    use windows_sys::Win32::System::Console::STD_OUTPUT_HANDLE;
    write_std(STD_OUTPUT_HANDLE, bytes);
}

/// `WriteFile` to one of the standard handles until done or an error.
fn write_std(which: windows_sys::Win32::System::Console::STD_HANDLE, mut bytes: &[u8]) {
    use windows_sys::Win32::Storage::FileSystem::WriteFile;
    use windows_sys::Win32::System::Console::GetStdHandle;
    // SAFETY: no preconditions; NULL or INVALID_HANDLE_VALUE make WriteFile fail below.
    let handle = unsafe { GetStdHandle(which) };
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

/// Nanoseconds since the Unix epoch (`GetSystemTimePreciseAsFileTime`, Windows 8 and later): the
/// mock device's `%globaltimer`, which on a board counts real time too.
pub(crate) fn realtime_ns() -> u64 {
    use windows_sys::Win32::System::SystemInformation::GetSystemTimePreciseAsFileTime;
    /// 100-ns intervals from 1601-01-01 (FILETIME's epoch) to 1970-01-01.
    const UNIX_EPOCH: u64 = 116_444_736_000_000_000;
    let mut t = windows_sys::Win32::Foundation::FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    // SAFETY: a valid out-pointer; the call cannot fail.
    unsafe { GetSystemTimePreciseAsFileTime(&mut t) };
    let ticks = (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
    ticks.saturating_sub(UNIX_EPOCH).saturating_mul(100)
}

unsafe extern "C" {
    /// C99's `snprintf`, for the mock device's device-side `printf` (`stub_loader::sync::
    /// snprintf`). With MinGW, its own implementation (`libmingwex`), as glibc formats: msvcrt's
    /// `snprintf` writes three exponent digits (`1.234568e+004`) and pads `%a`, where a board's
    /// driver writes `1.234568e+04` and `0x1.921fap+1`. With MSVC, the UCRT's, which is C99's.
    #[cfg_attr(target_env = "gnu", link_name = "__mingw_snprintf")]
    pub fn snprintf(
        s: *mut core::ffi::c_char,
        n: usize,
        format: *const core::ffi::c_char,
        ...
    ) -> core::ffi::c_int;
}
