//! Paths as bytes (`no_std` has no `Path`): splitting and joining, `stat`, and the folders of a
//! Python environment. Nothing here resolves symbolic links or reads the current directory.
//! On Windows paths are UTF-8 here (converted at each call, `wide.rs`), `\` and `/` both
//! separate, and a join writes `\`.

#[cfg(unix)]
use alloc::borrow::Cow;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;

/// A path separator: `/`; on Windows also `\`.
fn is_sep(b: u8) -> bool {
    b == b'/' || (cfg!(windows) && b == b'\\')
}

/// The separator a join writes.
const SEP: u8 = if cfg!(windows) { b'\\' } else { b'/' };

/// True when `path` names a folder, not only a file (`/x/libcudart.so.12`, `C:\x\a.dll`):
/// not a bare soname or DLL name, which the dynamic loader searches for.
pub(crate) fn has_dir(path: &[u8]) -> bool {
    path.iter()
        .any(|b| is_sep(*b) || (cfg!(windows) && *b == b':'))
}

/// True for an absolute path: `/…`; on Windows `X:\…`, `X:/…` or `\\server\…`.
pub(crate) fn is_absolute(path: &[u8]) -> bool {
    if cfg!(windows) {
        matches!(path, [d, b':', s, ..] if d.is_ascii_alphabetic() && is_sep(*s))
            || matches!(path, [a, b, ..] if is_sep(*a) && is_sep(*b))
    } else {
        path.starts_with(b"/")
    }
}

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
    } else if cfg!(windows) && dir.ends_with(b":") {
        path.get(..=i)? // `C:\`: `C:` alone would be drive-relative
    } else {
        trim_slashes(dir)
    })
}

/// `C:\` or `C:/` (Windows only).
fn is_drive_root(path: &[u8]) -> bool {
    cfg!(windows) && matches!(path, [d, b':', s] if d.is_ascii_alphabetic() && is_sep(*s))
}

fn trim_slashes(mut path: &[u8]) -> &[u8] {
    while path.len() > 1 && path.last().is_some_and(|b| is_sep(*b)) && !is_drive_root(path) {
        path = path.get(..path.len() - 1).unwrap_or_default();
    }
    path
}

/// `dir/name` (Windows: `dir\name`, every `/` turned into `\`), as a C string (an interior
/// NUL, impossible from C strings, gives an empty one).
pub(crate) fn join(dir: &[u8], name: &[u8]) -> CString {
    let mut v = Vec::with_capacity(dir.len() + name.len() + 2);
    v.extend_from_slice(dir);
    if !dir.last().is_some_and(|b| is_sep(*b)) {
        v.push(SEP);
    }
    v.extend_from_slice(name);
    // Windows: the specs' folders (`bin/x64`, `nvidia/cu13/bin/x86_64`) with `\`, as
    // Windows itself writes the paths the status reports.
    if cfg!(windows) {
        for b in &mut v {
            if *b == b'/' {
                *b = SEP;
            }
        }
    }
    CString::new(v).unwrap_or_default()
}

/// `stat(2)` says directory (following symbolic links).
#[cfg(unix)]
pub(crate) fn is_dir(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFDIR)
}

/// `stat(2)` says regular file (following symbolic links).
#[cfg(unix)]
pub(crate) fn is_file(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFREG)
}

#[cfg(unix)]
fn file_type(path: &CStr) -> Option<libc::mode_t> {
    crate::glibc::stat(path).map(|st| st.st_mode & libc::S_IFMT)
}

/// `GetFileAttributesW` says directory.
#[cfg(windows)]
pub(crate) fn is_dir(path: &CStr) -> bool {
    attributes(path).is_some_and(|a| a & DIRECTORY != 0)
}

/// `GetFileAttributesW` says a file (not a directory).
#[cfg(windows)]
pub(crate) fn is_file(path: &CStr) -> bool {
    attributes(path).is_some_and(|a| a & DIRECTORY == 0)
}

/// `FILE_ATTRIBUTE_DIRECTORY`.
#[cfg(windows)]
pub(crate) const DIRECTORY: u32 = windows_sys::Win32::Storage::FileSystem::FILE_ATTRIBUTE_DIRECTORY;

/// The file's attributes, `None` (with the thread's last error set) when it cannot be read.
#[cfg(windows)]
pub(crate) fn attributes(path: &CStr) -> Option<u32> {
    use windows_sys::Win32::Storage::FileSystem::{GetFileAttributesW, INVALID_FILE_ATTRIBUTES};
    let wide = crate::wide::to_wide(path.to_bytes(), true);
    // SAFETY: a NUL-terminated path.
    let a = unsafe { GetFileAttributesW(wide.as_ptr()) };
    (a != INVALID_FILE_ATTRIBUTES).then_some(a)
}

/// An absolute path with its `.` and `..` components folded (`/a/b/../c/./d` → `/a/c/d`),
/// without touching the file system (a stub loaded through a RUNPATH such as
/// `$ORIGIN/../cuda_stubs/lib` then searches from a plain path; `realpath` would cost one
/// `readlink` per component). Borrowed when there is nothing to fold; a relative path is
/// returned unchanged.
#[cfg(unix)]
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

/// Sorts `v` stably, `before(a, b)` saying that `a` goes first: an insertion sort, for the few
/// items the search sorts (the folders of one `lib/`, the copies of one library already
/// loaded). `sort` would put about 10 KiB of merge and quick sort into every stub, among the
/// code of the first call, whose pages that call faults in.
#[cfg(unix)]
pub(crate) fn sort_small<T>(v: &mut [T], before: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while let (Some(prev), Some(cur)) = (j.checked_sub(1), v.get(j)) {
            if !v.get(prev).is_some_and(|p| before(cur, p)) {
                break;
            }
            v.swap(prev, j);
            j = prev;
        }
    }
}

/// `<prefix>\Lib\site-packages`, the one `site-packages` of a Windows venv or conda
/// environment, if it exists.
#[cfg(windows)]
pub(crate) fn site_packages(prefix: &[u8]) -> Vec<CString> {
    let site = join(join(prefix, b"Lib").to_bytes(), b"site-packages");
    if is_dir(&site) {
        alloc::vec![site]
    } else {
        Vec::new()
    }
}

/// `<prefix>/lib/python3.*/site-packages`, sorted so that the search is deterministic.
#[cfg(unix)]
pub(crate) fn site_packages(prefix: &[u8]) -> Vec<CString> {
    let lib = join(prefix, b"lib");
    let mut found = Vec::new();
    // SAFETY: a NUL-terminated path; the stream is closed below.
    let dir = unsafe { libc::opendir(lib.as_ptr()) };
    if dir.is_null() {
        return found;
    }
    loop {
        // SAFETY: an open stream; the entry is valid until the next readdir.
        let entry = unsafe { libc::readdir(dir) };
        if entry.is_null() {
            break;
        }
        // SAFETY: d_name is NUL-terminated.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) }.to_bytes();
        if name.starts_with(b"python3") {
            let site = join(join(lib.to_bytes(), name).to_bytes(), b"site-packages");
            if is_dir(&site) {
                found.push(site);
            }
        }
    }
    // SAFETY: opened above.
    unsafe { libc::closedir(dir) };
    sort_small(&mut found, |a, b| a < b);
    found
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

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
    fn small_sort_is_stable() {
        let mut v = [(1, 'a'), (3, 'b'), (1, 'c'), (2, 'd'), (3, 'e')];
        sort_small(&mut v, |a, b| a.0 > b.0);
        assert_eq!(v, [(3, 'b'), (3, 'e'), (2, 'd'), (1, 'a'), (1, 'c')]);
        let mut w: [u8; 0] = [];
        sort_small(&mut w, |a, b| a < b);
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
