//! Windows: the search's places in order ([`SEARCH`]), each one's name, and the candidates of
//! each, listed one at a time and only when the search reaches that place. A candidate is a
//! bare DLL name (the loader's search, or a DLL already loaded) or an absolute path. And the
//! folders a candidate's imports are found in ([`needed_dirs`]).

use super::file_names::{file_names, wheel_dirs};
use super::files::is_dir;
use super::loadlibrary::{file_of_address, is_loaded};
use super::paths::is_sep;
use super::release_named::{
    application_dir, loaded_release_named, release_named, release_named_in,
};
use crate::debug::line;
use crate::search::candidates::{Candidate, Listed};
use crate::search::listing::{
    Visit, absolute_var, by_name, env_override, in_existing_dir, python_envs,
};
use crate::search::order::Origin;
use crate::search::paths::{enclosing_site_packages, join, may_be_in_site_packages, parent};
use crate::spec::{LibrarySpec, REAL_LIBRARIES};
use alloc::borrow::Cow;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;
use core::ops::ControlFlow;

/// The search on Windows, in order: a DLL the process already has (`GetModuleHandleExW`, any
/// major, newest first; a DLL named after its release, CUPTI's, among the process's modules),
/// the override, NVIDIA's wheels beside the stub and in the Python
/// environment, `%CONDA_PREFIX%\Library\bin`, the toolkit (`%CUDA_PATH%\bin\x64`,
/// `%CUDA_PATH%\bin`), then the safe system search (`LOAD_LIBRARY_SEARCH_DEFAULT_DIRS`: the
/// application's folder, `System32`, folders added with `AddDllDirectory`). Never the current
/// directory, never `PATH`: Python 3.8+ does not search `PATH` for DLLs either, and a DLL
/// planted in the working folder must not be loaded. The toolkit comes before the system
/// search, which holds only the driver (`nvcuda.dll`). Every folder lists the spec's DLL names,
/// then the DLLs there named after the library's release (`release_named.rs`); the system
/// search, which takes no pattern, lists those of the application's folder.
pub(crate) const SEARCH: [Origin; 7] = [
    Origin::AlreadyLoaded,
    Origin::EnvOverride,
    Origin::BesideStub,
    Origin::PythonEnv,
    Origin::CondaLib,
    Origin::CudaHome,
    Origin::LoaderSearch,
];

impl Origin {
    /// [`Origin::as_str`] as a C string, for the status API (its `found_by`).
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            Origin::AlreadyLoaded => c"already loaded (GetModuleHandleExW)",
            Origin::EnvOverride => c"environment override",
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"%CONDA_PREFIX%\\Library\\bin",
            Origin::LoaderSearch => c"safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)",
            Origin::CudaHome => c"%CUDA_PATH%/%CUDA_HOME% bin\\x64, bin",
            Origin::Mock => c"CUDA_STUBS_MOCK (the mock device beside the stub)",
            Origin::SystemCuda => c"",
        }
    }
}

/// An address inside this stub, to find its own DLL.
fn own_address() -> usize {
    own_address as fn() -> usize as usize
}

/// The listing of one search on Windows.
#[derive(Debug)]
pub(crate) struct Places {
    spec: &'static LibrarySpec,
    /// `%CONDA_PREFIX%` (absolute), once read: two places use it.
    conda_prefix: Option<Option<&'static [u8]>>,
}

impl Places {
    /// The places of `spec`'s library, nothing looked at yet.
    pub(crate) fn new(spec: &'static LibrarySpec) -> Self {
        Places {
            spec,
            conda_prefix: None,
        }
    }

    /// Nothing: the Linux face's by-path pass over `LD_LIBRARY_PATH` after the loader's search
    /// by soname found a compatibility library. Windows has no compatibility DLLs (a DLL has no
    /// soname for an NVIDIA-linked program to match), so the search never asks for it.
    pub(crate) fn library_path<B>(&mut self, _visit: Visit<'_, B>) -> ControlFlow<B> {
        ControlFlow::Continue(())
    }

    /// Calls `visit` with what `origin` lists, in order, until `visit` breaks.
    pub(crate) fn each<B>(&mut self, origin: Origin, visit: Visit<'_, B>) -> ControlFlow<B> {
        let spec = self.spec;
        let windows = spec.real.windows;
        match origin {
            // By base name, as Windows' loader itself matches a loaded DLL: any major, newest
            // first; the probe takes its own reference with `GetModuleHandleExW`.
            Origin::AlreadyLoaded => {
                let mut any = false;
                for s in file_names(spec.real) {
                    if is_loaded(s.name) {
                        any = true;
                        visit(Listed::Try(Candidate {
                            origin,
                            target: Cow::Borrowed(s.name),
                            name_major: s.major,
                        }))?;
                    }
                }
                // A DLL named after its release is matched among the modules by pattern.
                for (name, name_major) in loaded_release_named(spec.real) {
                    any = true;
                    visit(Listed::Try(Candidate {
                        origin,
                        target: Cow::Owned(name),
                        name_major,
                    }))?;
                }
                if !any {
                    line(spec.real.name, format_args!("no copy already loaded"));
                }
            }
            Origin::EnvOverride => env_override(spec, visit)?,
            // A wheel that bundles the stub puts it under site-packages\<pkg>\…; NVIDIA's
            // wheels are its siblings under site-packages\nvidia (Python 3.8+ adds neither to
            // any DLL search: this is how they are found).
            Origin::BesideStub if !wheel_dirs(spec.real).is_empty() => {
                let Some(file) = file_of_address(own_address()) else {
                    return ControlFlow::Continue(());
                };
                if !may_be_in_site_packages(&file) {
                    return ControlFlow::Continue(());
                }
                if let Some(site) = parent(&file).and_then(enclosing_site_packages) {
                    for wheel in wheel_dirs(spec.real) {
                        in_existing_dir(spec, &join(site, wheel.to_bytes()), origin, visit)?;
                    }
                }
            }
            Origin::PythonEnv if !wheel_dirs(spec.real).is_empty() => {
                let prefixes = [absolute_var(c"VIRTUAL_ENV"), self.conda_prefix()];
                python_envs(spec, prefixes, visit)?;
            }
            Origin::BesideStub | Origin::PythonEnv => {} // no wheel ships this library
            // conda's cuda-cudart / cuda-nvrtc packages put their DLLs in Library\bin.
            Origin::CondaLib => {
                if let Some(prefix) = self.conda_prefix() {
                    let dir = join(join(prefix, b"Library").to_bytes(), b"bin");
                    in_existing_dir(spec, &dir, origin, visit)?;
                }
            }
            Origin::CudaHome => {
                let dirs = windows.map_or(&[][..], |w| w.toolkit_dirs);
                for var in [c"CUDA_PATH", c"CUDA_HOME"] {
                    if let Some(home) = absolute_var(var) {
                        for dir in dirs {
                            let dir = join(home, dir.to_bytes());
                            in_existing_dir(spec, &dir, origin, visit)?;
                        }
                    }
                }
            }
            Origin::LoaderSearch => {
                by_name(spec, visit)?;
                // The loader's search takes no pattern: a DLL named after its release is
                // looked for in the first of its folders, the application's, by path.
                if release_named(spec.real).is_some()
                    && let Some(dir) = application_dir()
                {
                    for (name, name_major) in release_named_in(spec.real, &dir) {
                        visit(Listed::Try(Candidate {
                            origin,
                            target: Cow::Owned(join(&dir, &name)),
                            name_major,
                        }))?;
                    }
                }
            }
            Origin::SystemCuda => {} // Linux only
            Origin::Mock => {}       // never searched: `search::mock` binds it
        }
        ControlFlow::Continue(())
    }

    fn conda_prefix(&mut self) -> Option<&'static [u8]> {
        *self
            .conda_prefix
            .get_or_insert_with(|| absolute_var(c"CONDA_PREFIX"))
    }
}

/// The folders from which what a candidate DLL imports (`pe_imports.rs`) and the process lacks
/// is loaded first (`search/release.rs`): its own folder, then, for a DLL in a folder only its
/// own library's wheel uses (NVIDIA's 11.x and 12.x wheels: `nvidia\cusolver\bin`), the other
/// libraries' wheel folders in the same `site-packages` (`nvidia\cublas\bin`,
/// `nvidia\cusparse\bin`, `nvidia\nvjitlink\bin`): a DLL has no RUNPATH, and `LoadLibraryExW`
/// looks for its imports in its own folder and the system's only (Python 3.8+ adds none of
/// these; PyTorch adds each `nvidia\*\bin` itself). A folder libraries of several wheels share
/// (13.x's `nvidia\cu13\bin\x86_64`) holds what its DLLs import, and the per-wheel folders
/// beside it are another release's, so none is listed then; neither for a DLL in no wheel
/// folder (a toolkit's `bin`, an override's folder of its own). Libraries of one wheel, which
/// list the same folders (cuBLAS, cuBLASLt and nvBLAS; cuSOLVER and cuSOLVERMg; cuFFT and
/// cuFFTW), do not make their folder shared: cuSOLVERMg's DLL needs cuBLAS's wheel as
/// cuSOLVER's does.
pub(crate) fn needed_dirs(spec: &LibrarySpec, path: &[u8]) -> Vec<CString> {
    let Some(dir) = parent(path) else {
        return Vec::new();
    };
    let mut dirs: Vec<CString> = CString::new(dir).ok().into_iter().collect();
    let own = wheel_dirs(spec.real);
    let Some((root, found_in)) = own
        .iter()
        .find_map(|w| under_folder(dir, w.to_bytes()).map(|root| (root, *w)))
    else {
        return dirs;
    };
    let other_libraries = || REAL_LIBRARIES.iter().filter(|l| l.name != spec.real.name);
    // Another wheel's library in the same folder: a folder several wheels share.
    if other_libraries().any(|l| wheel_dirs(l) != own && wheel_dirs(l).contains(&found_in)) {
        return dirs;
    }
    let others = || other_libraries().flat_map(|l| wheel_dirs(l).iter().copied());
    for w in others() {
        let folder = join(root, w.to_bytes());
        if !own.contains(&w) && !dirs.contains(&folder) && is_dir(&folder) {
            dirs.push(folder);
        }
    }
    dirs
}

/// `dir` less `tail` (a wheel folder, `nvidia/cusolver/bin`) at its end, compared as Windows
/// compares paths (either separator, ASCII case folded): the `site-packages` holding it.
fn under_folder<'a>(dir: &'a [u8], tail: &[u8]) -> Option<&'a [u8]> {
    let at = dir.len().checked_sub(tail.len() + 1)?;
    let (root, end) = dir.split_at(at);
    let (sep, end) = end.split_first()?;
    let same = end
        .iter()
        .zip(tail)
        .all(|(a, b)| a.eq_ignore_ascii_case(b) || is_sep(*a) && is_sep(*b));
    (is_sep(*sep) && same && !root.is_empty()).then_some(root)
}
