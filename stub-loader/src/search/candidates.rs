//! What a place of [`SEARCH`](super::order::SEARCH) lists ([`Candidate`], [`Listed`]), and the
//! library's file names on this system: sonames on Linux (`so_places.rs` lists them), DLL
//! names on Windows (`dll_places.rs`).

use super::order::Origin;
use crate::spec::{LibrarySpec, Soname};
use alloc::borrow::Cow;
use alloc::string::String;
use core::ffi::CStr;

/// One thing to try: a soname handed to `dlopen` as is, or a file path.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Where it was found.
    pub origin: Origin,
    /// A bare soname (`libcudart.so.12`, the spec's own string) or an absolute path.
    pub target: Cow<'static, CStr>,
    /// The CUDA major its file name says, 0 when the name says none.
    pub name_major: u32,
}

impl Candidate {
    /// True when `target` is a bare soname (Windows: a bare DLL name), searched by the
    /// dynamic loader.
    pub fn is_soname(&self) -> bool {
        !super::paths::has_dir(self.target.to_bytes())
    }

    /// The target as text, for messages.
    pub fn display(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.target.to_bytes())
    }
}

/// What a place lists: a candidate, or an environment value it ignores (a relative override).
#[derive(Debug)]
pub(crate) enum Listed {
    /// Try this.
    Try(Candidate),
    /// The variable `name` holds `value`, which is not an absolute path: nothing to try.
    Relative {
        /// The variable.
        name: &'static CStr,
        /// Its value.
        value: &'static [u8],
    },
}

/// The CUDA major a file name says, from the spec's sonames (`libcudart.so.12.9.79` → 12), on
/// Windows its DLL names (`cudart64_12.dll` → 12, compared without case).
pub(crate) fn major_of_name(spec: &LibrarySpec, name: &[u8]) -> u32 {
    #[cfg(windows)]
    {
        file_names(spec)
            .iter()
            .find(|s| s.name.to_bytes().eq_ignore_ascii_case(name))
            .map_or(0, |s| s.major)
    }
    #[cfg(unix)]
    file_names(spec)
        .iter()
        .find(|s| {
            let soname = s.name.to_bytes();
            name.starts_with(soname) && matches!(name.get(soname.len()), None | Some(b'.'))
        })
        .map_or(0, |s| s.major)
}

/// The library's file names on this system, newest major first: its sonames
/// (`libcudart.so.13` …), on Windows its DLL names (`cudart64_13.dll` …; none for a library
/// without a Windows stub).
pub(crate) fn file_names(spec: &LibrarySpec) -> &'static [Soname] {
    #[cfg(windows)]
    {
        spec.real.windows.map_or(&[], |w| w.dlls)
    }
    #[cfg(unix)]
    spec.real.sonames
}

/// The folders, relative to a `site-packages`, where NVIDIA's wheels put the library on this
/// system (Linux: `nvidia/cu13/lib` …, Windows: `nvidia/cu13/bin/x86_64` …).
pub(crate) fn wheel_dirs(spec: &LibrarySpec) -> &'static [&'static CStr] {
    #[cfg(windows)]
    {
        spec.real.windows.map_or(&[], |w| w.wheel_dirs)
    }
    #[cfg(unix)]
    spec.real.wheel_dirs
}
