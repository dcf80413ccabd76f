//! UTF-16 for Windows' `W` functions. The loader keeps names and paths as UTF-8 bytes, as on
//! Linux, and converts at each call: every string it hands to Windows is short and the calls
//! are few (the first call of each stub). A path Windows gives back that is not valid UTF-16
//! (an unpaired surrogate) is converted with U+FFFD and then is not found again: such paths are
//! not supported.

use alloc::vec::Vec;

/// `text` as a NUL-terminated UTF-16 string; with `backslashes`, every `/` becomes `\`
/// (`LoadLibraryExW` wants backslashes in a path; the specs write wheel folders with `/`).
pub(crate) fn to_wide(text: &[u8], backslashes: bool) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::with_capacity(text.len() + 1);
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            let c = if backslashes && c == '/' { '\\' } else { c };
            let mut units = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut units));
        }
        if !chunk.invalid().is_empty() {
            out.push(0xFFFD);
        }
    }
    out.push(0);
    out
}

/// UTF-16 (without NUL) as UTF-8 bytes, each unpaired surrogate as U+FFFD.
pub(crate) fn from_wide(wide: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(wide.len());
    for c in char::decode_utf16(wide.iter().copied()) {
        let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
        let mut bytes = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut bytes).as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let w = to_wide("C:/Program Files/é".as_bytes(), true);
        assert_eq!(w.last(), Some(&0));
        assert_eq!(
            from_wide(&w[..w.len() - 1]),
            "C:\\Program Files\\é".as_bytes()
        );
        assert_eq!(from_wide(&[0xD800]), "\u{FFFD}".as_bytes());
    }
}
