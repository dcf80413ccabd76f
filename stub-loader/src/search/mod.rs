//! The search for the real library: one ordered list of places, the system's `SEARCH`, and its
//! runner, [`find`]: the first place with a usable candidate wins.
//!
//! - `order.rs`: [`Origin`], the places; their order (`SEARCH`) and what each lists, only when
//!   the search reaches it, are each system's (`os/linux/places.rs`, `os/windows/places.rs`);
//! - `candidates.rs`: what a place lists; `listing.rs`: the listings both systems' places
//!   share;
//! - `probe.rs`: one candidate tried (file checks, `dlopen`, stub marker, version), with
//!   `dependency.rs` (the library the candidate loads at its first call and aborts without,
//!   loaded before it is called) and `version.rs` (the version the library reports);
//! - `reject.rs`: why a candidate was skipped ([`Reject`]), what was tried ([`Attempt`]);
//! - `release.rs`: one CUDA release per process, for the math libraries and their runtime;
//! - `driver.rs`: the process's CUDA driver ([`Driver`]), never loaded for a library that would
//!   not load it; `driver_cap.rs`: the driver caps the release (a candidate of a major it cannot
//!   run is refused), and how the bound copy stands with it ([`DriverFit`]);
//! - `loaded.rs`, `summary.rs`: the result, [`Loaded`], and its one-line summary, built from
//!   `SEARCH`;
//! - `paths.rs`: paths as bytes, a Python environment's folders;
//! - `mock.rs`: under `CUDA_STUBS_MOCK`, the mock device instead of the search.
//!
//! The first call of every stub runs this, so it is written for that call's cost: nothing is
//! listed past the place that binds, a listing allocates only for a path it hands out, a miss
//! allocates only its record, the stub's own file comes from the walk of the loaded objects
//! (not `dladdr`, which scans the stub's whole symbol table), and the bound file's path and the
//! summary are computed only when asked.

pub(crate) mod candidates;
mod dependency;
mod driver;
mod driver_cap;
pub(crate) mod listing;
mod loaded;
mod markers;
mod mock;
pub(crate) mod order;
pub(crate) mod paths;
mod probe;
mod reject;
mod release;
mod summary;
mod version;

pub use candidates::Candidate;
pub use driver::{Driver, load_process_driver, process_driver};
pub use driver_cap::{
    CUDA_STUBS_DRIVER_COMPILER_BEYOND, CUDA_STUBS_DRIVER_LOADED_BEYOND,
    CUDA_STUBS_DRIVER_NOT_BOUND, CUDA_STUBS_DRIVER_OF_THE_DRIVER,
    CUDA_STUBS_DRIVER_OVERRIDE_BEYOND, CUDA_STUBS_DRIVER_RELEASE_UNKNOWN, CUDA_STUBS_DRIVER_RUNS,
    CUDA_STUBS_DRIVER_UNKNOWN, DriverFit,
};
pub use loaded::Loaded;
pub use markers::{COMPAT_MARKER, STUB_MARKER};
pub use order::Origin;
pub use reject::{Attempt, ProcessRelease, Reject, Tried};

use crate::debug::{debug_enabled, line};
use crate::os::{Places, SEARCH};
use crate::spec::LibrarySpec;
use alloc::vec::Vec;
use candidates::Listed;
use core::cell::RefCell;
use core::ops::ControlFlow;
use driver_cap::{Bound, DriverOfSearch};
use loaded::DriverOutcome;
use stub_spec::DriverUse;

/// Searches the system's `SEARCH` in order for `spec`'s library and binds the first usable
/// candidate; every candidate skipped is logged (`CUDA_STUBS_DEBUG`) and recorded with its
/// reason.
///
/// The driver caps the release (`driver_cap.rs`): a candidate of a major it cannot run is
/// skipped, so the newest release it runs wins; but an environment override with nothing else
/// in it is bound beyond the driver (the user's choice, with a warning), and so is, with nothing
/// the driver runs anywhere, what a library that needs no driver (NVRTC) would bind without it.
pub(crate) fn find(spec: &'static LibrarySpec) -> Loaded {
    if let Some(mocked) = mock::bind(spec) {
        return mocked;
    }
    let lib = spec.real.name;
    let mut places = Places::new(spec);
    let attempts: RefCell<Vec<Attempt>> = RefCell::new(Vec::new());
    let release = release::of_process(spec);
    if let Some(r) = release {
        line(
            lib,
            format_args!(
                "the process has CUDA {} ({}): only that release is bound",
                r.major,
                r.soname.to_string_lossy()
            ),
        );
    }
    let driver = DriverOfSearch::new(spec);
    // The candidates skipped only because the driver cannot run them, in search order: those
    // of the override, or of anywhere for a library needing no driver, are the fallbacks.
    let beyond: RefCell<Vec<Candidate>> = RefCell::new(Vec::new());
    // Whether the loader's search by soname found cuda-stubs' own files (a compatibility
    // library loaded, or first on LD_LIBRARY_PATH, under NVIDIA's soname).
    let shadowed = core::cell::Cell::new(false);
    let mut try_listed = |listed: Listed| {
        let (tried, reject) = match listed {
            Listed::Try(c) => {
                // A copy already loaded is bound whatever the driver: never a second copy.
                let cap = (c.origin != Origin::AlreadyLoaded)
                    .then(|| driver.get())
                    .flatten();
                match probe::try_candidate(spec, &c, release, cap) {
                    Ok((handle, version)) => return ControlFlow::Break((c, handle, version)),
                    Err(reject) => {
                        if c.origin == Origin::LoaderSearch
                            && c.is_soname()
                            && matches!(reject, Reject::IsStub | Reject::IsCompat(_))
                        {
                            shadowed.set(true);
                        }
                        if matches!(reject, Reject::BeyondDriver { .. }) {
                            beyond.borrow_mut().push(c.clone());
                        }
                        let tried = Tried::Candidate(c);
                        line(lib, format_args!("try {tried}: rejected: {reject}"));
                        (tried, reject)
                    }
                }
            }
            Listed::Relative { name, value } => {
                let tried = Tried::Variable {
                    name,
                    value: value.to_vec(),
                };
                let reject = Reject::NotAbsolute;
                line(lib, format_args!("{tried}: {reject}"));
                (tried, reject)
            }
        };
        attempts.borrow_mut().push(Attempt { tried, reject });
        ControlFlow::Continue(())
    };
    let mut found = None;
    for origin in SEARCH {
        let mut listed = places.each(origin, &mut try_listed);
        if listed.is_continue() && origin == Origin::LoaderSearch && shadowed.get() {
            // glibc answers a soname with the object already loaded under it, or the first file
            // of that name on LD_LIBRARY_PATH: cuda-stubs' compatibility library when its folder
            // comes first. The real library may sit later in the same list: its folders are
            // searched by path (a file of the same soname loads beside the loaded one).
            line(
                lib,
                format_args!(
                    "the search by soname found cuda-stubs' own files: LD_LIBRARY_PATH's folders by path"
                ),
            );
            listed = places.library_path(&mut try_listed);
        }
        if listed.is_continue() && origin == Origin::EnvOverride {
            // The override is the user's choice: beyond the driver, it still wins.
            listed = fallback(spec, &beyond, release, |c| c.origin == Origin::EnvOverride);
        }
        if let ControlFlow::Break(bound) = listed {
            found = Some(bound);
            break;
        }
    }
    if found.is_none() && spec.real.driver == DriverUse::CompileOnly {
        // It compiles whatever the driver: what it would bind without one.
        found = fallback(spec, &beyond, release, |c| c.origin != Origin::EnvOverride).break_value();
    }
    let attempts = attempts.into_inner();
    let Some((candidate, handle, version)) = found else {
        line(
            lib,
            format_args!("no library found: calls return the stub's \"library not found\" error"),
        );
        return Loaded::not_found(spec, attempts, driver.loaded_only());
    };
    if !candidate.is_soname() && candidate.origin != Origin::AlreadyLoaded {
        probe::preload_companion(spec, candidate.target.to_bytes(), version);
    }
    let (known, why) = match candidate.origin {
        Origin::AlreadyLoaded => (driver.loaded_only(), Bound::AlreadyLoaded),
        Origin::EnvOverride => (driver.get(), Bound::Override),
        _ => (driver.get(), Bound::Searched),
    };
    let outcome = DriverOutcome {
        driver: known,
        fit: driver.fit(known, version, why),
    };
    let loaded = Loaded::bound(spec, handle, candidate, version, attempts, outcome);
    if debug_enabled() {
        let path = loaded
            .path()
            .map(|p| p.to_string_lossy())
            .unwrap_or_default();
        let origin = loaded.origin.map_or("", Origin::as_str);
        line(
            lib,
            format_args!("bound {path} (version {version}) [{origin}]"),
        );
        if let Some(warning) = known.and_then(|d| summary::beyond(spec, d, outcome.fit, version)) {
            line(lib, format_args!("{warning}"));
        }
    }
    loaded
}

/// Binds the first of the candidates `beyond` holds that `which` selects, tried again without
/// the driver's cap (each was refused for the driver alone; a soname refused by its name may
/// not exist, and is passed over).
fn fallback(
    spec: &'static LibrarySpec,
    beyond: &RefCell<Vec<Candidate>>,
    release: Option<ProcessRelease>,
    which: impl Fn(&Candidate) -> bool,
) -> ControlFlow<(Candidate, crate::os::Handle, i32)> {
    let lib = spec.real.name;
    let candidates: Vec<Candidate> = beyond
        .borrow()
        .iter()
        .filter(|c| which(c))
        .cloned()
        .collect();
    for c in candidates {
        match probe::try_candidate(spec, &c, release, None) {
            Ok((handle, version)) => {
                line(
                    lib,
                    format_args!(
                        "nothing the driver runs {}: {} bound beyond it",
                        if c.origin == Origin::EnvOverride {
                            "in the override"
                        } else {
                            "is present"
                        },
                        c.display()
                    ),
                );
                return ControlFlow::Break((c, handle, version));
            }
            Err(reject) => line(
                lib,
                format_args!(
                    "try {} beyond the driver: rejected: {reject}",
                    Tried::Candidate(c)
                ),
            ),
        }
    }
    ControlFlow::Continue(())
}
