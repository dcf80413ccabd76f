//! The symbols that tell a cuda-stubs file from NVIDIA's library: what the search rejects as a
//! candidate (`probe.rs`) and what says no CUDA release in the process (`release.rs`); the mock
//! device's status (`mock.rs`).

use crate::os::Handle;
use core::ffi::CStr;

/// Name of the data symbol every cuda-stubs library exports. A `dlopen`ed candidate that has it
/// is a stub, not NVIDIA's library, and is rejected.
pub const STUB_MARKER: &CStr = c"cuda_stubs_marker";

/// Name of the `int` every compatibility library (`stub-compat`: NVIDIA's soname, forwarding
/// to the stub) exports, its CUDA major: a candidate with it is rejected as
/// [`Reject::IsCompat`](super::Reject::IsCompat), so the debug log and the status say which
/// file it was.
pub const COMPAT_MARKER: &CStr = c"cuda_stubs_compat_major";

/// Whether `handle` is a cuda-stubs file (a stub, or a compatibility library under NVIDIA's
/// soname): it exports [`STUB_MARKER`]. Never to be called, nor to say a release.
pub(crate) fn is_stub(handle: &Handle) -> bool {
    handle.symbol(STUB_MARKER).is_some()
}

/// The mock device's state in words (`cuda_stubs_mock_status`, never NULL): what the status of a
/// stub bound to the mock (`mock.rs`) adds.
const MOCK_STATUS: &CStr = c"cuda_stubs_mock_status";

/// The text of `handle`'s `cuda_stubs_mock_status()`, for the mock device (`None` for any other
/// library).
pub(crate) fn mock_status(handle: &Handle) -> Option<alloc::string::String> {
    let f = handle.symbol(MOCK_STATUS)?;
    // SAFETY: the mock's `const char *cuda_stubs_mock_status(void)`.
    let f: unsafe extern "C" fn() -> *const core::ffi::c_char = unsafe { core::mem::transmute(f) };
    // SAFETY: no arguments; never NULL, valid for the life of the process.
    let text = unsafe { f() };
    // SAFETY: a NUL-terminated string, as above.
    (!text.is_null()).then(|| {
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    })
}
