//! Paths as bytes (`no_std` has no `Path`): splitting and joining, and the folders of a Python
//! environment, on the system's own rules (`os`: `/` on Linux; `\` and `/`, drives and UNC
//! paths on Windows, where paths are UTF-8 here and converted at each call). Nothing here
//! resolves symbolic links or reads the current directory.

use crate::os::{SEP, is_drive_root, is_sep, names_a_drive};
use alloc::ffi::CString;
use alloc::vec::Vec;

/// The last component of a path.
pub(crate) fn file_name(path: &[u8]) -> &[u8] {
    path.rsplit(|b| is_sep(*b)).next().unwrap_or(path)
}

/// The directory part of a path (`/a/b` → `/a`, `/a` → `/`; `C:\a` → `C:\`), `None` for a
/// bare name or a root.
pub(crate) fn parent(path: &[u8]) -> Option<&[u8]> {
    let path = trim_slashes(path);
    if path.len() == 1 && is_sep(path[0]) || is_drive_root(path) {
        return None;
    }
    let i = path.iter().rposition(|b| is_sep(*b))?;
    let dir = path.get(..i)?;
    Some(if i == 0 {
        path.get(..1)?
    } else if names_a_drive(dir) {
        path.get(..=i)? // `C:\`: `C:` alone would be drive-relative
    } else {
        trim_slashes(dir)
    })
}

fn trim_slashes(mut path: &[u8]) -> &[u8] {
    while path.len() > 1 && path.last().is_some_and(|b| is_sep(*b)) && !is_drive_root(path) {
        path = path.get(..path.len() - 1).unwrap_or_default();
    }
    path
}

/// `dir/name` with every separator the system's own (Windows: `dir\name`, the specs' `/` in
/// `bin/x64` turned into `\`, as Windows itself writes the paths the status reports), as a C
/// string (an interior NUL, impossible from C strings, gives an empty one).
pub(crate) fn join(dir: &[u8], name: &[u8]) -> CString {
    let mut v = Vec::with_capacity(dir.len() + name.len() + 2);
    v.extend_from_slice(dir);
    if !dir.last().is_some_and(|b| is_sep(*b)) {
        v.push(SEP);
    }
    v.extend_from_slice(name);
    for b in &mut v {
        if is_sep(*b) {
            *b = SEP;
        }
    }
    CString::new(v).unwrap_or_default()
}

/// The nearest folder named `site-packages` (pip, venv, conda) or `dist-packages` (Debian's
/// Python) that holds `dir`, read from the path alone.
pub(crate) fn enclosing_site_packages(dir: &[u8]) -> Option<&[u8]> {
    let mut ancestor = Some(dir);
    while let Some(d) = ancestor {
        if matches!(file_name(d), b"site-packages" | b"dist-packages") {
            return Some(d);
        }
        ancestor = parent(d);
    }
    None
}

/// False when no folder of `path` can be a `site-packages` or `dist-packages` (the names
/// [`enclosing_site_packages`] looks for): the cheap test before it.
pub(crate) fn may_be_in_site_packages(path: &[u8]) -> bool {
    path.windows(b"-packages/".len())
        .any(|w| w.starts_with(b"-packages") && w.last().is_some_and(|b| is_sep(*b)))
}
