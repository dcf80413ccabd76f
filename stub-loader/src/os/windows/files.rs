//! Files on Windows: their attributes (`GetFileAttributesW`), the checks of a candidate file
//! before `LoadLibraryExW`, and a Python environment's `site-packages`.

use super::io::errno;
use super::wide::to_wide;
use crate::search::Reject;
use crate::search::paths::join;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;
use windows_sys::Win32::Storage::FileSystem::{
    FILE_ATTRIBUTE_DIRECTORY, GetFileAttributesW, INVALID_FILE_ATTRIBUTES,
};

/// `ERROR_FILE_NOT_FOUND`, `ERROR_PATH_NOT_FOUND`.
const NO_FILE: [i32; 2] = [2, 3];

/// `GetFileAttributesW` says directory.
pub(crate) fn is_dir(path: &CStr) -> bool {
    attributes(path).is_some_and(|a| a & FILE_ATTRIBUTE_DIRECTORY != 0)
}

/// `GetFileAttributesW` says a file (not a directory).
pub(crate) fn is_file(path: &CStr) -> bool {
    attributes(path).is_some_and(|a| a & FILE_ATTRIBUTE_DIRECTORY == 0)
}

/// The file's attributes, `None` (with the thread's last error set) when it cannot be read.
fn attributes(path: &CStr) -> Option<u32> {
    let wide = to_wide(path.to_bytes(), true);
    // SAFETY: a NUL-terminated path.
    let a = unsafe { GetFileAttributesW(wide.as_ptr()) };
    (a != INVALID_FILE_ATTRIBUTES).then_some(a)
}

/// Checks a candidate file before `LoadLibraryExW`: it exists and is not a folder. Nothing
/// else is read: the loader's own error says what a file is not.
pub(crate) fn check_file(path: &CStr) -> Result<(), Reject> {
    match attributes(path) {
        None if NO_FILE.contains(&errno()) => Err(Reject::NotFound),
        None => Err(Reject::CannotStat(errno())),
        Some(a) if a & FILE_ATTRIBUTE_DIRECTORY != 0 => Err(Reject::IsDirectory),
        Some(_) => Ok(()),
    }
}

/// `<prefix>\Lib\site-packages`, the one `site-packages` of a Windows venv or conda
/// environment, if it exists.
pub(crate) fn site_packages(prefix: &[u8]) -> Vec<CString> {
    let site = join(join(prefix, b"Lib").to_bytes(), b"site-packages");
    if is_dir(&site) {
        alloc::vec![site]
    } else {
        Vec::new()
    }
}
