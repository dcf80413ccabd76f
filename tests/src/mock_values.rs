//! The values the ABI mock runtime answers with (`tests/mocks/cudart_abi.c`): recognisable per
//! field and per major, so a field read through the wrong layout never matches by accident.

/// FNV-1a of `s` (the mock's `mock_hash`).
pub fn fnv1a(s: &str) -> u32 {
    s.bytes().fold(2_166_136_261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    })
}

/// An `int` / `unsigned` field (`mock_int`).
pub fn mock_int(field: &str, major: u32) -> u32 {
    fnv1a(field) % 100_000 * 100 + major
}

/// A `size_t` field (`mock_size`).
pub fn mock_size(field: &str, major: u32) -> u64 {
    (u64::from(major) << 32) | u64::from(fnv1a(field) % 100_000)
}

/// The mock's `cudaDeviceGetAttribute(attr)` answer.
pub fn attr(attr: u32, major: u32) -> u32 {
    5_000_000 + 100 * attr + major
}
