//! Trying one candidate: the file's checks, `dlopen`, the stub marker and the version; and the
//! companion a bound library needs beside it. What the system does for each step is `os`'s
//! (`Handle`, `check_file`).

use super::candidates::Candidate;
use super::dependency::load_lazy_dependency;
use super::driver::Driver;
use super::driver_cap;
use super::markers::{COMPAT_MARKER, is_stub};
use super::order::Origin;
use super::paths::{file_name, join, parent};
use super::reject::{MIN_VERSION, ProcessRelease, Reject};
use super::release;
use super::version::reported_version;
use crate::debug::line;
use crate::os::{Handle, LoadError, check_file, companion_name, is_file, major_of_name};
use crate::spec::LibrarySpec;

/// Tries one candidate: `Ok` holds the handle and the version (`1000 * major + 10 * minor`,
/// from the library, else from its file name, else 0). Nothing of the candidate is called
/// before its lazy dependency is loaded (`dependency.rs`).
///
/// `release` is the process's CUDA release for a spec under the rule of one release per process
/// (`release.rs`): a candidate of another one is rejected (before `dlopen` where its name or,
/// for a spec with anchors, its file's `DT_NEEDED` says so, else by its version), except a copy
/// the process already has (never a second copy). A candidate file of a spec with anchors has
/// what it needs and the process lacks loaded from its own folder first.
///
/// `driver` caps the release the same way (`driver_cap.rs`): a candidate of a major it cannot
/// run is rejected, before `dlopen` where its name or the CUDA library its `DT_NEEDED` names
/// says the major, else by its version. `None`: no cap (no driver known, or a copy bound
/// whatever the driver: already loaded, or a fallback the search chose).
pub(crate) fn try_candidate(
    spec: &LibrarySpec,
    c: &Candidate,
    release: Option<ProcessRelease>,
    driver: Option<Driver>,
) -> Result<(Handle, i32), Reject> {
    let name_major = match c.name_major {
        0 => major_of_name(spec, file_name(c.target.to_bytes())),
        m => m,
    };
    let handle = open_candidate(spec, c, release, driver, name_major)?;
    if is_stub(&handle) {
        // A stub: keep it loaded (never dlclose) but never call it.
        return Err(match handle.symbol(COMPAT_MARKER) {
            // SAFETY: the compatibility libraries' `static cuda_stubs_compat_major: i32`.
            Some(major) => Reject::IsCompat(unsafe { major.cast::<i32>().read() }),
            None => Reject::IsStub,
        });
    }
    load_lazy_dependency(spec.real, &handle)?;
    let by_name = i32::try_from(name_major.saturating_mul(1000)).unwrap_or(0);
    let version = reported_version(spec.real, &handle).unwrap_or(by_name);
    if version != 0 && version < MIN_VERSION {
        return Err(Reject::TooOld(version));
    }
    if c.origin != Origin::AlreadyLoaded {
        // Loaded, and never unloaded: a static-runtime cuRAND of another major (or of one the
        // driver cannot run) stays mapped but is never called.
        release::check_version(version, release)?;
        driver_cap::check_version(version, driver)?;
    }
    Ok((handle, version))
}

/// A copy already loaded is reopened, never loaded again (the system's "already loaded" handle:
/// `RTLD_NOLOAD`, `GetModuleHandleExW`); a path is checked first (`os::check_file`: on Linux
/// file, ELF class and machine; on Windows file) and, for a spec with anchors, prepared under
/// the one-release rule; a soname that says its major (`libcufft.so.11`: 12.x; `libcudart.so.12`,
/// for a runtime binding after the math libraries) is checked before it is opened, against the
/// process's release and its driver; a bare name goes through the system loader's own search.
/// A file whose name says no major is prepared too when a driver caps the release: its
/// `DT_NEEDED` may say it.
fn open_candidate(
    spec: &LibrarySpec,
    c: &Candidate,
    release: Option<ProcessRelease>,
    driver: Option<Driver>,
    name_major: u32,
) -> Result<Handle, Reject> {
    if c.origin == Origin::AlreadyLoaded {
        // A loaded object is a valid library of this machine already: no file check.
        return Handle::loaded(&c.target).map_err(rejected);
    }
    if !c.is_soname() {
        check_file(&c.target)?;
        let anchored = !spec.real.same_release_as.is_empty();
        if anchored || (driver.is_some() && name_major == 0) {
            release::prepare_file(spec, &c.target, release, driver)?;
        }
    }
    release::check_version(
        i32::try_from(name_major.saturating_mul(1000)).unwrap_or(0),
        release,
    )?;
    driver_cap::check(name_major, None, driver)?;
    Handle::open(&c.target).map_err(rejected)
}

/// A failed open as the search reports it: "not found" when the loader found no such file.
fn rejected(e: LoadError) -> Reject {
    if e.not_found {
        Reject::NotFound
    } else {
        Reject::Dlopen(e.text)
    }
}

/// Loads the spec's companion from the real library's directory, if there is one there; once
/// loaded, the real library's `dlopen` of its bare soname finds it (Windows: its `LoadLibrary`
/// of the bare DLL name finds the loaded module). `real` is the bound file.
pub(crate) fn preload_companion(spec: &LibrarySpec, real: &[u8], version: i32) {
    let (Some(name), Some(dir)) = (companion_name(spec, version), parent(real)) else {
        return;
    };
    let file = join(dir, name.as_bytes());
    if !is_file(&file) {
        return;
    }
    let shown = file.to_string_lossy();
    match Handle::open(&file).map_err(rejected) {
        Ok(_) => line(spec.real.name, format_args!("preloaded {shown}")),
        Err(why) => line(spec.real.name, format_args!("preload {shown}: {why}")),
    }
}
