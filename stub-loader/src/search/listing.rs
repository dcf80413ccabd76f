//! The listings both systems' places share (`os/*/places.rs`): the override, a folder's
//! candidates, the loader's search by name, the wheel layouts of a Python environment.

use super::candidates::{Candidate, Listed};
use super::order::Origin;
use super::paths::{file_name, join};
use crate::env::trusted_var;
use crate::os::{
    file_names, is_absolute, is_dir, major_of_name, release_named_in, site_packages, wheel_dirs,
};
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use alloc::ffi::CString;
use core::ffi::CStr;
use core::ops::ControlFlow;

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

/// Every file name of the library in `dir`, newest major first, then the files there named
/// after the library's own release (Windows: CUPTI's `cupti64_2025.2.1.dll`), newest first.
pub(crate) fn in_dir<B>(
    spec: &LibrarySpec,
    dir: &[u8],
    origin: Origin,
    visit: Visit<'_, B>,
) -> ControlFlow<B> {
    for s in file_names(spec.real) {
        visit(Listed::Try(Candidate {
            origin,
            target: Cow::Owned(join(dir, s.name.to_bytes())),
            name_major: s.major,
        }))?;
    }
    for (name, name_major) in release_named_in(spec.real, dir) {
        visit(Listed::Try(Candidate {
            origin,
            target: Cow::Owned(join(dir, &name)),
            name_major,
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
    for s in file_names(spec.real) {
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
            for wheel in wheel_dirs(spec.real) {
                let dir = join(site.to_bytes(), wheel.to_bytes());
                in_existing_dir(spec, &dir, Origin::PythonEnv, visit)?;
            }
        }
    }
    ControlFlow::Continue(())
}
