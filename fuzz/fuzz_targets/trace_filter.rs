//! `CUDA_STUBS_TRACE` parser: never panics; matching any name never panics either.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stub_loader::parse_trace_filter;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(Some(filter)) = parse_trace_filter(text) {
        let _ = filter.matches(text);
        let _ = filter.matches("cudaMalloc");
    }
});
