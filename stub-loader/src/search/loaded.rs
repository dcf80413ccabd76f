//! What a search ends with ([`Loaded`]): a real library bound, or none with every reason.

use super::candidates::Candidate;
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
    /// Not a result: what a call made from inside the search sees ([`Loaded::searching`]).
    in_search: bool,
    /// Built when first asked for: the first call does not need it.
    summary: Once<CString>,
}

impl Loaded {
    /// `candidate`, opened as `handle`, is bound.
    pub(crate) fn bound(
        spec: &'static LibrarySpec,
        handle: Handle,
        candidate: Candidate,
        version: i32,
        attempts: Vec<Attempt>,
    ) -> Self {
        Loaded {
            spec,
            bound: Some((handle, candidate.target)),
            origin: Some(candidate.origin),
            version,
            attempts,
            in_search: false,
            summary: Once::new(),
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
            in_search: true,
            summary: Once::new(),
        }
    }

    /// Nothing was bound; `attempts` says why.
    pub(crate) fn not_found(spec: &'static LibrarySpec, attempts: Vec<Attempt>) -> Self {
        Loaded {
            spec,
            bound: None,
            origin: None,
            version: 0,
            attempts,
            in_search: false,
            summary: Once::new(),
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

    /// One line for the status API and the `*GetErrorString` functions: what was bound, or that
    /// nothing was and where the stub searched. Built on first use, then kept for the life of
    /// the process (callers return its pointer to C).
    pub fn summary(&self) -> &CStr {
        // The summary's own making calls no stub: never a re-entry.
        self.summary
            .get_or_init(|| match (self.path(), self.origin) {
                (Some(path), Some(origin)) => summary::bound(self.spec, path, self.version, origin),
                _ if self.in_search => summary::in_search(self.spec),
                _ => summary::not_found(self.spec, &self.attempts),
            })
            .map_or(c"cuda-stubs: no summary", CString::as_c_str)
    }
}
