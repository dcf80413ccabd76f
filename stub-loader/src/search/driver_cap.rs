//! The driver caps the process's CUDA release (part of one CUDA release per process): a
//! candidate of a major the process's driver cannot run ([`stub_spec::driver_runs`]: a driver
//! of CUDA 12.4 runs 12.x and 11.x) is refused, before `dlopen` where its name or the CUDA
//! library its `DT_NEEDED` names says the major ([`check`], [`needed_major`]), else once its
//! version says it; so the newest release the driver runs wins. What the search knows of the
//! driver is [`DriverOfSearch`]'s, and how the bound copy stands with it, [`DriverFit`].
//!
//! Why refuse rather than bind and let the library answer: NVIDIA's 13.5 runtime on a driver of
//! CUDA 12.4 answers every device call with 35, `cudaErrorInsufficientDriver`, while the 12.9
//! runtime beside it runs there (minor-version compatibility).

use super::driver::{Driver, load_process_driver, process_driver};
use super::reject::Reject;
use crate::debug::{Lossy, line};
use crate::os::file_names;
use crate::spec::{LibrarySpec, REAL_LIBRARIES};
use alloc::vec::Vec;
use core::cell::Cell;
use core::ffi::{CStr, c_int};
use stub_spec::DriverUse;

/// `fit` of the driver status (`cuda_stubs_driver_status`): the library is of the driver (the
/// driver itself, NVML): no CUDA release to cap.
pub const CUDA_STUBS_DRIVER_OF_THE_DRIVER: c_int = 0;
/// `fit`: no driver known (none loaded and the library loads none itself, or none on the
/// machine): the release is not capped.
pub const CUDA_STUBS_DRIVER_UNKNOWN: c_int = 1;
/// `fit`: the driver runs the bound release, the newest release found that it runs.
pub const CUDA_STUBS_DRIVER_RUNS: c_int = 2;
/// `fit`: the bound copy does not say its CUDA release (version 0): not checked.
pub const CUDA_STUBS_DRIVER_RELEASE_UNKNOWN: c_int = 3;
/// `fit`: beyond the driver, bound because the environment override names it (a warning).
pub const CUDA_STUBS_DRIVER_OVERRIDE_BEYOND: c_int = 4;
/// `fit`: beyond the driver, bound because the process already had it (a warning).
pub const CUDA_STUBS_DRIVER_LOADED_BEYOND: c_int = 5;
/// `fit`: beyond the driver, bound because the library needs no driver (NVRTC, nvJitLink,
/// nvFatbin) and nothing the driver runs is present.
pub const CUDA_STUBS_DRIVER_COMPILER_BEYOND: c_int = 6;
/// `fit`: nothing bound.
pub const CUDA_STUBS_DRIVER_NOT_BOUND: c_int = 7;

/// How the bound copy's release stands with the process's driver: what the status says
/// (`cuda_stubs_<name>_driver_status`, whose `fit` is [`DriverFit::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverFit {
    /// The library is of the driver (the driver itself, NVML): no CUDA release to cap.
    OfTheDriver,
    /// No driver known: none is loaded and the library loads none itself (a compiler), or
    /// none could be opened (a machine without a driver). The release is not capped: the
    /// choice is the search's alone.
    Unknown,
    /// The driver runs the bound release: the newest release found that it runs.
    Runs,
    /// The bound copy does not say its CUDA release (version 0): not checked.
    ReleaseUnknown,
    /// Beyond the driver, bound because an environment override (`CUDA_STUBS_<NAME>_PATH`)
    /// names it: the user's choice wins, with a warning.
    OverrideBeyond,
    /// Beyond the driver, bound because the process already has it (never a second copy), with
    /// a warning.
    LoadedBeyond,
    /// Beyond the driver, bound because the library needs no driver (NVRTC, nvJitLink,
    /// nvFatbin) and nothing the driver runs is present: it compiles; its PTX needs a newer
    /// driver, which the driver stub reconciles by compiling PTX to CUBIN.
    CompilerBeyond,
    /// Nothing bound (the status message says why, refusals for the driver included).
    NotBound,
}

impl DriverFit {
    /// Its C code, the driver status's `fit`: `CUDA_STUBS_DRIVER_*` (`cuda_stubs.h`).
    pub fn code(self) -> c_int {
        match self {
            DriverFit::OfTheDriver => CUDA_STUBS_DRIVER_OF_THE_DRIVER,
            DriverFit::Unknown => CUDA_STUBS_DRIVER_UNKNOWN,
            DriverFit::Runs => CUDA_STUBS_DRIVER_RUNS,
            DriverFit::ReleaseUnknown => CUDA_STUBS_DRIVER_RELEASE_UNKNOWN,
            DriverFit::OverrideBeyond => CUDA_STUBS_DRIVER_OVERRIDE_BEYOND,
            DriverFit::LoadedBeyond => CUDA_STUBS_DRIVER_LOADED_BEYOND,
            DriverFit::CompilerBeyond => CUDA_STUBS_DRIVER_COMPILER_BEYOND,
            DriverFit::NotBound => CUDA_STUBS_DRIVER_NOT_BOUND,
        }
    }

    /// Its name, for the status (`runs`, `override-beyond` …).
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            DriverFit::OfTheDriver => c"of-the-driver",
            DriverFit::Unknown => c"driver-unknown",
            DriverFit::Runs => c"runs",
            DriverFit::ReleaseUnknown => c"release-unknown",
            DriverFit::OverrideBeyond => c"override-beyond",
            DriverFit::LoadedBeyond => c"loaded-beyond",
            DriverFit::CompilerBeyond => c"compiler-beyond",
            DriverFit::NotBound => c"not-bound",
        }
    }

    /// Whether the bound release is one the driver cannot run (a warning).
    pub fn is_beyond(self) -> bool {
        matches!(
            self,
            DriverFit::OverrideBeyond | DriverFit::LoadedBeyond | DriverFit::CompilerBeyond
        )
    }
}

/// Refuses a candidate of CUDA `major` (0: not known) that `driver` cannot run; `needs` is the
/// CUDA library its `DT_NEEDED` names, when that is how the major is known. No driver known:
/// nothing is refused.
pub(crate) fn check(
    major: u32,
    needs: Option<&'static CStr>,
    driver: Option<Driver>,
) -> Result<(), Reject> {
    match driver {
        Some(d) if !stub_spec::driver_runs(d.cuda_version, major) => Err(Reject::BeyondDriver {
            major,
            needs,
            driver: d.cuda_version,
        }),
        _ => Ok(()),
    }
}

/// [`check`] of a loaded copy's version (`1000 * major + 10 * minor`; 0 unknown).
pub(crate) fn check_version(version: i32, driver: Option<Driver>) -> Result<(), Reject> {
    check(u32::try_from(version / 1000).unwrap_or(0), None, driver)
}

/// The first CUDA library a file's `DT_NEEDED` (a DLL's imports) names whose name says its
/// major (`libcudart.so.13`, `libcublasLt.so.13`: any spec's), with that major: a cuTENSOR of
/// CUDA 13 needs `libcublasLt.so.13`, which says its release before `dlopen` where its own
/// name (`libcutensor.so.2`) does not.
pub(crate) fn needed_major(needed: &[Vec<u8>]) -> Option<(&'static CStr, u32)> {
    needed.iter().find_map(|n| {
        REAL_LIBRARIES.iter().find_map(|library| {
            file_names(library)
                .iter()
                .find(|s| s.major != 0 && s.name.to_bytes() == n.as_slice())
                .map(|s| (s.name, s.major))
        })
    })
}

/// What one search knows of the driver, learnt when first needed (a search that binds a copy
/// the process already has never opens the driver): by `RTLD_NOLOAD` only for a library that
/// does not load the driver, opened for one that does ([`DriverUse`]), never for the driver's
/// own libraries.
#[derive(Debug)]
pub(crate) struct DriverOfSearch {
    spec: &'static LibrarySpec,
    /// `None` until asked; then the driver, if any.
    known: Cell<Option<Option<Driver>>>,
}

impl DriverOfSearch {
    pub(crate) fn new(spec: &'static LibrarySpec) -> Self {
        DriverOfSearch {
            spec,
            known: Cell::new(None),
        }
    }

    /// The driver that caps this search, learnt on the first call (and logged).
    pub(crate) fn get(&self) -> Option<Driver> {
        if let Some(known) = self.known.get() {
            return known;
        }
        let lib = self.spec.real.name;
        let driver = match self.spec.real.driver {
            DriverUse::OfTheDriver => None,
            DriverUse::CompileOnly => process_driver(),
            DriverUse::Loads => load_process_driver(),
        };
        match (driver, self.spec.real.driver) {
            (_, DriverUse::OfTheDriver) => {}
            (Some(d), _) => line(
                lib,
                format_args!(
                    "driver {} runs CUDA {}.{}: a release it cannot run is refused",
                    Lossy(d.path.to_bytes()),
                    d.cuda_version / 1000,
                    d.cuda_version % 1000 / 10
                ),
            ),
            (None, DriverUse::CompileOnly) => line(
                lib,
                format_args!(
                    "no driver loaded (lib{lib} loads none itself): the release is not capped"
                ),
            ),
            (None, _) => line(
                lib,
                format_args!("no driver found: the release is not capped"),
            ),
        }
        self.known.set(Some(driver));
        driver
    }

    /// The driver for a copy the process already has (bound whatever its release): what this
    /// search knows, else the driver the process has loaded, never one opened for it.
    pub(crate) fn loaded_only(&self) -> Option<Driver> {
        match (self.known.get(), self.spec.real.driver) {
            (Some(known), _) => known,
            (None, DriverUse::OfTheDriver) => None,
            (None, _) => process_driver(),
        }
    }

    /// How a copy of `version` (0 unknown) bound as `why` stands with `driver`.
    pub(crate) fn fit(&self, driver: Option<Driver>, version: i32, why: Bound) -> DriverFit {
        if self.spec.real.driver == DriverUse::OfTheDriver {
            return DriverFit::OfTheDriver;
        }
        let Some(driver) = driver else {
            return DriverFit::Unknown;
        };
        let major = u32::try_from(version / 1000).unwrap_or(0);
        if major == 0 {
            return DriverFit::ReleaseUnknown;
        }
        if stub_spec::driver_runs(driver.cuda_version, major) {
            return DriverFit::Runs;
        }
        match why {
            Bound::AlreadyLoaded => DriverFit::LoadedBeyond,
            Bound::Override => DriverFit::OverrideBeyond,
            Bound::Searched => DriverFit::CompilerBeyond,
        }
    }
}

/// How the search came to bind a copy, for [`DriverOfSearch::fit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The process already had it.
    AlreadyLoaded,
    /// An environment override names it.
    Override,
    /// Any other place.
    Searched,
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRIVER: Driver = Driver {
        cuda_version: 12040,
        path: c"libcuda.so.1",
    };

    /// A driver of CUDA 12.4 refuses 13.x, by name or by version, and runs 12.x and 11.x; with
    /// no driver nothing is refused.
    #[test]
    fn a_12_4_driver_refuses_13() {
        assert_eq!(
            check(13, None, Some(DRIVER)),
            Err(Reject::BeyondDriver {
                major: 13,
                needs: None,
                driver: 12040
            })
        );
        assert_eq!(check(12, None, Some(DRIVER)), Ok(()));
        assert_eq!(check(11, None, Some(DRIVER)), Ok(()));
        assert_eq!(check(0, None, Some(DRIVER)), Ok(()));
        assert_eq!(check(13, None, None), Ok(()));
        assert!(check_version(13050, Some(DRIVER)).is_err());
        assert_eq!(check_version(12090, Some(DRIVER)), Ok(()));
        assert_eq!(check_version(0, Some(DRIVER)), Ok(()));
    }

    /// The CUDA library a `DT_NEEDED` names says the major: 13.5's cuRAND needs the 13.x
    /// runtime, cuTENSOR's 13.x build its cuBLASLt; the C library says none.
    #[test]
    fn needed_libraries_say_the_major() {
        let needed =
            |names: &[&[u8]]| -> Vec<Vec<u8>> { names.iter().map(|n| n.to_vec()).collect() };
        assert_eq!(
            needed_major(&needed(&[b"libc.so.6", b"libcudart.so.13"])),
            Some((c"libcudart.so.13", 13))
        );
        assert_eq!(
            needed_major(&needed(&[b"libcublasLt.so.13", b"libm.so.6"])),
            Some((c"libcublasLt.so.13", 13))
        );
        assert_eq!(
            needed_major(&needed(&[b"libc.so.6", b"libcuda.so.1"])),
            None
        );
        assert_eq!(needed_major(&[]), None);
    }

    /// Codes and names are distinct: the C side and Python tell them apart.
    #[test]
    fn fits_have_distinct_codes_and_names() {
        let all = [
            DriverFit::OfTheDriver,
            DriverFit::Unknown,
            DriverFit::Runs,
            DriverFit::ReleaseUnknown,
            DriverFit::OverrideBeyond,
            DriverFit::LoadedBeyond,
            DriverFit::CompilerBeyond,
            DriverFit::NotBound,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.code(), i32::try_from(i).unwrap());
            for b in &all[i + 1..] {
                assert_ne!(a.as_cstr(), b.as_cstr());
            }
        }
    }
}
