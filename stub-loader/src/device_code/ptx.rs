//! The header of a PTX module: its `.version` (the ISA) and `.target` (the architecture), read
//! from the text's first lines without reading the rest (a module can be megabytes; the two
//! directives come first, after comments, in what NVRTC, nvcc and LLVM's NVPTX back end write).

use stub_spec::PtxIsa;

/// How far into the text the two directives are looked for: NVRTC's and nvcc's comment header
/// is under 300 bytes; a hand-written module with a long licence comment still fits.
const HEADER_SCAN: usize = 64 * 1024;

/// A PTX module's `.target`: `sm_90` is `{ sm: 90, suffix: None }`, `sm_90a`
/// `{ sm: 90, suffix: Some(b'a') }` (architecture-specific), `sm_100f` family-specific.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PtxTarget {
    /// The architecture number: 90 for `sm_90`.
    pub sm: u32,
    /// `a` or `f` after the number, if any.
    pub suffix: Option<u8>,
}

/// What a PTX module's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PtxHeader {
    /// `.version X.Y`.
    pub isa: PtxIsa,
    /// `.target sm_XY[a|f]`, `None` when absent or not an `sm_` target.
    pub target: Option<PtxTarget>,
}

/// Reads the header of the PTX text at `text` (NUL-terminated, as `cuModuleLoadData` takes it):
/// `None` when the first non-blank, non-comment line is not `.version X.Y` (not PTX). Reads up
/// to the `.target` line, the NUL, or [`HEADER_SCAN`] bytes, whichever comes first.
///
/// # Safety
/// `text` points to readable bytes up to a NUL (or at least [`HEADER_SCAN`] of them).
pub unsafe fn read_header(text: *const u8) -> Option<PtxHeader> {
    let mut scan = Scan {
        text,
        at: 0,
        end: HEADER_SCAN,
    };
    // SAFETY: forwarded contract; `Scan` stops at the NUL.
    unsafe { scan.header() }
}

/// [`read_header`] of a slice (a PTX entry of a known size).
pub fn read_header_of(text: &[u8]) -> Option<PtxHeader> {
    let mut scan = Scan {
        text: text.as_ptr(),
        at: 0,
        end: text.len().min(HEADER_SCAN),
    };
    // SAFETY: `end` bytes are readable.
    unsafe { scan.header() }
}

/// A bounded cursor over the text: stops at `end` or a NUL, never reads past either.
struct Scan {
    text: *const u8,
    at: usize,
    end: usize,
}

impl Scan {
    /// # Safety
    /// `text` is readable up to `end` or its first NUL.
    unsafe fn peek(&self, ahead: usize) -> u8 {
        let mut i = self.at;
        while i < self.at + ahead {
            // SAFETY: `i` < `end` and no NUL before it (checked on the way).
            if i >= self.end || unsafe { *self.text.add(i) } == 0 {
                return 0;
            }
            i += 1;
        }
        if i >= self.end {
            return 0;
        }
        // SAFETY: as above.
        unsafe { *self.text.add(i) }
    }

    /// # Safety
    /// As [`Scan::peek`].
    unsafe fn header(&mut self) -> Option<PtxHeader> {
        // SAFETY: every read goes through `peek`.
        unsafe {
            self.skip_blank_and_comments();
            if !self.take(b".version") {
                return None;
            }
            self.skip_spaces();
            let major = self.number()?;
            if !self.take(b".") {
                return None;
            }
            let minor = self.number()?;
            self.skip_blank_and_comments();
            let target = if self.take(b".target") {
                self.skip_spaces();
                self.target()
            } else {
                None
            };
            Some(PtxHeader {
                isa: PtxIsa { major, minor },
                target,
            })
        }
    }

    unsafe fn skip_spaces(&mut self) {
        // SAFETY: caller's contract.
        while matches!(unsafe { self.peek(0) }, b' ' | b'\t') {
            self.at += 1;
        }
    }

    /// Skips whitespace, `//` line comments and `/* */` block comments.
    unsafe fn skip_blank_and_comments(&mut self) {
        // SAFETY: caller's contract.
        unsafe {
            loop {
                match (self.peek(0), self.peek(1)) {
                    (b' ' | b'\t' | b'\r' | b'\n', _) => self.at += 1,
                    (b'/', b'/') => {
                        while !matches!(self.peek(0), 0 | b'\n') {
                            self.at += 1;
                        }
                    }
                    (b'/', b'*') => {
                        self.at += 2;
                        while !matches!((self.peek(0), self.peek(1)), (0, _) | (b'*', b'/')) {
                            self.at += 1;
                        }
                        if self.peek(0) == 0 {
                            return;
                        }
                        self.at += 2;
                    }
                    _ => return,
                }
            }
        }
    }

    unsafe fn take(&mut self, word: &[u8]) -> bool {
        for (i, &b) in word.iter().enumerate() {
            // SAFETY: caller's contract.
            if unsafe { self.peek(i) } != b {
                return false;
            }
        }
        self.at += word.len();
        true
    }

    unsafe fn number(&mut self) -> Option<u32> {
        let mut value: Option<u32> = None;
        // SAFETY: caller's contract.
        while let d @ b'0'..=b'9' = unsafe { self.peek(0) } {
            value = Some(
                value
                    .unwrap_or(0)
                    .checked_mul(10)?
                    .checked_add(u32::from(d - b'0'))?,
            );
            self.at += 1;
        }
        value
    }

    /// `sm_XY[a|f]`, the first of `.target`'s comma-separated words.
    unsafe fn target(&mut self) -> Option<PtxTarget> {
        // SAFETY: caller's contract.
        unsafe {
            if !self.take(b"sm_") {
                return None;
            }
            let sm = self.number()?;
            let suffix = match self.peek(0) {
                c @ (b'a' | b'f') => Some(c),
                _ => None,
            };
            Some(PtxTarget { sm, suffix })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NVRTC: &[u8] = b"//\n// Generated by NVIDIA NVVM Compiler\n//\n// Compiler Build ID: CL-1\n// Cuda compilation tools, release 13.5, V13.5.1\n// Based on NVVM 7.0.1\n//\n\n.version 9.5\n.target sm_90a\n.address_size 64\n\0";

    #[test]
    fn reads_version_and_target_after_comments() {
        // SAFETY: NUL-terminated.
        let h = unsafe { read_header(NVRTC.as_ptr()) }.unwrap();
        assert_eq!(h.isa, PtxIsa { major: 9, minor: 5 });
        assert_eq!(
            h.target,
            Some(PtxTarget {
                sm: 90,
                suffix: Some(b'a')
            })
        );
        assert_eq!(read_header_of(&NVRTC[..NVRTC.len() - 1]), Some(h));
    }

    #[test]
    fn block_comments_and_plain_targets() {
        let text = b"/* a\n * licence */\n  .version 8.4 // isa\n.target sm_80, debug\n\0";
        // SAFETY: NUL-terminated.
        let h = unsafe { read_header(text.as_ptr()) }.unwrap();
        assert_eq!(h.isa, PtxIsa { major: 8, minor: 4 });
        assert_eq!(
            h.target,
            Some(PtxTarget {
                sm: 80,
                suffix: None
            })
        );
    }

    #[test]
    fn not_ptx_or_cut_short() {
        assert_eq!(read_header_of(b"\x7fELF\x02\x01"), None);
        assert_eq!(read_header_of(b"// only a comment"), None);
        assert_eq!(read_header_of(b".version 9."), None);
        assert_eq!(read_header_of(b".version 99999999999.1"), None);
        // A version without a target is still PTX.
        let h = read_header_of(b".version 7.8\n").unwrap();
        assert_eq!(h.target, None);
        // SAFETY: NUL-terminated right after the version.
        assert!(unsafe { read_header(c"/* open".as_ptr().cast()) }.is_none());
    }
}
