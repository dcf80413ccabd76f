use crate::library::Library;
use core::ffi::{c_char, c_int};

/// What a stub knows about its real library; filled by its `cuda_stubs_<name>_status` (header
/// `cuda_stubs.h`, which declares one per stub).
///
/// Every string is NUL-terminated, owned by the stub and valid for the life of the process.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CudaStubsStatus {
    /// 1 when a real library is bound, 0 when none was found.
    pub bound: c_int,
    /// The bound library's version, `1000 * major + 10 * minor` (e.g. 12090); 0 when unknown or
    /// not bound.
    pub version: c_int,
    /// Path of the bound file, or NULL.
    pub path: *const c_char,
    /// How it was found ("already loaded (RTLD_NOLOAD)", "dynamic loader search" …), or NULL.
    pub found_by: *const c_char,
    /// One line: what was bound, or that nothing was found and where the stub searched.
    pub message: *const c_char,
    /// Functions called so far that were bound to the real library.
    pub resolved: u32,
    /// Functions called so far that were absent from the loaded version or refused.
    pub missing: u32,
}

/// Runs the search if it has not run yet and describes the result in `*out`.
///
/// Returns 0, or -1 when `out` is NULL (nothing written).
///
/// # Safety
/// `out` is NULL or points to writable storage for one [`CudaStubsStatus`].
pub unsafe fn fill_status(library: &Library, out: *mut CudaStubsStatus) -> c_int {
    if out.is_null() {
        return -1;
    }
    let loaded = library.loaded();
    let status = CudaStubsStatus {
        bound: c_int::from(loaded.is_bound()),
        version: loaded.version,
        path: loaded
            .path
            .as_ref()
            .map_or(core::ptr::null(), |p| p.as_ptr()),
        found_by: loaded
            .origin
            .map_or(core::ptr::null(), |o| o.as_cstr().as_ptr()),
        message: loaded.summary.as_ptr(),
        resolved: library.resolved_count(),
        missing: library.missing_count(),
    };
    // SAFETY: out is non-NULL and, by contract, writable.
    unsafe { out.write(status) };
    0
}
