//! The compatibility libraries' debug lines (`CUDA_STUBS_DEBUG`), in the stubs' format:
//! `cuda-stubs[cudart-compat]: …`, one `write(2)` each.

use crate::table::Table;

/// Writes one line when `CUDA_STUBS_DEBUG` is on (never in secure-execution processes:
/// `stub_loader::debug_enabled`).
pub(crate) fn line(table: &Table, text: core::fmt::Arguments<'_>) {
    if !stub_loader::debug_enabled() {
        return;
    }
    let text = alloc::format!("cuda-stubs[{}-compat]: {text}\n", table.library);
    let mut bytes = text.as_bytes();
    while !bytes.is_empty() {
        // SAFETY: a valid buffer of bytes.len() bytes.
        let n = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(n) {
            Ok(n) if n > 0 => bytes = bytes.get(n..).unwrap_or_default(),
            _ => return,
        }
    }
}
