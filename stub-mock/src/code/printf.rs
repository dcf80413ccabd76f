//! Device-side `printf` of kernels the executor runs: `vprintf(format, args)` (the PTX ABI nvcc
//! and NVRTC call: the format string's address and a buffer of the arguments, each at its own
//! alignment, integers narrower than `int` promoted to it and `float` to `double`), formatted
//! by the C library's `snprintf` (`stub_loader::sync::snprintf`) one conversion at a time, so the text is the host C library's,
//! as the board's driver prints it. What kernels print is kept and written to the process's
//! `stdout` (the C stream, so it interleaves with the program's own buffered `printf` output)
//! where a GPU's driver writes it (CUDA C++ Programming Guide, "Formatted Output"): at the next
//! launch, at `cudaDeviceSynchronize` / `cuCtxSynchronize`, a stream or event synchronization,
//! a blocking copy, a module unload and `cudaDeviceReset` ([`flush`]).

use crate::device::model::Model;
use alloc::vec::Vec;
use core::ffi::{c_char, c_int, c_void};
use stub_loader::sync::{Mutex, snprintf};

/// Longest format string or `%s` argument read, bytes.
const MAX_TEXT: usize = 4096;

/// What the running launch printed so far.
static PENDING: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Writes what kernels printed to the program's standard output (`stub_loader::sync::
/// write_stdout`: on Linux the C stream `stdout`, not flushed: as the program's own output, it
/// is flushed when the C library flushes it).
pub fn flush() {
    let text = core::mem::take(&mut *PENDING.lock());
    stub_loader::sync::write_stdout(&text);
}

/// A NUL-terminated string at `addr` in memory the model knows (device, managed or host
/// allocations), at most [`MAX_TEXT`] bytes; `None` when it is no such memory.
fn c_string(m: &Model, addr: u64) -> Option<Vec<u8>> {
    let addr = usize::try_from(addr).ok()?;
    let found = m.find(addr)?;
    let len = (found.start + found.size - addr).min(MAX_TEXT);
    // SAFETY: `[addr, addr + len)` lies inside one live allocation of the model.
    let bytes = unsafe { core::slice::from_raw_parts(addr as *const u8, len) };
    let end = bytes.iter().position(|&b| b == 0)?;
    Some(bytes.get(..end)?.to_vec())
}

/// Reads the argument buffer: each value at its own alignment.
struct Args {
    at: usize,
}

impl Args {
    /// The next `size`-byte argument (4 or 8), zero-extended; reads the caller's buffer.
    fn next(&mut self, size: usize) -> u64 {
        self.at = self.at.next_multiple_of(size);
        let p = self.at as *const u8;
        self.at += size;
        // SAFETY: the argument buffer vprintf was given, as long as the format says.
        unsafe {
            if size == 8 {
                p.cast::<u64>().read_unaligned()
            } else {
                u64::from(p.cast::<u32>().read_unaligned())
            }
        }
    }
}

/// `vprintf(format, args)`: formats into the launch's output; the characters written, or -1
/// when the format string is not in memory the model knows.
pub fn vprintf(m: &Model, format: u64, args: u64) -> i32 {
    let Some(fmt) = c_string(m, format) else {
        return -1;
    };
    let mut out = Vec::new();
    let mut args = Args { at: args as usize };
    let mut i = 0;
    while let Some(&c) = fmt.get(i) {
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        // One conversion: `%[flags][width][.precision][length]conversion`.
        let start = i;
        i += 1;
        let mut spec: Vec<u8> = alloc::vec![b'%'];
        let mut stars: Vec<c_int> = Vec::new();
        let mut long = false;
        while let Some(&c) = fmt.get(i) {
            i += 1;
            match c {
                b'*' => {
                    stars.push(args.next(4) as u32 as c_int);
                    spec.push(c);
                }
                b'l' | b'L' | b'j' | b'z' | b't' | b'q' => {
                    long = true;
                    spec.push(c);
                }
                b'h' => spec.push(c),
                b'-' | b'+' | b' ' | b'#' | b'0'..=b'9' | b'.' | b'\'' => spec.push(c),
                _ => {
                    spec.push(c);
                    break;
                }
            }
        }
        let conv = spec.last().copied().unwrap_or(b'%');
        if conv == b'%' && i == start + 2 {
            out.push(b'%');
            continue;
        }
        spec.push(0);
        let spec = spec.as_ptr().cast::<c_char>();
        let mut buf = [0u8; 512];
        let (b, n) = (buf.as_mut_ptr().cast::<c_char>(), buf.len());
        let (w, p) = (
            stars.first().copied().unwrap_or(0),
            stars.get(1).copied().unwrap_or(0),
        );
        // SAFETY: `spec` is one NUL-terminated conversion with its own stars, given exactly
        // the arguments it reads; `buf` holds `n` bytes.
        let written = unsafe {
            match (conv, stars.len()) {
                (b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c', _) if long => {
                    let v = args.next(8);
                    match stars.len() {
                        0 => snprintf(b, n, spec, v),
                        1 => snprintf(b, n, spec, w, v),
                        _ => snprintf(b, n, spec, w, p, v),
                    }
                }
                (b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c', _) => {
                    let v = args.next(4) as u32;
                    match stars.len() {
                        0 => snprintf(b, n, spec, v),
                        1 => snprintf(b, n, spec, w, v),
                        _ => snprintf(b, n, spec, w, p, v),
                    }
                }
                (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', _) => {
                    let v = f64::from_bits(args.next(8));
                    match stars.len() {
                        0 => snprintf(b, n, spec, v),
                        1 => snprintf(b, n, spec, w, v),
                        _ => snprintf(b, n, spec, w, p, v),
                    }
                }
                (b'p', _) => {
                    let v = args.next(8) as usize as *const c_void;
                    snprintf(b, n, spec, v)
                }
                (b's', _) => {
                    let text = c_string(m, args.next(8));
                    let mut owned = text.unwrap_or_else(|| b"(null)".to_vec());
                    owned.push(0);
                    let v = owned.as_ptr().cast::<c_char>();
                    match stars.len() {
                        0 => snprintf(b, n, spec, v),
                        1 => snprintf(b, n, spec, w, v),
                        _ => snprintf(b, n, spec, w, p, v),
                    }
                }
                // Not a conversion printf knows: its text, as written.
                _ => {
                    out.extend_from_slice(fmt.get(start..i).unwrap_or_default());
                    continue;
                }
            }
        };
        let written = usize::try_from(written).unwrap_or(0).min(n - 1);
        out.extend_from_slice(buf.get(..written).unwrap_or_default());
    }
    let count = i32::try_from(out.len()).unwrap_or(i32::MAX);
    PENDING.lock().extend_from_slice(&out);
    count
}
