//! Call tracing and fault injection. Off, they cost nothing: the decision is taken once per
//! function when it is bound, and only a selected function's slot points at its wrapper.

use crate::debug::line;
use crate::hook_config::{FaultRule, FaultWhen, TraceFilter, parse_fault_spec, parse_trace_filter};
use crate::secure::trusted_var;
use core::ffi::CStr;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

/// Per-function state of the wrapper the `cuda_stubs` macro emits: the real entry point (or
/// fallback) it calls, the fault rule that applies, and the call count.
#[derive(Debug)]
pub struct Hook {
    /// The C function name.
    pub name: &'static CStr,
    /// Where the wrapper finds the function it wraps.
    pub real: AtomicPtr<()>,
    rule: AtomicPtr<FaultRule>,
    calls: AtomicU64,
}

impl Hook {
    /// An unbound hook (a `static` per function).
    pub const fn new(name: &'static CStr) -> Self {
        Hook {
            name,
            real: AtomicPtr::new(core::ptr::null_mut()),
            rule: AtomicPtr::new(core::ptr::null_mut()),
            calls: AtomicU64::new(0),
        }
    }
}

/// The parsed tracing and fault-injection settings of one library, read once.
#[derive(Debug, Default)]
pub(crate) struct HookConfig {
    trace: Option<TraceFilter>,
    faults: Vec<FaultRule>,
    seed: u64,
    /// Trace destination: stderr (2) or the opened `CUDA_STUBS_TRACE_FILE`.
    fd: i32,
}

impl HookConfig {
    /// Reads `CUDA_STUBS_TRACE`, `CUDA_STUBS_TRACE_FILE`, `CUDA_STUBS_TRACE_TRUNCATE`,
    /// `CUDA_STUBS_FAULT` and `CUDA_STUBS_FAULT_SEED` (all ignored in secure-execution processes).
    /// A malformed value disables that feature, with a debug line; it never aborts.
    pub(crate) fn from_env(lib: &str) -> Self {
        let text = |name| trusted_var(name).map(|v| v.to_string_lossy().into_owned());
        let trace = match text("CUDA_STUBS_TRACE").map(|v| parse_trace_filter(&v)) {
            Some(Ok(filter)) => filter,
            Some(Err(why)) => {
                line(lib, format_args!("{why}: tracing off"));
                None
            }
            None => None,
        };
        let faults = match text("CUDA_STUBS_FAULT").map(|v| parse_fault_spec(&v)) {
            Some(Ok(rules)) => rules,
            Some(Err(why)) => {
                line(lib, format_args!("{why}: fault injection off"));
                Vec::new()
            }
            None => Vec::new(),
        };
        let seed = text("CUDA_STUBS_FAULT_SEED")
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        let mut fd = 2;
        if trace.is_some() {
            if let Some(path) = text("CUDA_STUBS_TRACE_FILE") {
                let truncate = text("CUDA_STUBS_TRACE_TRUNCATE").is_some_and(|v| v == "1");
                match open_trace_file(&path, truncate) {
                    Ok(opened) => fd = opened,
                    Err(why) => line(
                        lib,
                        format_args!("CUDA_STUBS_TRACE_FILE={path}: {why}: tracing to stderr"),
                    ),
                }
            }
        }
        HookConfig {
            trace,
            faults,
            seed,
            fd,
        }
    }

    /// True when `name` is traced or has a fault rule.
    pub(crate) fn selects(&self, name: &str) -> bool {
        self.trace.as_ref().is_some_and(|t| t.matches(name))
            || self.faults.iter().any(|r| r.name == name)
    }

    /// Arms `hook` for `name`: its fault rule (if any) and the function it wraps.
    pub(crate) fn arm(&'static self, hook: &Hook, name: &str, target: *mut ()) {
        if let Some(rule) = self.faults.iter().find(|r| r.name == name) {
            hook.rule
                .store((rule as *const FaultRule).cast_mut(), Ordering::Relaxed);
        }
        hook.real.store(target, Ordering::Release);
    }

    fn traces(&self, name: &str) -> bool {
        self.trace.as_ref().is_some_and(|t| t.matches(name))
    }
}

/// `O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC`, and `O_TRUNC` only when asked: a
/// trace file never follows a symbolic link and never clobbers an existing file by default.
fn open_trace_file(path: &str, truncate: bool) -> Result<i32, String> {
    if !path.starts_with('/') {
        return Err("not an absolute path".into());
    }
    let c = std::ffi::CString::new(path).map_err(|_| "contains NUL".to_string())?;
    let mut flags =
        libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    if truncate {
        flags |= libc::O_TRUNC;
    }
    // SAFETY: c is a valid NUL-terminated path.
    let fd = unsafe { libc::open(c.as_ptr(), flags, 0o644 as libc::c_uint) };
    if fd < 0 {
        Err(std::io::Error::last_os_error().to_string())
    } else {
        Ok(fd)
    }
}

/// Monotonic nanoseconds, for call durations.
#[inline]
pub fn clock_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is valid for writing.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(ts.tv_nsec).unwrap_or(0)
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn name_hash(name: &[u8]) -> u64 {
    name.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Called by a wrapper before the real function: counts the call and returns the status to
/// inject instead, if the function's fault rule fires on this call.
#[inline(never)]
pub fn inject(hook: &Hook, seed: u64) -> Option<i64> {
    let n = hook.calls.fetch_add(1, Ordering::Relaxed) + 1;
    // SAFETY: a non-null rule points into the library's HookConfig, which lives in a static.
    let rule = unsafe { hook.rule.load(Ordering::Relaxed).as_ref() }?;
    let fire = match rule.when {
        FaultWhen::Always => true,
        FaultWhen::Nth(k) => n == k,
        FaultWhen::Probability(p) => {
            let draw =
                splitmix64(seed ^ name_hash(hook.name.to_bytes()) ^ n.wrapping_mul(0x9E37_79B9));
            ((draw >> 11) as f64 / (1u64 << 53) as f64) < p
        }
    };
    fire.then_some(rule.code)
}

/// What a traced call returned.
#[derive(Debug, Clone, Copy)]
pub enum TraceResult {
    /// A status (or other integer) from the real function.
    Status(i64),
    /// A status injected by `CUDA_STUBS_FAULT`; the real function was not called.
    Injected(i64),
    /// A pointer.
    Pointer(usize),
    /// Nothing (`void`, or a struct by value).
    Void,
}

/// Called by a wrapper after the call: writes the trace line (one `write(2)`, so lines from
/// several threads never interleave) when the function is traced.
#[inline(never)]
pub(crate) fn record(
    config: &HookConfig,
    lib: &str,
    hook: &Hook,
    start_ns: u64,
    result: TraceResult,
) {
    let name = hook.name.to_string_lossy();
    if !config.traces(&name) {
        return;
    }
    let ns = clock_ns().saturating_sub(start_ns);
    let result = match result {
        TraceResult::Status(r) => r.to_string(),
        TraceResult::Injected(r) => format!("{r} (injected)"),
        TraceResult::Pointer(p) => format!("{p:#x}"),
        TraceResult::Void => "void".to_string(),
    };
    let text = format!("cuda-stubs[{lib}]: trace {name} -> {result} {ns} ns\n");
    // SAFETY: writing a valid buffer to an fd the config owns (or stderr); errors are ignored.
    unsafe { libc::write(config.fd, text.as_ptr().cast(), text.len()) };
}

impl HookConfig {
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }
}
