//! The JIT options of a load (`CUjit_option`, cuda.h; the runtime's `cudaJitOption` has the same
//! values): which of them shape the CUBIN nvJitLink makes (mapped onto its options), and the
//! log buffers and wall time a reconciled load fills as the driver's JIT would.

use alloc::ffi::CString;
use alloc::format;
use alloc::vec::Vec;
use core::ffi::{c_uint, c_void};

/// `CU_JIT_MAX_REGISTERS`: `unsigned int` → `-maxrregcount=N`.
const MAX_REGISTERS: c_uint = 0;
/// `CU_JIT_WALL_TIME`: out, a `float` of milliseconds in the value slot.
const WALL_TIME: c_uint = 2;
/// `CU_JIT_INFO_LOG_BUFFER`: a `char *`.
const INFO_LOG_BUFFER: c_uint = 3;
/// `CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES`: in, the buffer's size; out, the bytes written.
const INFO_LOG_BUFFER_SIZE_BYTES: c_uint = 4;
/// `CU_JIT_ERROR_LOG_BUFFER`.
const ERROR_LOG_BUFFER: c_uint = 5;
/// `CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES`.
const ERROR_LOG_BUFFER_SIZE_BYTES: c_uint = 6;
/// `CU_JIT_OPTIMIZATION_LEVEL`: 0 – 4 (the driver's default 4) → ptxas's `-O0` – `-O3`.
const OPTIMIZATION_LEVEL: c_uint = 7;
/// `CU_JIT_TARGET`: a `CUjit_target` (`CU_TARGET_COMPUTE_90` = 90) → `-arch=sm_90`.
const TARGET: c_uint = 9;
/// `CU_JIT_GENERATE_DEBUG_INFO`: `int` → `-g`.
const GENERATE_DEBUG_INFO: c_uint = 11;
/// `CU_JIT_LOG_VERBOSE`: `int` → `-verbose`.
const LOG_VERBOSE: c_uint = 12;
/// `CU_JIT_GENERATE_LINE_INFO`: `int` → `-lineinfo`.
const GENERATE_LINE_INFO: c_uint = 13;

/// The options array of a load: `count` options and their values, as the caller passed them
/// (`cuModuleLoadDataEx`'s `options`, `optionValues`, `numOptions`).
#[derive(Debug, Clone, Copy)]
pub struct JitOptions {
    options: *const c_uint,
    values: *mut *mut c_void,
    count: usize,
}

impl JitOptions {
    /// No options (`cuModuleLoadData`).
    pub const NONE: JitOptions = JitOptions {
        options: core::ptr::null(),
        values: core::ptr::null_mut(),
        count: 0,
    };

    /// The caller's arrays; NULL arrays count as none.
    ///
    /// # Safety
    /// When not NULL, `options` and `values` hold `count` elements, `values` writable (the
    /// driver's own contract for the output options).
    pub unsafe fn new(options: *const c_uint, values: *mut *mut c_void, count: c_uint) -> Self {
        if options.is_null() || values.is_null() {
            return JitOptions::NONE;
        }
        JitOptions {
            options,
            values,
            count: count as usize,
        }
    }

    fn each(&self) -> impl Iterator<Item = (c_uint, *mut *mut c_void)> + '_ {
        (0..self.count).map(move |i| {
            // SAFETY: `i` < `count` (the constructor's contract).
            unsafe { (*self.options.add(i), self.values.add(i)) }
        })
    }

    fn value(&self, option: c_uint) -> Option<usize> {
        self.each()
            .find(|(o, _)| *o == option)
            // SAFETY: the slot is readable; scalar options are passed cast into it.
            .map(|(_, v)| unsafe { *v } as usize)
    }

    /// The architecture `CU_JIT_TARGET` asks for (90 for `CU_TARGET_COMPUTE_90`), if any.
    pub fn target(&self) -> Option<u32> {
        self.value(TARGET).and_then(|v| u32::try_from(v).ok())
    }

    /// nvJitLink's options for these: `-maxrregcount`, `-Xptxas=-O<n>`, `-g`, `-lineinfo`,
    /// `-verbose`, after `-arch=<arch>`. Options that do not shape a CUBIN (cache mode,
    /// fallback strategy, target from context) have no counterpart and are left out.
    pub fn nvjitlink_flags(&self, arch: &str) -> Vec<CString> {
        let mut flags = Vec::new();
        let mut push = |s: alloc::string::String| {
            if let Ok(c) = CString::new(s) {
                flags.push(c);
            }
        };
        push(format!("-arch={arch}"));
        if let Some(n) = self.value(MAX_REGISTERS) {
            push(format!("-maxrregcount={n}"));
        }
        if let Some(level) = self.value(OPTIMIZATION_LEVEL) {
            // ptxas knows -O0 to -O3; the driver's 4 (its default) is ptxas's 3.
            push(format!("-Xptxas=-O{}", level.min(3)));
        }
        if self.value(GENERATE_DEBUG_INFO).is_some_and(|v| v != 0) {
            push("-g".into());
        }
        if self.value(GENERATE_LINE_INFO).is_some_and(|v| v != 0) {
            push("-lineinfo".into());
        }
        if self.value(LOG_VERBOSE).is_some_and(|v| v != 0) {
            push("-verbose".into());
        }
        flags
    }

    /// Writes `info` and `error` (without NUL) into the caller's log buffers as the driver's
    /// JIT does: at most the size option's bytes, NUL included, the size option overwritten
    /// with the bytes written (NUL included; 0 for an empty log); and the wall time in
    /// milliseconds into `CU_JIT_WALL_TIME`'s slot.
    pub fn report(&self, info: &[u8], error: &[u8], millis: f32) {
        // SAFETY: the constructor's contract: the value slots are readable and writable, the
        // buffers hold the sizes their size options say.
        unsafe {
            fill_log(self, INFO_LOG_BUFFER, INFO_LOG_BUFFER_SIZE_BYTES, info);
            fill_log(self, ERROR_LOG_BUFFER, ERROR_LOG_BUFFER_SIZE_BYTES, error);
            for (o, slot) in self.each() {
                if o == WALL_TIME {
                    slot.cast::<f32>().write_unaligned(millis);
                }
            }
        }
    }
}

/// # Safety
/// As [`JitOptions::report`].
unsafe fn fill_log(options: &JitOptions, buffer: c_uint, size: c_uint, text: &[u8]) {
    let Some((_, buf)) = options.each().find(|(o, _)| *o == buffer) else {
        return;
    };
    let Some((_, size_slot)) = options.each().find(|(o, _)| *o == size) else {
        return;
    };
    // SAFETY: caller's contract.
    unsafe {
        let buf = (*buf).cast::<u8>();
        let capacity = *size_slot as usize;
        if buf.is_null() || capacity == 0 {
            return;
        }
        let n = text.len().min(capacity - 1);
        core::ptr::copy_nonoverlapping(text.as_ptr(), buf, n);
        *buf.add(n) = 0;
        *size_slot = if n == 0 { 0 } else { n + 1 } as *mut c_void;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::manual_dangling_ptr)] // option values are integers cast into pointer slots
    fn maps_options_and_fills_logs() {
        let mut info = [0xffu8; 8];
        let mut error = [0xffu8; 64];
        let options = [
            MAX_REGISTERS,
            OPTIMIZATION_LEVEL,
            GENERATE_LINE_INFO,
            INFO_LOG_BUFFER,
            INFO_LOG_BUFFER_SIZE_BYTES,
            ERROR_LOG_BUFFER,
            ERROR_LOG_BUFFER_SIZE_BYTES,
            WALL_TIME,
            14, // CU_JIT_CACHE_MODE: no counterpart
        ];
        let mut values: [*mut c_void; 9] = [
            32 as *mut c_void,
            4 as *mut c_void,
            1 as *mut c_void,
            info.as_mut_ptr().cast(),
            info.len() as *mut c_void,
            error.as_mut_ptr().cast(),
            error.len() as *mut c_void,
            core::ptr::null_mut(),
            1 as *mut c_void,
        ];
        // SAFETY: 9 options, 9 writable values.
        let jit = unsafe { JitOptions::new(options.as_ptr(), values.as_mut_ptr(), 9) };
        let flags: Vec<_> = jit
            .nvjitlink_flags("sm_90")
            .into_iter()
            .map(|c| c.into_string().unwrap())
            .collect();
        assert_eq!(
            flags,
            [
                "-arch=sm_90",
                "-maxrregcount=32",
                "-Xptxas=-O3",
                "-lineinfo"
            ]
        );
        jit.report(b"a long info log", b"", 1.5);
        assert_eq!(&info, b"a long \0");
        assert_eq!(values[4] as usize, 8);
        assert_eq!(error[0], 0);
        assert_eq!(values[6] as usize, 0);
        // SAFETY: the slot holds the float written.
        assert_eq!(
            unsafe { (&raw const values[7]).cast::<f32>().read_unaligned() },
            1.5
        );
        assert_eq!(jit.target(), None);
        assert!(JitOptions::NONE.nvjitlink_flags("sm_80").len() == 1);
    }
}
