//! Call tracing and fault injection. Off, they cost nothing: the decision is taken once per
//! function when it is bound, and only a selected function's slot keeps pointing at its
//! first-call thunk, which leads to the library's traced entry (`shared_resolver`).

use crate::debug::line;
use crate::env::trusted_text;
use crate::hook_config::{FaultRule, FaultWhen, TraceFilter, parse_fault_spec, parse_trace_filter};
use crate::os::{clock_ns, open_trace_file, write_all};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use stub_spec::RetKind;

/// Per-function state of a selected function: the entry point (or fallback) the traced entry
/// calls, the fault rule that applies, and the call count.
#[derive(Debug)]
pub(crate) struct HookState {
    real: AtomicPtr<()>,
    rule: AtomicPtr<FaultRule>,
    calls: AtomicU64,
}

/// The parsed tracing and fault-injection settings of one library, read once.
#[derive(Debug, Default)]
pub(crate) struct HookConfig {
    trace: Option<TraceFilter>,
    faults: Vec<FaultRule>,
    seed: u64,
    /// Trace destination: stderr (2) or the opened `CUDA_STUBS_TRACE_FILE`.
    fd: i32,
    /// One per function of the library when anything is selected, else empty.
    states: Vec<HookState>,
}

impl HookConfig {
    /// Reads `CUDA_STUBS_TRACE`, `CUDA_STUBS_TRACE_FILE`, `CUDA_STUBS_TRACE_TRUNCATE`,
    /// `CUDA_STUBS_FAULT` and `CUDA_STUBS_FAULT_SEED` (all ignored in secure-execution processes).
    /// A malformed value disables that feature, with a debug line; it never aborts.
    /// `functions` is the number of functions of the library.
    pub(crate) fn from_env(lib: &str, functions: usize) -> Self {
        let trace = match trusted_text(c"CUDA_STUBS_TRACE").map(|v| parse_trace_filter(&v)) {
            Some(Ok(filter)) => filter,
            Some(Err(why)) => {
                line(lib, format_args!("{why}: tracing off"));
                None
            }
            None => None,
        };
        let faults = match trusted_text(c"CUDA_STUBS_FAULT").map(|v| parse_fault_spec(&v)) {
            Some(Ok(rules)) => rules,
            Some(Err(why)) => {
                line(lib, format_args!("{why}: fault injection off"));
                Vec::new()
            }
            None => Vec::new(),
        };
        // The seed only draws `%P` faults: without faults it is not even read.
        let seed = if faults.is_empty() {
            0
        } else {
            trusted_text(c"CUDA_STUBS_FAULT_SEED")
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0)
        };
        let mut fd = 2;
        if trace.is_some() {
            if let Some(path) = trusted_text(c"CUDA_STUBS_TRACE_FILE") {
                let truncate = trusted_text(c"CUDA_STUBS_TRACE_TRUNCATE").is_some_and(|v| v == "1");
                match open_trace_file(&path, truncate) {
                    Ok(opened) => fd = opened,
                    Err(why) => line(
                        lib,
                        format_args!("CUDA_STUBS_TRACE_FILE={path}: {why}: tracing to stderr"),
                    ),
                }
            }
        }
        let states = if trace.is_some() || !faults.is_empty() {
            (0..functions)
                .map(|_| HookState {
                    real: AtomicPtr::new(core::ptr::null_mut()),
                    rule: AtomicPtr::new(core::ptr::null_mut()),
                    calls: AtomicU64::new(0),
                })
                .collect()
        } else {
            Vec::new()
        };
        HookConfig {
            trace,
            faults,
            seed,
            fd,
            states,
        }
    }

    /// True when tracing or fault injection is on for any function.
    pub(crate) fn is_active(&self) -> bool {
        !self.states.is_empty()
    }

    /// True when `name` is traced or has a fault rule.
    pub(crate) fn selects(&self, name: &str) -> bool {
        self.traces(name) || self.faults.iter().any(|r| r.name == name)
    }

    /// Arms function `index` (`name`): its fault rule (if any) and the function the traced
    /// entry calls. False when there is no state for it.
    pub(crate) fn arm(&self, index: usize, name: &str, target: *mut ()) -> bool {
        let Some(state) = self.states.get(index) else {
            return false;
        };
        if let Some(rule) = self.faults.iter().find(|r| r.name == name) {
            state
                .rule
                .store((rule as *const FaultRule).cast_mut(), Ordering::Relaxed);
        }
        state.real.store(target, Ordering::Release);
        true
    }

    /// The armed target of function `index`, if it is armed.
    pub(crate) fn armed(&self, index: usize) -> Option<*mut ()> {
        let p = self.states.get(index)?.real.load(Ordering::Acquire);
        (!p.is_null()).then_some(p)
    }

    fn traces(&self, name: &str) -> bool {
        self.trace.as_ref().is_some_and(|t| t.matches(name))
    }

    /// Before the call: counts it and returns the status to inject instead, if function
    /// `index`'s fault rule fires on this call.
    pub(crate) fn inject(&self, index: usize, name: &[u8]) -> Option<i64> {
        let state = self.states.get(index)?;
        let n = state.calls.fetch_add(1, Ordering::Relaxed) + 1;
        // SAFETY: a non-null rule points into self.faults, which lives as long as self.
        let rule = unsafe { state.rule.load(Ordering::Relaxed).as_ref() }?;
        let fire = match rule.when {
            FaultWhen::Always => true,
            FaultWhen::Nth(k) => n == k,
            FaultWhen::Probability(p) => {
                let draw = splitmix64(self.seed ^ name_hash(name) ^ n.wrapping_mul(0x9E37_79B9));
                ((draw >> 11) as f64 / (1u64 << 53) as f64) < p
            }
        };
        fire.then_some(rule.code)
    }

    /// After the call: writes the trace line (one `write(2)`, so lines from several threads
    /// never interleave) when the function is traced.
    pub(crate) fn record(&self, lib: &str, name: &str, start_ns: u64, result: TraceResult) {
        if !self.traces(name) {
            return;
        }
        let ns = clock_ns().saturating_sub(start_ns);
        let result: String = match result {
            TraceResult::Status(r) => format!("{r}"),
            TraceResult::Injected(r) => format!("{r} (injected)"),
            TraceResult::Pointer(p) => format!("{p:#x}"),
            TraceResult::Void => "void".into(),
        };
        let text = format!("cuda-stubs[{lib}]: trace {name} -> {result} {ns} ns\n");
        write_all(self.fd, text.as_bytes());
    }
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

/// What a traced call returned.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TraceResult {
    /// A status from the real function (or a count, [`RetKind::NegatedStatus`]).
    Status(i64),
    /// A status injected by `CUDA_STUBS_FAULT`; the real function was not called.
    Injected(i64),
    /// A pointer.
    Pointer(usize),
    /// Nothing (`void`, or a struct by value).
    Void,
}

impl TraceResult {
    /// The result of a function of kind `ret` from its raw return register.
    pub(crate) fn from_raw(ret: RetKind, raw: u64) -> Self {
        match ret {
            // Status types are C enums: a 32-bit int in the low half of the register.
            RetKind::Status | RetKind::Opaque => TraceResult::Status(i64::from(raw as u32 as i32)),
            RetKind::Pointer => TraceResult::Pointer(raw as usize),
            // A count or a negated status: the whole signed register.
            RetKind::NegatedStatus => TraceResult::Status(raw as i64),
            RetKind::Void | RetKind::Custom => TraceResult::Void,
        }
    }
}
