//! The process's CUDA driver, as the search of every CUDA-versioned library needs it
//! ([`Driver`]): its CUDA version caps the release a stub binds (`driver_cap.rs`).
//!
//! Never loaded for a library that would not load it: a copy the process already has is read
//! with `RTLD_NOLOAD` (Windows: `GetModuleHandleExW`), which loads nothing
//! ([`process_driver`]); only for a library that loads the driver itself (the runtime, every
//! library needing a device: `DriverUse::Loads`) is it opened, the way that library would open
//! it, by its soname `libcuda.so.1` (`nvcuda.dll`), after the driver stub's override
//! `CUDA_STUBS_CUDA_PATH` ([`load_process_driver`]). A cuda-stubs file under the driver's name
//! (`markers.rs`) is never the driver. The version is `cuDriverGetVersion`'s, which needs no
//! `cuInit`.
//!
//! Known once per stub (each stub links its own copy of this crate, so its own cache): the
//! driver, once found, is never unloaded.

use super::candidates::Listed;
use super::listing::env_override;
use super::markers::is_stub;
use super::version::reported_version;
use crate::once::Once;
use crate::os::{Handle, file_names};
use crate::spec::LibrarySpec;
use alloc::boxed::Box;
use core::ffi::CStr;
use core::ops::ControlFlow;
use stub_spec::libraries::CUDA;

/// The CUDA driver the process has: `libcuda.so.1` (Windows `nvcuda.dll`) and the CUDA
/// version it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Driver {
    /// What `cuDriverGetVersion` reports, `1000 * major + 10 * minor`: 12040 for a driver of
    /// CUDA 12.4 (R550), 13000 for R580. The newest CUDA release it runs is of this major (and
    /// every older major): NVIDIA's minor-version compatibility.
    pub cuda_version: i32,
    /// The driver's file as the system loader mapped it (`/usr/lib/x86_64-linux-gnu/libcuda.so.1`,
    /// `C:\Windows\System32\nvcuda.dll`), or the name it was opened by when the loader does not
    /// say; NUL-terminated, valid for the life of the process.
    pub path: &'static CStr,
}

impl Driver {
    /// The CUDA major of [`Driver::cuda_version`] (12 for 12040).
    pub fn major(&self) -> u32 {
        u32::try_from(self.cuda_version / 1000).unwrap_or(0)
    }
}

/// The driver once a stub that may load it has looked (opened, or found none): the answer for
/// the rest of the process.
static OPENED: Once<Option<Driver>> = Once::new();

/// A stand-in spec of the driver, for its override's listing (`CUDA_STUBS_CUDA_PATH`: a file
/// or a folder, as the driver stub reads it).
static DRIVER_SPEC: LibrarySpec = LibrarySpec {
    real: CUDA.real,
    replacements: &[],
    proc_address: None,
    last_error: None,
};

/// The CUDA driver the process has loaded, without loading anything: the driver this stub
/// found or opened before, else the `libcuda.so.1` (`nvcuda.dll`) the process has mapped now
/// (`RTLD_NOLOAD`, `GetModuleHandleExW`; never a cuda-stubs file under that name). `None` when
/// the process has none, or its driver does not answer `cuDriverGetVersion`.
///
/// For stubs whose code needs the driver's version (the runtime stub's PTX reconciliation);
/// costs one `RTLD_NOLOAD` until a driver is found, nothing after.
pub fn process_driver() -> Option<Driver> {
    if let Some(known) = OPENED.get() {
        if known.is_some() {
            return *known;
        }
    }
    already_loaded()
}

/// The CUDA driver, loaded if the process has none yet, as a library that loads the driver
/// itself would load it (the runtime's `dlopen("libcuda.so.1")`, `LoadLibraryExW("nvcuda.dll")`
/// from the system folders): the one the process has mapped ([`process_driver`]), else the
/// driver stub's override `CUDA_STUBS_CUDA_PATH` (an absolute file or folder; ignored in
/// secure-execution processes), else the soname through the system loader's search. Looked for
/// once per stub: later calls answer the same. `None` on a machine without a driver (or one
/// that does not answer `cuDriverGetVersion`).
///
/// Only for a stub whose real library loads the driver anyway (`DriverUse::Loads`): a
/// compile-only process (NVRTC alone) must never map a driver it would not have mapped.
pub fn load_process_driver() -> Option<Driver> {
    OPENED
        .get_or_init(|| already_loaded().or_else(opened))
        .copied()
        .flatten()
}

/// The process's mapped driver (`RTLD_NOLOAD` of each of the driver's names), if it is NVIDIA's
/// and answers its version.
fn already_loaded() -> Option<Driver> {
    file_names(CUDA.real).iter().find_map(|s| {
        let handle = Handle::loaded(s.name).ok()?;
        driver_of(&handle, s.name)
    })
}

/// The driver opened: the override's candidates first (as the driver stub tries them), then
/// each of its names through the system loader.
fn opened() -> Option<Driver> {
    let mut by_override = None;
    let _ = env_override(&DRIVER_SPEC, &mut |listed| {
        let Listed::Try(c) = listed else {
            return ControlFlow::Continue(());
        };
        match Handle::open(&c.target) {
            Ok(handle) => match driver_of(&handle, &c.target) {
                Some(driver) => {
                    by_override = Some(driver);
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            },
            Err(_) => ControlFlow::Continue(()),
        }
    });
    by_override.or_else(|| {
        file_names(CUDA.real).iter().find_map(|s| {
            let handle = Handle::open(s.name).ok()?;
            driver_of(&handle, s.name)
        })
    })
}

/// The driver `handle` is, opened as `name`: `None` for a cuda-stubs file (never called) or a
/// library that does not answer `cuDriverGetVersion`.
fn driver_of(handle: &Handle, name: &CStr) -> Option<Driver> {
    if is_stub(handle) {
        return None;
    }
    let cuda_version = reported_version(CUDA.real, handle)?;
    let path = match handle.path() {
        Some(path) => path,
        // Kept for the process: the driver is never unloaded, and this is read once per stub.
        None => Box::leak(Box::from(name)),
    };
    Some(Driver { cuda_version, path })
}
