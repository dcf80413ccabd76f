use std::io::Read;
use std::path::Path;

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
pub(crate) fn check(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "not found".to_string(),
        _ => format!("cannot stat ({e})"),
    })?;
    if meta.is_dir() {
        return Err("is a directory".into());
    }
    let mut header = [0u8; 20];
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open ({e})"))?;
    let n = read_up_to(&mut file, &mut header).map_err(|e| format!("cannot read ({e})"))?;
    if n == 0 {
        return Err("empty file".into());
    }
    if n < header.len() || &header[..4] != b"\x7fELF" {
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

fn read_up_to(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}
