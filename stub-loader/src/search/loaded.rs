//! What a search ends with ([`Loaded`]): a real library bound, or none with every reason.

use super::candidates::Candidate;
use super::driver::Driver;
use super::driver_cap::DriverFit;
use super::order::Origin;
use super::reject::Attempt;
use super::summary;
use crate::once::Once;
use crate::os::{Handle, has_dir};
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::{CStr, c_void};

/// A real library once the search is over: bound, or not found with the reasons why.
#[derive(Debug)]
pub struct Loaded {
    spec: &'static LibrarySpec,
    /// The handle and what was opened (a path, or a bare soname).
    bound: Option<(Handle, Cow<'static, CStr>)>,
    /// How it was found.
    pub origin: Option<Origin>,
    /// `1000 * major + 10 * minor` from the version function, else from the soname; 0 unknown.
    pub version: i32,
    attempts: Vec<Attempt>,
    /// The process's driver as the search knew it (`None`: none known).
    driver: Option<Driver>,
    /// How the bound copy stands with it.
    fit: DriverFit,
    /// Not a result: what a call made from inside the search sees ([`Loaded::searching`]).
    in_search: bool,
    /// Built when first asked for: the first call does not need it.
    summary: Once<CString>,
    /// The same for the driver's line ([`Loaded::driver_message`]).
    driver_message: Once<CString>,
}

/// The CUDA major whose headers the mock device (`stub-mock`, bound under `CUDA_STUBS_MOCK`)
/// implements for every library it stands for: its types are 13.5's (`stub-mock/src/types.rs`),
/// its entry points 13.x's prototypes and layouts under 13.x's names, whatever driver its profile
/// names.
pub const MOCK_ABI_MAJOR: u32 = 13;

/// What the search learnt of the driver for one result: the driver, and how the bound copy
/// stands with it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DriverOutcome {
    pub(crate) driver: Option<Driver>,
    pub(crate) fit: DriverFit,
}

impl Loaded {
    /// `candidate`, opened as `handle`, is bound.
    pub(crate) fn bound(
        spec: &'static LibrarySpec,
        handle: Handle,
        candidate: Candidate,
        version: i32,
        attempts: Vec<Attempt>,
        driver: DriverOutcome,
    ) -> Self {
        Loaded {
            spec,
            bound: Some((handle, candidate.target)),
            origin: Some(candidate.origin),
            version,
            attempts,
            driver: driver.driver,
            fit: driver.fit,
            in_search: false,
            summary: Once::new(),
            driver_message: Once::new(),
        }
    }

    /// What a call made from inside the search for `spec`'s library sees on the searching
    /// thread (a library being loaded calling the stub from its initialisers): nothing bound,
    /// and a summary that says the search is under way.
    pub(crate) const fn searching(spec: &'static LibrarySpec) -> Self {
        Loaded {
            spec,
            bound: None,
            origin: None,
            version: 0,
            attempts: Vec::new(),
            driver: None,
            fit: DriverFit::NotBound,
            in_search: true,
            summary: Once::new(),
            driver_message: Once::new(),
        }
    }

    /// Nothing was bound; `attempts` says why; `driver` is the driver the search knew.
    pub(crate) fn not_found(
        spec: &'static LibrarySpec,
        attempts: Vec<Attempt>,
        driver: Option<Driver>,
    ) -> Self {
        Loaded {
            spec,
            bound: None,
            origin: None,
            version: 0,
            attempts,
            driver,
            fit: DriverFit::NotBound,
            in_search: false,
            summary: Once::new(),
            driver_message: Once::new(),
        }
    }

    /// True when a real library is bound.
    pub fn is_bound(&self) -> bool {
        self.bound.is_some()
    }

    /// The loaded CUDA major, 0 when unknown or not bound.
    pub fn major(&self) -> u32 {
        u32::try_from(self.version / 1000).unwrap_or(0)
    }

    /// The major whose prototypes and layouts the bound library's entry points have: its
    /// [`major`](Self::major), except the mock device's, [`MOCK_ABI_MAJOR`] whatever release it
    /// reports (under a profile whose driver is CUDA 12.x its runtime is a 12.x release: what
    /// 12.x lacks is absent, by [`major`](Self::major), and the stubs translate for the 13.x
    /// entry points it has, by this).
    pub fn abi_major(&self) -> u32 {
        if self.origin == Some(Origin::Mock) {
            MOCK_ABI_MAJOR
        } else {
            self.major()
        }
    }

    /// The address of `name` in the bound library.
    pub(crate) fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        self.bound.as_ref()?.0.symbol(name)
    }

    /// The file bound: the candidate's path, or for a bare soname the file the dynamic loader
    /// picked (its link map, `dlinfo`). Looked up when asked: binding does not need it.
    pub fn path(&self) -> Option<&CStr> {
        let (handle, target) = self.bound.as_ref()?;
        let soname = !has_dir(target.to_bytes());
        Some(soname.then(|| handle.path()).flatten().unwrap_or(target))
    }

    /// Every candidate tried and not bound, in order, with the reason.
    pub fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// The process's CUDA driver as the search knew it: `None` when none was known (no driver
    /// loaded and the library loads none itself, no driver on the machine, a copy already
    /// loaded bound before any was needed, or the driver's own libraries).
    pub fn driver(&self) -> Option<Driver> {
        self.driver
    }

    /// How the bound copy's release stands with [`Loaded::driver`].
    pub fn driver_fit(&self) -> DriverFit {
        self.fit
    }

    /// One line on the driver and the bound release, for the status API (`CUDA 12.9 is the
    /// newest release found that the driver (CUDA 12.4, PATH) runs`, or a warning for a copy
    /// beyond it). Built on first use, then kept for the life of the process.
    pub fn driver_message(&self) -> &CStr {
        self.driver_message
            .get_or_init(|| {
                summary::driver(self.spec, self.driver, self.fit, self.version, self.origin)
            })
            .map_or(c"cuda-stubs: no driver message", CString::as_c_str)
    }

    /// One line for the status API and the `*GetErrorString` functions: what was bound, or that
    /// nothing was and where the stub searched. Built on first use, then kept for the life of
    /// the process (callers return its pointer to C).
    pub fn summary(&self) -> &CStr {
        // The summary's own making calls no stub: never a re-entry.
        self.summary
            .get_or_init(|| match (self.path(), self.origin) {
                (Some(path), Some(Origin::Mock)) => {
                    let status = self
                        .bound
                        .as_ref()
                        .and_then(|(h, _)| super::markers::mock_status(h));
                    summary::mock(self.spec, path, self.version, status.as_deref())
                }
                (Some(path), Some(origin)) => {
                    summary::bound(self.spec, path, self.version, origin, self.driver, self.fit)
                }
                _ if self.in_search => summary::in_search(self.spec),
                _ => summary::not_found(self.spec, &self.attempts),
            })
            .map_or(c"cuda-stubs: no summary", CString::as_c_str)
    }
}
