//! What a place of [`SEARCH`](super::order::SEARCH) lists ([`Candidate`], [`Listed`]), and the
//! library's file names on this system: sonames on Linux (`so_places.rs` lists them), DLL
//! names on Windows (`dll_places.rs`).

use super::order::Origin;
use super::paths::{file_name, is_absolute, is_dir, join, site_packages};
use crate::secure::trusted_var;
use crate::spec::{LibrarySpec, Soname};
use alloc::borrow::Cow;
use alloc::ffi::CString;
use alloc::string::String;
use core::ffi::CStr;
use core::ops::ControlFlow;

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

/// What both systems' places share: the override, a folder's candidates, the loader's search
/// by name, the wheel layouts of a Python environment.
pub(crate) mod listing {
    use super::*;

    /// The visitor of a place's candidates.
    pub(crate) type Visit<'a, B> = &'a mut dyn FnMut(Listed) -> ControlFlow<B>;

    /// An absolute path from the environment.
    pub(crate) fn absolute_var(name: &CStr) -> Option<&'static [u8]> {
        trusted_var(name).filter(|p| is_absolute(p))
    }

    /// `CUDA_STUBS_<LIB>_PATH`: a folder (its file names, newest major first), a file, or a
    /// relative value that is reported and ignored.
    pub(crate) fn env_override<B>(spec: &LibrarySpec, visit: Visit<'_, B>) -> ControlFlow<B> {
        let origin = Origin::EnvOverride;
        let name = spec.real.env_path;
        let Some(value) = trusted_var(name) else {
            return ControlFlow::Continue(());
        };
        if !is_absolute(value) {
            return visit(Listed::Relative { name, value });
        }
        let path = CString::new(value).unwrap_or_default();
        if is_dir(&path) {
            return in_dir(spec, value, origin, visit);
        }
        let name_major = major_of_name(spec, file_name(value));
        visit(Listed::Try(Candidate {
            origin,
            target: Cow::Owned(path),
            name_major,
        }))
    }

    /// Every file name of the library in `dir`, newest major first.
    pub(crate) fn in_dir<B>(
        spec: &LibrarySpec,
        dir: &[u8],
        origin: Origin,
        visit: Visit<'_, B>,
    ) -> ControlFlow<B> {
        for s in file_names(spec) {
            visit(Listed::Try(Candidate {
                origin,
                target: Cow::Owned(join(dir, s.name.to_bytes())),
                name_major: s.major,
            }))?;
        }
        ControlFlow::Continue(())
    }

    /// [`in_dir`] for a folder that exists only in some installations (a wheel layout, a
    /// toolkit folder), only when it exists: these places come before the loader's search on
    /// every first call, so a program outside any Python environment pays one `stat` per
    /// folder rather than one failed check per file name.
    pub(crate) fn in_existing_dir<B>(
        spec: &LibrarySpec,
        dir: &CStr,
        origin: Origin,
        visit: Visit<'_, B>,
    ) -> ControlFlow<B> {
        if is_dir(dir) {
            in_dir(spec, dir.to_bytes(), origin, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// The file names themselves, newest major first, for the loader's own search.
    pub(crate) fn by_name<B>(spec: &LibrarySpec, visit: Visit<'_, B>) -> ControlFlow<B> {
        for s in file_names(spec) {
            visit(Listed::Try(Candidate {
                origin: Origin::LoaderSearch,
                target: Cow::Borrowed(s.name),
                name_major: s.major,
            }))?;
        }
        ControlFlow::Continue(())
    }

    /// NVIDIA's wheel folders in the `site-packages` of each prefix (`$VIRTUAL_ENV`,
    /// `$CONDA_PREFIX`).
    pub(crate) fn python_envs<B>(
        spec: &LibrarySpec,
        prefixes: [Option<&[u8]>; 2],
        visit: Visit<'_, B>,
    ) -> ControlFlow<B> {
        for prefix in prefixes.into_iter().flatten() {
            for site in site_packages(prefix) {
                for wheel in wheel_dirs(spec) {
                    let dir = join(site.to_bytes(), wheel.to_bytes());
                    in_existing_dir(spec, &dir, Origin::PythonEnv, visit)?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}
