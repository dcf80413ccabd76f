//! One CUDA release per process, for a library whose spec names anchors
//! ([`RealLibrary::same_release_as`](crate::spec::RealLibrary::same_release_as)) and for the
//! anchors themselves: the release the process already has ([`of_process`]), whether a
//! candidate file belongs to it before `dlopen` and what it needs loaded first from its own
//! folder ([`prepare_file`]), and whether a loaded candidate does ([`check_version`]).
//!
//! Why before `dlopen`: loading 13.5's `libcurand.so.10` (NVIDIA's wheel) loads its `DT_NEEDED`
//! `libcudart.so.13`, and nothing loaded is ever unloaded, so a process whose runtime is 12.9
//! would have two runtimes before the version could be asked. A candidate whose `DT_NEEDED`
//! names no anchor (11.x and 12.x cuRAND link the runtime statically) is checked by its version
//! once loaded; a bare soname (the dynamic loader's search) can only be checked that way.
//!
//! On Windows the same, with DLL names for sonames (`cudart64_12.dll`) and a DLL's imports for
//! `DT_NEEDED` ([`needed`]: 12.x's `cusolver64_11.dll` imports `cublas64_12.dll`, which says its
//! release before `LoadLibraryExW` as `libcublas.so.12` does); the math libraries' DLLs link the
//! runtime statically, so only their version or an imported cuBLAS says it.

use super::dependency::load_lazy_dependency;
use super::driver::{Driver, process_driver};
use super::driver_cap;
use super::markers::is_stub;
use super::paths::join;
use super::reject::{ProcessRelease, Reject};
use super::version::reported_version;
use crate::debug::line;
use crate::os::{
    Handle, copies_loaded, file_names, is_file, is_loaded, loaded_release_named, needed,
    needed_dirs,
};
use crate::spec::{LibrarySpec, REAL_LIBRARIES, RealLibrary};
use alloc::boxed::Box;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;

/// The release the process has for `spec`, `None` when nothing in it says one (or `spec` is in
/// no such rule: NVRTC, nvJitLink, the driver, NVML).
///
/// Only what the process has mapped says it, never a search: a stub never has another stub
/// (the runtime's) bind first to learn the release, since that would load a runtime the
/// process may not have (CuPy links the runtime statically: a `libcudart.so.13` loaded for its
/// cuBLAS would be a second runtime beside its own). In order:
///
/// 1. an anchor's soname (`libcudart.so.13` … newest first, then cuSOLVER's `libcublas.so.*`),
///    looked for with `RTLD_NOLOAD`: the runtime a program uses decides;
/// 2. else a library of the same rule the process has mapped ([`same_rule`]): another math
///    library (`libcublas.so.13` for cuFFT), or, for the runtime itself, any math library, so
///    that a runtime stub binding after the math stubs takes their release. Its soname says the
///    major, else its version does (`libcurand.so.10`: `curandGetVersion`).
///
/// With neither, the library's own search and version decide, and what it binds is the
/// release every library loaded after it must have.
pub(crate) fn of_process(spec: &LibrarySpec) -> Option<ProcessRelease> {
    let anchors = spec.real.same_release_as;
    let anchored = anchors.iter().find_map(|anchor| {
        file_names(anchor).iter().find_map(|s| {
            real_copy(s.name).map(|_| ProcessRelease {
                soname: s.name,
                major: s.major,
            })
        })
    });
    anchored.or_else(|| {
        // Asked only once a library's mapped copy says a release.
        let driver = core::cell::OnceCell::new();
        REAL_LIBRARIES
            .iter()
            .copied()
            .filter(|other| same_rule(spec.real, other))
            .find_map(|other| {
                loaded_release(other).filter(|r| within_driver(spec.real.name, r, &driver))
            })
    })
}

/// Whether the driver the process has runs `release`, found from a library's mapped copy (`lib`
/// is the stub searching, for its debug line): a copy
/// of a major it cannot run says no release, for it may be one a stub refused for the driver
/// and left mapped (13.x's `libnccl.so.2` loaded, found to be built for CUDA 13, never called),
/// which no runtime of the process goes with. An anchor the process has (its runtime) says the
/// release whatever the driver.
fn within_driver(
    lib: &str,
    release: &ProcessRelease,
    driver: &core::cell::OnceCell<Option<Driver>>,
) -> bool {
    let Some(d) = *driver.get_or_init(process_driver) else {
        return true;
    };
    let runs = stub_spec::driver_runs(d.cuda_version, release.major);
    if !runs {
        line(
            lib,
            format_args!(
                "{} is of CUDA {}, which the driver cannot run: it says no release",
                release.soname.to_string_lossy(),
                release.major
            ),
        );
    }
    runs
}

/// Whether `other` is under one CUDA release per process with `real`: it names `real` as its
/// anchor (a math library, for the runtime), or the two share an anchor (two math libraries).
fn same_rule(real: &RealLibrary, other: &RealLibrary) -> bool {
    other.name != real.name
        && other.same_release_as.iter().any(|anchor| {
            anchor.name == real.name || real.same_release_as.iter().any(|a| a.name == anchor.name)
        })
}

/// The release of `real`'s copy the process has mapped, if any: from its soname's major, else
/// (a soname several majors share) from its version, where only one copy has that soname. No copy is loaded (`RTLD_NOLOAD`); one is
/// asked for its version only once its lazy dependency is loaded (`dependency.rs`: cuDNN's
/// front library aborts without its graph sub-library, and a copy a cuDNN stub rejected for
/// want of it stays mapped), else it says no release.
fn loaded_release(real: &'static RealLibrary) -> Option<ProcessRelease> {
    let by_name = file_names(real).iter().find_map(|s| {
        let handle = real_copy(s.name)?;
        let major = match s.major {
            // Two copies of a name several majors share: one a stub loaded, found of another
            // release and left mapped, and `RTLD_NOLOAD` answers the first loaded, which may be
            // that one. Neither says the process's release.
            0 if copies_loaded(s.name) > 1 => {
                line(
                    real.name,
                    format_args!(
                        "{} is mapped more than once: it says no release",
                        s.name.to_string_lossy()
                    ),
                );
                return None;
            }
            0 => {
                load_lazy_dependency(real, &handle).ok()?;
                u32::try_from(reported_version(real, &handle)? / 1000).ok()?
            }
            m => m,
        };
        (major != 0).then_some(ProcessRelease {
            soname: s.name,
            major,
        })
    });
    // A DLL named after its release (CUPTI's `cupti64_2025.2.1.dll`) says its major by its
    // name; the name is kept for messages (once per search that finds one).
    by_name.or_else(|| {
        loaded_release_named(real)
            .into_iter()
            .find(|(name, major)| *major != 0 && real_copy(name).is_some())
            .map(|(name, major)| ProcessRelease {
                soname: Box::leak(name.into_boxed_c_str()),
                major,
            })
    })
}

/// The process's mapped copy of `name` (`RTLD_NOLOAD`) when it is NVIDIA's: a stub or a
/// compatibility library under NVIDIA's soname (the opt-in folder's `libcudart.so.12`, which
/// forwards to the runtime stub) says no release, and is never asked for a version (calling a
/// stub from another stub's search could re-enter it).
fn real_copy(name: &CStr) -> Option<Handle> {
    let handle = Handle::loaded(name).ok()?;
    (!is_stub(&handle)).then_some(handle)
}

/// An anchor soname `needed` names, and its major.
fn anchor_of(spec: &LibrarySpec, needed: &[Vec<u8>]) -> Option<(&'static CStr, u32)> {
    needed.iter().find_map(|n| {
        spec.real.same_release_as.iter().find_map(|anchor| {
            file_names(anchor)
                .iter()
                .find(|s| s.name.to_bytes() == n.as_slice())
                .map(|s| (s.name, s.major))
        })
    })
}

/// Prepares a candidate file for `dlopen`, from one read of its `DT_NEEDED`: rejected when it
/// names another major's anchor than the process has ([`check_needed`]), or a CUDA library of a
/// major `driver` cannot run (`driver_cap::needed_major`: 13.5's `libcurand.so.10` needs
/// `libcudart.so.13`); else, for a spec with anchors, what it needs, the process lacks and its
/// folder holds is loaded first ([`preload_needed`]).
pub(crate) fn prepare_file(
    spec: &LibrarySpec,
    path: &CStr,
    release: Option<ProcessRelease>,
    driver: Option<Driver>,
) -> Result<(), Reject> {
    let Some(needed) = needed(path) else {
        return Ok(());
    };
    check_needed(spec, &needed, release)?;
    if let (Some(_), Some((soname, major))) = (driver, driver_cap::needed_major(&needed)) {
        driver_cap::check(major, Some(soname), driver)?;
    }
    if !spec.real.same_release_as.is_empty() {
        preload_needed(spec, path, &needed);
    }
    Ok(())
}

/// Rejects a candidate whose `DT_NEEDED` (`needed`) names another major's anchor than the
/// process's release.
fn check_needed(
    spec: &LibrarySpec,
    needed: &[Vec<u8>],
    release: Option<ProcessRelease>,
) -> Result<(), Reject> {
    let Some(release) = release else {
        return Ok(());
    };
    match anchor_of(spec, needed) {
        Some((soname, major)) if major != release.major => Err(Reject::OtherRelease {
            major,
            needs: Some(soname),
            process: release,
        }),
        _ => Ok(()),
    }
}

/// Checks a loaded candidate's version (`1000 * major`) against the process's release.
pub(crate) fn check_version(version: i32, release: Option<ProcessRelease>) -> Result<(), Reject> {
    let (Some(release), Ok(major)) = (release, u32::try_from(version / 1000)) else {
        return Ok(());
    };
    if major == 0 || major == release.major {
        return Ok(());
    }
    Err(Reject::OtherRelease {
        major,
        needs: None,
        process: release,
    })
}

/// Loads, from a candidate file's own folder (and on Windows the other wheels' folders beside
/// it: `os::needed_dirs`), the NVIDIA libraries its `DT_NEEDED` (a DLL's imports) names that
/// the process lacks and those folders hold (the candidate passed [`check_needed`]): 13.5's
/// `libcurand.so.10` needs `libcudart.so.13`, 13.10's `libcublas.so.13` needs
/// `libcublasLt.so.13`, and neither has a RUNPATH, while their wheel folder (`nvidia/cu13/lib`)
/// holds both; 12.x's `cusolver64_11.dll` imports `cublas64_12.dll` from `nvidia\cublas\bin`.
/// Loaded by path first, each is then found by its soname (a loaded DLL by its name) when the
/// candidate is loaded. (A system library it needs, `libm.so.6`, is not in a CUDA folder.)
fn preload_needed(spec: &LibrarySpec, path: &CStr, needed: &[Vec<u8>]) {
    let dirs = needed_dirs(spec, path.to_bytes());
    preload(spec, &dirs, needed, PRELOAD_DEPTH);
}

/// How deep [`preload`] follows what a preloaded library needs in turn: 12.x's
/// `cusolver64_11.dll` needs `cusparse64_12.dll`, which needs `nvJitLink_120_0.dll` from a
/// third folder; nothing NVIDIA ships goes deeper.
const PRELOAD_DEPTH: u32 = 3;

/// Loads each of `needed` the process lacks from the first of `dirs` that holds it, after what
/// that file needs in turn (`depth` levels more): Windows looks for a DLL's imports in its own
/// folder only, so 12.x's `cusparse64_12.dll`, loaded by path from `nvidia\cusparse\bin`,
/// finds its `nvJitLink_120_0.dll` only once that is loaded.
fn preload(spec: &LibrarySpec, dirs: &[CString], names: &[Vec<u8>], depth: u32) {
    for soname in names {
        if CString::new(soname.as_slice()).is_ok_and(|s| is_loaded(&s)) {
            continue;
        }
        let Some(file) = dirs
            .iter()
            .map(|d| join(d.to_bytes(), soname))
            .find(|f| is_file(f))
        else {
            continue;
        };
        if depth > 0
            && let Some(more) = needed(&file)
        {
            preload(spec, dirs, &more, depth - 1);
        }
        let shown = file.to_string_lossy();
        match Handle::open(&file) {
            Ok(_) => line(
                spec.real.name,
                format_args!("preloaded {shown} (needed by the candidate)"),
            ),
            Err(why) => line(spec.real.name, format_args!("preload {shown}: {why}")),
        }
    }
}
