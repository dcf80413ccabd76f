//! Names stored as one blob of NUL-terminated strings and referred to by offset: the function
//! table's and the `cuGetProcAddress` table's, so that neither table needs relocations.

use core::ffi::CStr;

/// The NUL-terminated string at `offset` of a blob (empty when out of range).
pub(crate) fn name_at(blob: &'static [u8], offset: u32) -> &'static CStr {
    blob.get(offset as usize..)
        .and_then(|rest| CStr::from_bytes_until_nul(rest).ok())
        .unwrap_or(c"")
}
