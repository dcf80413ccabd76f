//! Parsers of the tracing and fault-injection variables. Pure functions of a string, so they
//! can be fuzzed (`fuzz/`) and unit-tested.

use crate::decimal::parse_unit_f64;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Which functions `CUDA_STUBS_TRACE` selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceFilter {
    /// `1`, `all` or `*`: every function.
    All,
    /// Exact names and `prefix*` patterns, e.g. `cudaMalloc,cudaMemcpy*`.
    Names(Vec<String>),
}

impl TraceFilter {
    /// True when the filter selects `name`.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            TraceFilter::All => true,
            TraceFilter::Names(list) => list.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == p,
            }),
        }
    }
}

/// When an injected fault fires.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FaultWhen {
    /// Every call.
    Always,
    /// Only the Nth call (1-based).
    Nth(u64),
    /// Each call with this probability, drawn from a generator seeded by
    /// `CUDA_STUBS_FAULT_SEED`, the function name and the call number (reproducible).
    Probability(f64),
}

/// One `CUDA_STUBS_FAULT` entry: make `name` return `code` instead of calling the real function.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultRule {
    /// The C function name.
    pub name: String,
    /// The status value returned (e.g. 2 = `cudaErrorMemoryAllocation`).
    pub code: i64,
    /// When it fires.
    pub when: FaultWhen,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Parses `CUDA_STUBS_TRACE`: `1`, `all`, `*`, or a comma-separated list of function names,
/// each optionally ending in `*` (prefix match). `Ok(None)` for empty or `0` (tracing off).
///
/// # Errors
/// A message naming the first malformed entry.
pub fn parse_trace_filter(value: &str) -> Result<Option<TraceFilter>, String> {
    let value = value.trim();
    match value {
        "" | "0" => return Ok(None),
        "1" | "all" | "*" => return Ok(Some(TraceFilter::All)),
        _ => {}
    }
    let mut names = Vec::new();
    for entry in value.split(',').map(str::trim) {
        let base = entry.strip_suffix('*').unwrap_or(entry);
        if !valid_name(base) {
            return Err(format!(
                "CUDA_STUBS_TRACE: bad entry {entry:?} (want NAME or PREFIX*)"
            ));
        }
        names.push(entry.to_string());
    }
    Ok(Some(TraceFilter::Names(names)))
}

/// Parses `CUDA_STUBS_FAULT`: comma-separated `NAME=CODE`, `NAME=CODE@N` (only the Nth call,
/// N ≥ 1) or `NAME=CODE%P` (each call with probability P, 0 ≤ P ≤ 1). CODE is a non-negative
/// integer below 2^31. Empty means no faults.
///
/// # Errors
/// A message naming the first malformed entry.
pub fn parse_fault_spec(value: &str) -> Result<Vec<FaultRule>, String> {
    let mut rules = Vec::new();
    for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let bad = |why: &str| format!("CUDA_STUBS_FAULT: bad entry {entry:?}: {why}");
        let (name, rest) = entry
            .split_once('=')
            .ok_or_else(|| bad("want NAME=CODE[@N|%P]"))?;
        if !valid_name(name) {
            return Err(bad("not a function name"));
        }
        let (code, when) = if let Some((code, n)) = rest.split_once('@') {
            let n: u64 = n.parse().map_err(|_| bad("@N wants a positive integer"))?;
            if n == 0 {
                return Err(bad("@N counts from 1"));
            }
            (code, FaultWhen::Nth(n))
        } else if let Some((code, p)) = rest.split_once('%') {
            // `str::parse::<f64>`'s result without linking its tables (`decimal.rs`).
            let p = parse_unit_f64(p).ok_or_else(|| bad("%P wants a number from 0 to 1"))?;
            if !(0.0..=1.0).contains(&p) {
                return Err(bad("%P wants a number from 0 to 1"));
            }
            (code, FaultWhen::Probability(p))
        } else {
            (rest, FaultWhen::Always)
        };
        let code: i64 = code.parse().map_err(|_| bad("CODE wants an integer"))?;
        if !(0..=i64::from(i32::MAX)).contains(&code) {
            return Err(bad("CODE out of range"));
        }
        rules.push(FaultRule {
            name: name.to_string(),
            code,
            when,
        });
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_filter_forms() {
        assert_eq!(parse_trace_filter(" 0 "), Ok(None));
        assert_eq!(parse_trace_filter("all"), Ok(Some(TraceFilter::All)));
        let f = parse_trace_filter("cudaMalloc, cudaMemcpy*")
            .unwrap()
            .unwrap();
        assert!(f.matches("cudaMalloc") && f.matches("cudaMemcpyAsync"));
        assert!(!f.matches("cudaMallocHost") && !f.matches("cudaFree"));
        assert!(parse_trace_filter("cuda Malloc").is_err());
        assert!(parse_trace_filter("a,,b").is_err());
        assert!(parse_trace_filter("**").is_err());
    }

    #[test]
    fn fault_spec_forms() {
        let r = parse_fault_spec("cudaMalloc=2, nvrtcCompileProgram=6@3,cuInit=100%0.5").unwrap();
        assert_eq!(
            r[0],
            FaultRule {
                name: "cudaMalloc".into(),
                code: 2,
                when: FaultWhen::Always
            }
        );
        assert_eq!(r[1].when, FaultWhen::Nth(3));
        assert_eq!(r[2].when, FaultWhen::Probability(0.5));
        assert_eq!(parse_fault_spec(""), Ok(vec![]));
        for bad in [
            "x",
            "=2",
            "a=",
            "a=2@0",
            "a=2%1.5",
            "a=-1",
            "a=2@x",
            "a=99999999999",
            "a b=1",
            "a=2%nan",
        ] {
            assert!(parse_fault_spec(bad).is_err(), "{bad} accepted");
        }
    }
}
