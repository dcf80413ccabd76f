//! How Windows writes a path: `\` and `/` both separate and a join writes `\`; `X:\…`,
//! `X:/…` and `\\server\…` are absolute; a drive letter alone (`C:`) is drive-relative. The
//! functions built on these, for both systems, are `search/paths.rs`.

/// A path separator: `\` or `/`.
pub(crate) fn is_sep(b: u8) -> bool {
    b == b'/' || b == b'\\'
}

/// The separator a join writes.
pub(crate) const SEP: u8 = b'\\';

/// True when `path` names a folder, not only a file (`C:\x\a.dll`, `x/a.dll`, `C:a.dll`): not
/// a bare DLL name, which the loader searches for.
pub(crate) fn has_dir(path: &[u8]) -> bool {
    path.iter().any(|b| is_sep(*b) || *b == b':')
}

/// True for an absolute path: `X:\…`, `X:/…` or `\\server\…`.
pub(crate) fn is_absolute(path: &[u8]) -> bool {
    matches!(path, [d, b':', s, ..] if d.is_ascii_alphabetic() && is_sep(*s))
        || matches!(path, [a, b, ..] if is_sep(*a) && is_sep(*b))
}

/// `C:\` or `C:/`.
pub(crate) fn is_drive_root(path: &[u8]) -> bool {
    matches!(path, [d, b':', s] if d.is_ascii_alphabetic() && is_sep(*s))
}

/// Whether `dir`, a path's folder part, ends in a drive (`C:`), which alone would be
/// drive-relative: its parent keeps the separator (`C:\`).
pub(crate) fn names_a_drive(dir: &[u8]) -> bool {
    dir.ends_with(b":")
}
