//! Files on Linux: `stat` (through `glibc.rs`), the checks of a candidate file before
//! `dlopen`, and a Python environment's `site-packages` folders.

use super::elf::{self, HEAD_LEN, Ident};
use super::glibc;
use super::io::errno;
use super::sort::sort_small;
use crate::search::Reject;
use crate::search::paths::join;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;

/// `stat(2)` says directory (following symbolic links).
pub(crate) fn is_dir(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFDIR)
}

/// `stat(2)` says regular file (following symbolic links).
pub(crate) fn is_file(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFREG)
}

fn file_type(path: &CStr) -> Option<libc::mode_t> {
    glibc::stat(path).map(|st| st.st_mode & libc::S_IFMT)
}

/// Checks a candidate file before `dlopen` (exists, not a folder, an ELF file of this
/// process's class and machine), so that the debug log says precisely why it is skipped
/// (dlopen's own message for these cases varies between glibc versions).
pub(crate) fn check_file(path: &CStr) -> Result<(), Reject> {
    let Some(st) = glibc::stat(path) else {
        return Err(match errno() {
            libc::ENOENT | libc::ENOTDIR => Reject::NotFound,
            e => Reject::CannotStat(e),
        });
    };
    if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
        return Err(Reject::IsDirectory);
    }
    let mut head = [0u8; HEAD_LEN];
    let n = read_head(path, &mut head)?;
    match elf::identify(head.get(..n).unwrap_or_default()) {
        Ident::Ours => Ok(()),
        Ident::Empty => Err(Reject::Empty),
        Ident::NotElf => Err(Reject::NotElf),
        Ident::WrongClass(class) => Err(Reject::WrongClass(class)),
        Ident::WrongMachine(machine) => Err(Reject::WrongMachine(machine)),
    }
}

/// Reads up to `buf.len()` bytes from the start of the file.
fn read_head(path: &CStr, buf: &mut [u8]) -> Result<usize, Reject> {
    // SAFETY: NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(Reject::CannotOpen(errno()));
    }
    let mut filled = 0;
    let result = loop {
        let Some(rest) = buf.get_mut(filled..) else {
            break Ok(filled);
        };
        if rest.is_empty() {
            break Ok(filled);
        }
        // SAFETY: rest is writable for its length.
        match unsafe { libc::read(fd, rest.as_mut_ptr().cast(), rest.len()) } {
            0 => break Ok(filled),
            n if n > 0 => filled += n.unsigned_abs(),
            _ if errno() == libc::EINTR => {}
            _ => break Err(Reject::CannotRead(errno())),
        }
    };
    // SAFETY: opened above.
    unsafe { libc::close(fd) };
    result
}

/// `<prefix>/lib/python3.*/site-packages`, sorted so that the search is deterministic.
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
