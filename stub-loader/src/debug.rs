//! The debug log (`CUDA_STUBS_DEBUG`): one line per candidate and one for the final choice.

use crate::env::trusted_var;
use crate::os::write_all;
use core::sync::atomic::{AtomicU8, Ordering};

/// True when `CUDA_STUBS_DEBUG` is set to anything but empty or `0`. Like `LD_DEBUG=libs`, the
/// loader then writes one line per candidate and one for the final choice to stderr; otherwise
/// it never prints. Read once; ignored in secure-execution processes, whose stderr may reach
/// someone the paths should not.
pub fn debug_enabled() -> bool {
    // 0 unknown, 1 off, 2 on. Racing first readers compute the same answer.
    static ON: AtomicU8 = AtomicU8::new(0);
    match ON.load(Ordering::Relaxed) {
        0 => {
            let on = trusted_var(c"CUDA_STUBS_DEBUG").is_some_and(|v| v != b"0");
            ON.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Bytes shown as text, each invalid UTF-8 sequence as U+FFFD: a `Display`, so that a debug line
/// not written costs nothing (a `format_args!` argument is evaluated whether or not the line is
/// written; `to_string_lossy` would validate, and maybe copy, every time).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lossy<'a>(pub(crate) &'a [u8]);

impl core::fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

/// A duration in nanoseconds shown in milliseconds with one decimal (`12.3`), rounded to the
/// nearest tenth (half up): integer arithmetic only, since formatting a float (`{:.1}` of an
/// `f32`) links core's float printing (Grisu, Dragon and their tables, about 18 KiB) into
/// every stub.
#[derive(Clone, Copy)]
pub(crate) struct Millis(pub(crate) u64);

impl core::fmt::Display for Millis {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // 100 000 ns a tenth of a millisecond; the saturating add keeps u64::MAX from wrapping.
        let tenths = self.0.saturating_add(50_000) / 100_000;
        write!(f, "{}.{}", tenths / 10, tenths % 10)
    }
}

/// Writes `cuda-stubs[<lib>]: <text>` as one line to stderr with one `write(2)` when
/// [`debug_enabled`], else nothing; errors writing stderr are ignored (a closed stderr must not
/// matter). `lib` tags the writer: a stub's library name (`cudart`), a compatibility library's
/// `cudart-compat`.
pub fn line(lib: &str, text: core::fmt::Arguments<'_>) {
    if debug_enabled() {
        let text = alloc::format!("cuda-stubs[{lib}]: {text}\n");
        write_all(2, text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::Millis;

    #[test]
    fn millis_round_to_a_tenth() {
        let shown = |ns: u64| alloc::format!("{}", Millis(ns));
        assert_eq!(shown(0), "0.0");
        assert_eq!(shown(49_999), "0.0");
        assert_eq!(shown(50_000), "0.1");
        assert_eq!(shown(1_234_567), "1.2");
        assert_eq!(shown(1_250_000), "1.3");
        assert_eq!(shown(9_960_000), "10.0");
        assert_eq!(shown(123_456_789_012), "123456.8");
        assert_eq!(shown(u64::MAX), "18446744073709.5");
    }
}
