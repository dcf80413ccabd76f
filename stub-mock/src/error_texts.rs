//! The error texts of the board's runtime, driver and NVML (`cudaGetErrorName`,
//! `cudaGetErrorString`, `cuGetErrorName`, `cuGetErrorString`, `nvmlErrorString`), as NVIDIA's
//! libraries answered them on a lent H100 with driver 580.159.04 and the CUDA 13.0 runtime
//! (`tests/gpu/error_texts.sh`: `data/error-texts.tsv`, which the mock's build turns into
//! tables). A program under the mock prints what it would print on the board ("invalid
//! argument", not the header's paragraph the stubs answer with when no library is bound).
//!
//! A leaf: it imports none of the mock's layers; the faces answer their functions with it.

use core::ffi::CStr;

include!(concat!(env!("OUT_DIR"), "/error_texts.rs"));

/// What the board's runtime answers for `code`: (`cudaGetErrorName`, `cudaGetErrorString`);
/// for a code it does not know, its "unrecognized error code" for both.
pub fn runtime(code: i32) -> (&'static CStr, &'static CStr) {
    match RUNTIME.binary_search_by_key(&code, |e| e.0) {
        Ok(i) => (RUNTIME[i].1, RUNTIME[i].2),
        Err(_) => RUNTIME_UNKNOWN,
    }
}

/// What the board's driver answers for `code`: the name and the description, or `None` for a
/// code it does not know (it then answers `CUDA_ERROR_INVALID_VALUE` and writes NULL).
pub fn driver(code: i32) -> Option<(&'static CStr, &'static CStr)> {
    DRIVER
        .binary_search_by_key(&code, |e| e.0)
        .ok()
        .map(|i| (DRIVER[i].1, DRIVER[i].2))
}

/// What the board's NVML answers for `code` (`nvmlErrorString`): its text, or its text for a
/// code it does not know.
pub fn nvml(code: i32) -> &'static CStr {
    match NVML.binary_search_by_key(&code, |e| e.0) {
        Ok(i) => NVML[i].1,
        Err(_) => NVML_UNKNOWN,
    }
}
