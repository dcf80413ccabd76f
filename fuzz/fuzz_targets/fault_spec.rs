//! `CUDA_STUBS_FAULT` parser: never panics, and every accepted rule is well-formed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stub_loader::{FaultWhen, parse_fault_spec};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(rules) = parse_fault_spec(text) {
        for rule in rules {
            assert!(!rule.name.is_empty() && rule.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
            assert!((0..=i64::from(i32::MAX)).contains(&rule.code));
            match rule.when {
                FaultWhen::Nth(n) => assert!(n >= 1),
                FaultWhen::Probability(p) => assert!((0.0..=1.0).contains(&p)),
                FaultWhen::Always => {}
            }
        }
    }
});
