//! How Linux writes a path: `/` separates, `/…` is absolute, there are no drives; and the
//! lexical folding of `.` and `..`. The functions built on these, for both systems, are
//! `search/paths.rs`.

use alloc::borrow::Cow;
use alloc::vec::Vec;

/// A path separator: `/`.
pub(crate) fn is_sep(b: u8) -> bool {
    b == b'/'
}

/// The separator a join writes.
pub(crate) const SEP: u8 = b'/';

/// True when `path` names a folder, not only a file (`/x/libcudart.so.12`): not a bare soname,
/// which the dynamic loader searches for.
pub(crate) fn has_dir(path: &[u8]) -> bool {
    path.contains(&b'/')
}

/// True for an absolute path: `/…`.
pub(crate) fn is_absolute(path: &[u8]) -> bool {
    path.starts_with(b"/")
}

/// A drive's root (`C:\`): none on Linux.
pub(crate) fn is_drive_root(_path: &[u8]) -> bool {
    false
}

/// Whether `dir`, a path's folder part, is a drive (`C:`), which alone would be drive-relative:
/// never on Linux.
pub(crate) fn names_a_drive(_dir: &[u8]) -> bool {
    false
}

/// An absolute path with its `.` and `..` components folded (`/a/b/../c/./d` → `/a/c/d`),
/// without touching the file system (a stub loaded through a RUNPATH such as
/// `$ORIGIN/../cuda_stubs/lib` then searches from a plain path; `realpath` would cost one
/// `readlink` per component). Borrowed when there is nothing to fold; a relative path is
/// returned unchanged.
pub(crate) fn fold_dots(path: &[u8]) -> Cow<'_, [u8]> {
    let dotted = path
        .split(|b| *b == b'/')
        .any(|part| part == b"." || part == b"..");
    if !path.starts_with(b"/") || !dotted {
        return Cow::Borrowed(path);
    }
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in path.split(|b| *b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for part in &parts {
        out.push(b'/');
        out.extend_from_slice(part);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::paths::{
        enclosing_site_packages, file_name, join, may_be_in_site_packages, parent,
    };

    #[test]
    fn dots_fold_lexically() {
        assert_eq!(&*fold_dots(b"/a/b/../c/./d"), b"/a/c/d");
        assert_eq!(
            &*fold_dots(b"/site-packages/x/../cuda_stubs/lib"),
            b"/site-packages/cuda_stubs/lib"
        );
        assert_eq!(&*fold_dots(b"/.."), b"/");
        assert_eq!(&*fold_dots(b"rel/../x"), b"rel/../x");
        assert!(matches!(
            fold_dots(b"/a/.b/c.."),
            Cow::Borrowed(b"/a/.b/c..")
        ));
    }

    #[test]
    fn site_packages_is_found_from_the_path() {
        assert_eq!(
            enclosing_site_packages(b"/v/lib/python3.12/site-packages/cuda_stubs/lib"),
            Some(&b"/v/lib/python3.12/site-packages"[..])
        );
        assert_eq!(
            enclosing_site_packages(b"/usr/lib/python3/dist-packages/x"),
            Some(&b"/usr/lib/python3/dist-packages"[..])
        );
        assert_eq!(enclosing_site_packages(b"/work/target/release"), None);
        assert!(may_be_in_site_packages(
            b"/v/lib/python3.12/site-packages/x/libstubs.so"
        ));
        assert!(may_be_in_site_packages(
            b"/usr/lib/python3/dist-packages/x/libstubs.so"
        ));
        assert!(!may_be_in_site_packages(
            b"/work/target/release/libstubs.so"
        ));
    }

    #[test]
    fn paths_split_and_join_like_std() {
        assert_eq!(parent(b"/a/b/c"), Some(&b"/a/b"[..]));
        assert_eq!(parent(b"/a/b/"), Some(&b"/a"[..]));
        assert_eq!(parent(b"/a"), Some(&b"/"[..]));
        assert_eq!(parent(b"/"), None);
        assert_eq!(parent(b"libcudart.so.12"), None);
        assert_eq!(
            file_name(b"/x/libcudart.so.12.9.79"),
            b"libcudart.so.12.9.79"
        );
        assert_eq!(join(b"/x", b"y").to_bytes(), b"/x/y");
        assert_eq!(join(b"/x/", b"y").to_bytes(), b"/x/y");
    }
}
