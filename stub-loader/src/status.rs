use crate::library::Library;
use core::ffi::{CStr, c_char, c_int};

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
        path: loaded.path().map_or(core::ptr::null(), CStr::as_ptr),
        found_by: loaded
            .origin
            .map_or(core::ptr::null(), |o| o.as_cstr().as_ptr()),
        message: loaded.summary().as_ptr(),
        resolved: library.resolved_count(),
        missing: library.missing_count(),
    };
    // SAFETY: out is non-NULL and, by contract, writable.
    unsafe { out.write(status) };
    0
}

/// What a stub knows about the CUDA driver and its real library's release; filled by its
/// `cuda_stubs_<name>_driver_status` (header `cuda_stubs.h`, which declares one per stub). The
/// driver caps the release a stub binds: a copy of a CUDA major the driver cannot run is
/// refused (book: "Driver and toolkit").
///
/// Versioned by its size: the caller sets `size` to `sizeof(cuda_stubs_driver_status)` of its
/// header, the stub fills what that size holds of its own version and sets `size` to what it
/// wrote; fields are only ever added at the end. Every string is NUL-terminated, owned by the
/// stub and valid for the life of the process.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CudaStubsDriverStatus {
    /// In: the size of the caller's struct (`sizeof(cuda_stubs_driver_status)`); out: the bytes
    /// the stub wrote.
    pub size: u32,
    /// What the driver reports (`cuDriverGetVersion`, `1000 * major + 10 * minor`: 12040 for
    /// CUDA 12.4); 0 when no driver is known.
    pub cuda_version: c_int,
    /// How the bound release stands with the driver: one of `CUDA_STUBS_DRIVER_*`.
    pub fit: c_int,
    /// The driver's file, or NULL when none is known.
    pub path: *const c_char,
    /// `fit`'s name: `runs`, `driver-unknown`, `override-beyond` …
    pub fit_name: *const c_char,
    /// One line: the driver and the bound release (`CUDA 12.9 is the newest release found that
    /// the driver (…, CUDA 12.4) runs`), or the warning for a release beyond it.
    pub message: *const c_char,
}

/// Runs the search if it has not run yet and describes the driver and the bound release in
/// `*out`, as much of it as `out->size` holds (this first version's fields all, at least).
///
/// Returns 0, or -1 when `out` is NULL or its `size` is smaller than this first version of the
/// struct (nothing written).
///
/// # Safety
/// `out` is NULL or points to writable storage of `out->size` bytes, whose first four are that
/// size.
pub unsafe fn fill_driver_status(library: &Library, out: *mut CudaStubsDriverStatus) -> c_int {
    if out.is_null() {
        return -1;
    }
    let own = core::mem::size_of::<CudaStubsDriverStatus>();
    // SAFETY: non-NULL and, by contract, its first four bytes are readable.
    let size = unsafe { core::ptr::addr_of!((*out).size).read_unaligned() };
    if usize::try_from(size).is_ok_and(|size| size < own) {
        return -1;
    }
    let loaded = library.loaded();
    let driver = loaded.driver();
    let fit = loaded.driver_fit();
    let status = CudaStubsDriverStatus {
        size: u32::try_from(own).unwrap_or(u32::MAX),
        cuda_version: driver.map_or(0, |d| d.cuda_version),
        fit: fit.code(),
        path: driver.map_or(core::ptr::null(), |d| d.path.as_ptr()),
        fit_name: fit.as_cstr().as_ptr(),
        message: loaded.driver_message().as_ptr(),
    };
    // SAFETY: out is non-NULL and, by contract, writable for `size` bytes, at least `own`.
    unsafe { out.write_unaligned(status) };
    0
}

/// Declares, at a stub crate's root, what every stub has beside its generated declarations and
/// its adapters, from its spec (`stub_spec::libraries::<LIB>`):
///
/// - `LIBRARY: stub_loader::Library`, the real library searched for on the first call, with
///   the spec's `real` part and the crate's `replacements` (default none), `proc_address` (the
///   spec's getter with the crate's generated `(names, entries)` table; default none) and
///   `last_error_readers` (the runtime's last-error wrappers, recording the spec's typed
///   errors; default none);
/// - `STATUS_NO_LIBRARY` and `STATUS_ABSENT`, the spec's typed errors in the status type (a C
///   enum's code, or a status struct's with its other field 0: [`status_value`](crate::status_value));
/// - the exports `int cuda_stubs_<name>_status(cuda_stubs_status *out)` and `int
///   cuda_stubs_<name>_driver_status(cuda_stubs_driver_status *out)` (`cuda_stubs.h`, which
///   codegen declares from the same specs).
///
/// The generated `#[stub_macros::cuda_stubs(.., real = crate::LIBRARY)]` is given `LIBRARY` by
/// its invocation; hand-written code names these items at the crate root. `name` must be the
/// spec's name (checked at compile time): it spells the status export.
///
/// ```ignore
/// stub_loader::stub_library! {
///     name: nvrtc,
///     spec: stub_spec::libraries::NVRTC,
///     status_type: types::nvrtcResult,
///     functions: api::FUNCTIONS,
///     replacements: REPLACEMENTS,
/// }
/// ```
#[macro_export]
macro_rules! stub_library {
    (
        name: $name:ident,
        spec: $spec:path,
        status_type: $status:ty,
        functions: $functions:expr
        $(, replacements: $replacements:expr)?
        $(, proc_address: ($names:expr, $entries:expr))?
        $(, last_error_readers: $readers:expr)?
        $(,)?
    ) => {
        const _: () = {
            let (a, b) = (::core::stringify!($name).as_bytes(), $spec.real.name.as_bytes());
            ::core::assert!(a.len() == b.len(), "stub_library!: `name` is not the spec's name");
            let mut i = 0;
            while i < a.len() {
                ::core::assert!(a[i] == b[i], "stub_library!: `name` is not the spec's name");
                i += 1;
            }
        };

        #[doc = ::core::concat!("The real ", ::core::stringify!($name), " library, searched for on the first call.")]
        pub(crate) static LIBRARY: $crate::Library = $crate::Library::new(
            {
                static SPEC: $crate::LibrarySpec = $crate::LibrarySpec {
                    real: $spec.real,
                    replacements: $crate::stub_library!(@replacements $($replacements)?),
                    proc_address: $crate::stub_library!(@proc_address $spec $(, $names, $entries)?),
                    last_error: $crate::stub_library!(@last_error $spec $(, $readers)?),
                };
                &SPEC
            },
            &$functions,
        );

        /// Returned by every function when no real library was found: the spec's
        /// `errors.no_library`.
        // SAFETY: the library's status type (`status_value`'s contract; its size is checked at
        // compile time).
        pub const STATUS_NO_LIBRARY: $status =
            unsafe { $crate::status_value::<$status>($spec.errors.no_library.value) };
        /// Returned by a function the loaded library lacks (or cannot take with this ABI): the
        /// spec's `errors.absent`.
        // SAFETY: as `STATUS_NO_LIBRARY`.
        pub const STATUS_ABSENT: $status =
            unsafe { $crate::status_value::<$status>($spec.errors.absent.value) };

        #[doc = ::core::concat!("`int cuda_stubs_", ::core::stringify!($name), "_status(cuda_stubs_status *out)` (`cuda_stubs.h`): finds the real library if no call has yet, and describes what is bound. Returns 0, or -1 for a NULL `out`.")]
        ///
        /// # Safety
        /// `out` is NULL or points to writable storage for one `cuda_stubs_status`.
        #[unsafe(export_name = ::core::concat!("cuda_stubs_", ::core::stringify!($name), "_status"))]
        pub unsafe extern "C" fn cuda_stubs_status(
            out: *mut $crate::CudaStubsStatus,
        ) -> ::core::ffi::c_int {
            // SAFETY: forwarded contract.
            unsafe { $crate::fill_status(&LIBRARY, out) }
        }

        #[doc = ::core::concat!("`int cuda_stubs_", ::core::stringify!($name), "_driver_status(cuda_stubs_driver_status *out)` (`cuda_stubs.h`): finds the real library if no call has yet, and describes the CUDA driver and how the bound release stands with it. Returns 0, or -1 for a NULL `out` or an `out->size` smaller than the struct's first version.")]
        ///
        /// # Safety
        /// `out` is NULL or points to writable storage of `out->size` bytes, whose first four
        /// are that size.
        #[unsafe(export_name = ::core::concat!("cuda_stubs_", ::core::stringify!($name), "_driver_status"))]
        pub unsafe extern "C" fn cuda_stubs_driver_status(
            out: *mut $crate::CudaStubsDriverStatus,
        ) -> ::core::ffi::c_int {
            // SAFETY: forwarded contract.
            unsafe { $crate::fill_driver_status(&LIBRARY, out) }
        }
    };
    (@replacements) => { &[] };
    (@replacements $replacements:expr) => { $replacements };
    (@proc_address $spec:path) => { ::core::option::Option::None };
    (@proc_address $spec:path, $names:expr, $entries:expr) => {
        ::core::option::Option::Some($crate::ProcAddress {
            getter: match $spec.proc_address {
                ::core::option::Option::Some(source) => source.getter,
                ::core::option::Option::None => {
                    ::core::panic!("stub_library!: the spec names no proc_address getter")
                }
            },
            names: $names,
            entries: $entries,
        })
    };
    (@last_error $spec:path) => { ::core::option::Option::None };
    (@last_error $spec:path, $readers:expr) => {
        ::core::option::Option::Some($crate::LastError {
            // The runtime's `cudaError_t` (`c_uint`), the one API with a last error.
            no_library: $spec.errors.no_library.value as u32,
            absent: $spec.errors.absent.value as u32,
            readers: $readers,
            take: match $spec.last_error {
                ::core::option::Option::Some(names) => names.take,
                ::core::option::Option::None => {
                    ::core::panic!("stub_library!: the spec names no last-error readers")
                }
            },
        })
    };
}
