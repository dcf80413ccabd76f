//! The symbols that tell a cuda-stubs file from NVIDIA's library: what the search rejects as a
//! candidate (`probe.rs`) and what says no CUDA release in the process (`release.rs`).

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
