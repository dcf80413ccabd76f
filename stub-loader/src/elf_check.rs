use crate::debug::{errno, errno_text};
use alloc::format;
use alloc::string::String;
use core::ffi::CStr;

#[cfg(target_pointer_width = "64")]
const OUR_CLASS: u8 = 2; // ELFCLASS64
#[cfg(target_pointer_width = "32")]
const OUR_CLASS: u8 = 1; // ELFCLASS32

#[cfg(target_arch = "x86_64")]
const OUR_MACHINE: u16 = 62; // EM_X86_64
#[cfg(target_arch = "aarch64")]
const OUR_MACHINE: u16 = 183; // EM_AARCH64
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const OUR_MACHINE: u16 = 0;

/// Checks a candidate file before `dlopen`, so that the debug log says precisely why it is
/// skipped (dlopen's own message for these cases varies between glibc versions).
pub(crate) fn check(path: &CStr) -> Result<(), String> {
    let Some(st) = crate::glibc::stat(path) else {
        return Err(match errno() {
            libc::ENOENT | libc::ENOTDIR => "not found".into(),
            e => format!("cannot stat ({})", errno_text(e)),
        });
    };
    if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
        return Err("is a directory".into());
    }
    let mut header = [0u8; 20];
    let n = read_head(path, &mut header)?;
    if n == 0 {
        return Err("empty file".into());
    }
    if n < header.len() || header.get(..4) != Some(b"\x7fELF") {
        return Err("not an ELF file".into());
    }
    if header[4] != OUR_CLASS {
        return Err(format!(
            "wrong ELF class {} (this process is {OUR_CLASS})",
            header[4]
        ));
    }
    let machine = if header[5] == 2 {
        u16::from_be_bytes([header[18], header[19]])
    } else {
        u16::from_le_bytes([header[18], header[19]])
    };
    if OUR_MACHINE != 0 && machine != OUR_MACHINE {
        return Err(format!(
            "wrong machine (e_machine {machine}, this process is {OUR_MACHINE})"
        ));
    }
    Ok(())
}

/// Reads up to `buf.len()` bytes from the start of the file.
fn read_head(path: &CStr, buf: &mut [u8]) -> Result<usize, String> {
    // SAFETY: NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(format!("cannot open ({})", errno_text(errno())));
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
            _ => break Err(format!("cannot read ({})", errno_text(errno()))),
        }
    };
    // SAFETY: opened above.
    unsafe { libc::close(fd) };
    result
}
