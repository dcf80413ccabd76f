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
//! - `loaded.rs`, `summary.rs`: the result, [`Loaded`], and its one-line summary, built from
//!   `SEARCH`;
//! - `paths.rs`: paths as bytes, a Python environment's folders.
//!
//! The first call of every stub runs this, so it is written for that call's cost: nothing is
//! listed past the place that binds, a listing allocates only for a path it hands out, a miss
//! allocates only its record, the stub's own file comes from the walk of the loaded objects
//! (not `dladdr`, which scans the stub's whole symbol table), and the bound file's path and the
//! summary are computed only when asked.

pub(crate) mod candidates;
mod dependency;
pub(crate) mod listing;
mod loaded;
mod markers;
pub(crate) mod order;
pub(crate) mod paths;
mod probe;
mod reject;
mod release;
mod summary;
mod version;

pub use candidates::Candidate;
pub use loaded::Loaded;
pub use markers::{COMPAT_MARKER, STUB_MARKER};
pub use order::Origin;
pub use reject::{Attempt, ProcessRelease, Reject, Tried};

use crate::debug::{debug_enabled, line};
use crate::os::{Places, SEARCH};
use crate::spec::LibrarySpec;
use alloc::vec::Vec;
use candidates::Listed;
use core::ops::ControlFlow;

/// Searches the system's `SEARCH` in order for `spec`'s library and binds the first usable
/// candidate; every candidate skipped is logged (`CUDA_STUBS_DEBUG`) and recorded with its
/// reason.
pub(crate) fn find(spec: &'static LibrarySpec) -> Loaded {
    let lib = spec.real.name;
    let mut places = Places::new(spec);
    let mut attempts: Vec<Attempt> = Vec::new();
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
    // Whether the loader's search by soname found cuda-stubs' own files (a compatibility
    // library loaded, or first on LD_LIBRARY_PATH, under NVIDIA's soname).
    let shadowed = core::cell::Cell::new(false);
    let mut try_listed = |listed: Listed| {
        let (tried, reject) = match listed {
            Listed::Try(c) => match probe::try_candidate(spec, &c, release) {
                Ok((handle, version)) => return ControlFlow::Break((c, handle, version)),
                Err(reject) => {
                    if c.origin == Origin::LoaderSearch
                        && c.is_soname()
                        && matches!(reject, Reject::IsStub | Reject::IsCompat(_))
                    {
                        shadowed.set(true);
                    }
                    let tried = Tried::Candidate(c);
                    line(lib, format_args!("try {tried}: rejected: {reject}"));
                    (tried, reject)
                }
            },
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
        attempts.push(Attempt { tried, reject });
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
        if let ControlFlow::Break(bound) = listed {
            found = Some(bound);
            break;
        }
    }
    let Some((candidate, handle, version)) = found else {
        line(
            lib,
            format_args!("no library found: calls return the stub's \"library not found\" error"),
        );
        return Loaded::not_found(spec, attempts);
    };
    if !candidate.is_soname() && candidate.origin != Origin::AlreadyLoaded {
        probe::preload_companion(spec, candidate.target.to_bytes(), version);
    }
    let loaded = Loaded::bound(spec, handle, candidate, version, attempts);
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
    }
    loaded
}
