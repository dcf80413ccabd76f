//! Text into a caller's C buffer, as NVIDIA's libraries write it: the runtime and the driver
//! cut it to fit (`cuDeviceGetName`, `cudaDeviceGetPCIBusId`), NVML writes it whole or not at
//! all (`NVML_ERROR_INSUFFICIENT_SIZE`).

use core::ffi::c_char;

/// Writes `text` into `buf` (`len` bytes), cut to `len - 1` bytes and terminated; `false` for
/// a NULL `buf` or a `len` of 0, nothing written.
///
/// # Safety
/// `buf` is NULL or writable for `len` bytes.
pub unsafe fn write_cut(text: &str, buf: *mut c_char, len: usize) -> bool {
    if buf.is_null() || len == 0 {
        return false;
    }
    let n = text.len().min(len - 1);
    // SAFETY: `buf` holds `len` bytes, by the contract; n + 1 <= len.
    unsafe {
        core::ptr::copy_nonoverlapping(text.as_ptr().cast(), buf, n);
        *buf.add(n) = 0;
    }
    true
}

/// Whether `text` and its terminator fit in `len` bytes.
pub fn fits(text: &str, len: usize) -> bool {
    text.len() < len
}
