//! Why the system's loader did not open a library ([`LoadError`]), the same on both systems.

use alloc::string::String;
use core::fmt;

/// A failed `dlopen` / `LoadLibraryExW` (or a library the process does not have): the
/// loader's own text, and whether it means that there is no such file, which the search
/// reports as "not found" rather than as the loader's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoadError {
    /// No such library: the file, or for a bare name the loader's whole search, found none.
    pub(crate) not_found: bool,
    /// The loader's message (`dlerror`; Windows: the error's system text and code).
    pub(crate) text: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
