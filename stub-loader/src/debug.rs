use std::io::Write;
use std::sync::OnceLock;

/// True when `CUDA_STUBS_DEBUG` is set to anything but empty or `0`. Like `LD_DEBUG=libs`, the
/// loader then writes one line per candidate and one for the final choice to stderr; otherwise
/// it never prints. Read once; ignored in secure-execution processes, whose stderr may reach
/// someone the paths should not.
pub fn debug_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| crate::secure::trusted_var("CUDA_STUBS_DEBUG").is_some_and(|v| v != "0"))
}

/// Writes one debug line; errors writing stderr are ignored (a closed stderr must not matter).
pub(crate) fn line(lib: &str, text: std::fmt::Arguments<'_>) {
    if debug_enabled() {
        let _ = writeln!(std::io::stderr().lock(), "cuda-stubs[{lib}]: {text}");
    }
}
