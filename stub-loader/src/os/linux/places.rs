//! Linux: the search's places in order ([`SEARCH`]), each one's name, and the candidates of
//! each, listed one at a time and only when the search reaches that place: a place after the
//! one that binds costs nothing, and a listing allocates only for a path it hands out.

use super::dlopen::{each_loaded_object, object_name};
use super::elf;
use super::file_names::{file_names, major_of_name};
use super::paths::fold_dots;
use super::sort::sort_small;
use crate::debug::line;
use crate::search::candidates::{Candidate, Listed};
use crate::search::listing::{
    Visit, absolute_var, by_name, env_override, in_dir, in_existing_dir, python_envs,
};
use crate::search::order::Origin;
use crate::search::paths::{
    enclosing_site_packages, file_name, join, may_be_in_site_packages, parent,
};
use crate::spec::LibrarySpec;
use alloc::borrow::{Cow, ToOwned};
use alloc::vec::Vec;
use core::ffi::CStr;
use core::ops::ControlFlow;

/// The search on Linux, in order (see [`Origin`] for each place; the book's "Where the real
/// library is searched", `docs/src/search-order.md`, is this list).
///
/// Why this order (the order of NVIDIA's `cuda.pathfinder`): a copy already in the process is
/// the one every other library there uses, so a second copy (another major, another patch
/// level) is never loaded; the override is the user's explicit choice; NVIDIA's wheels of the
/// stub's own Python environment come before the dynamic loader's search, so that an extension
/// making the first CUDA call before `import torch` binds the wheel copy torch will load, not
/// an older toolkit on `LD_LIBRARY_PATH`; the toolkit folders, which the loader's search does
/// not cover by default, come last.
pub(crate) const SEARCH: [Origin; 8] = [
    Origin::AlreadyLoaded,
    Origin::EnvOverride,
    Origin::BesideStub,
    Origin::PythonEnv,
    Origin::CondaLib,
    Origin::LoaderSearch,
    Origin::CudaHome,
    Origin::SystemCuda,
];

impl Origin {
    /// [`Origin::as_str`] as a C string, for the status API (its `found_by`).
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            Origin::AlreadyLoaded => c"already loaded (RTLD_NOLOAD)",
            Origin::EnvOverride => c"environment override",
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"$CONDA_PREFIX/lib",
            Origin::LoaderSearch => c"dynamic loader search",
            Origin::CudaHome => c"$CUDA_HOME/$CUDA_PATH lib64",
            Origin::Mock => c"CUDA_STUBS_MOCK (the mock device beside the stub)",
            Origin::SystemCuda => c"/usr/local/cuda/lib64",
        }
    }
}

/// An address inside this stub, to recognise its own file among the loaded objects.
fn own_address() -> usize {
    own_address as fn() -> usize as usize
}

/// The listing of one search: the places' candidates, and what one place learns that a later
/// one needs (the stub's own file, found by the walk of the loaded objects).
#[derive(Debug)]
pub(crate) struct Places {
    spec: &'static LibrarySpec,
    /// The stub's own file, once looked for.
    own_file: Option<Option<&'static CStr>>,
    /// `$CONDA_PREFIX` (absolute), once read: two places use it.
    conda_prefix: Option<Option<&'static [u8]>>,
}

impl Places {
    /// The places of `spec`'s library, nothing looked at yet.
    pub(crate) fn new(spec: &'static LibrarySpec) -> Self {
        Places {
            spec,
            own_file: None,
            conda_prefix: None,
        }
    }

    /// Calls `visit` with what `origin` lists, in order, until `visit` breaks.
    pub(crate) fn each<B>(&mut self, origin: Origin, visit: Visit<'_, B>) -> ControlFlow<B> {
        let spec = self.spec;
        match origin {
            Origin::AlreadyLoaded => {
                for c in self.already_loaded() {
                    visit(Listed::Try(c))?;
                }
            }
            Origin::EnvOverride => env_override(spec, visit)?,
            // A wheel that bundles the stub puts it under site-packages/<pkg>/…; NVIDIA's wheels
            // are its siblings under site-packages/nvidia. The stub's own site-packages (found
            // from its path, without a system call) finds its environment even when it is not
            // activated (no $VIRTUAL_ENV: `venv/bin/python app.py`); a stub outside any
            // site-packages pays nothing.
            Origin::BesideStub if !spec.real.wheel_dirs.is_empty() => {
                let Some(file) = self.own_file() else {
                    return ControlFlow::Continue(());
                };
                let file = file.to_bytes();
                // Most stubs live outside any Python environment: one scan of the path for the
                // folder's name decides that before any folding or splitting.
                if !may_be_in_site_packages(file) {
                    return ControlFlow::Continue(());
                }
                let dir = parent(file).map(fold_dots);
                if let Some(site) = dir.as_deref().and_then(enclosing_site_packages) {
                    for wheel in spec.real.wheel_dirs {
                        in_existing_dir(spec, &join(site, wheel.to_bytes()), origin, visit)?;
                    }
                }
            }
            Origin::PythonEnv if !spec.real.wheel_dirs.is_empty() => {
                let prefixes = [absolute_var(c"VIRTUAL_ENV"), self.conda_prefix()];
                python_envs(spec, prefixes, visit)?;
            }
            Origin::BesideStub | Origin::PythonEnv => {} // no wheel ships this library
            // conda's cuda-cudart / cuda-nvrtc packages: the conda environment's own copy.
            Origin::CondaLib => {
                if let Some(prefix) = self.conda_prefix() {
                    in_dir(spec, join(prefix, b"lib").to_bytes(), origin, visit)?;
                }
            }
            Origin::LoaderSearch => by_name(spec, visit)?,
            Origin::CudaHome => {
                for var in [c"CUDA_HOME", c"CUDA_PATH"] {
                    if let Some(home) = absolute_var(var) {
                        in_dir(spec, join(home, b"lib64").to_bytes(), origin, visit)?;
                    }
                }
            }
            Origin::SystemCuda => in_dir(spec, b"/usr/local/cuda/lib64", origin, visit)?,
            Origin::Mock => {} // never searched: `search::mock` binds it
        }
        ControlFlow::Continue(())
    }

    /// The objects the process already has whose `DT_SONAME` is one of the spec's sonames,
    /// whatever their file name (`.../libcudart.so`, `libcudart.so.12.9.79`), newest major
    /// first. From `dl_iterate_phdr` and the objects' own dynamic sections: no system call,
    /// unlike `dlopen(soname, RTLD_NOLOAD)`, which makes glibc search the file system first. An
    /// object with no readable `DT_SONAME` is matched by its file name instead.
    ///
    /// The same walk finds the stub's own file, which the wheel place needs; it allocates only
    /// for a match (a Python process with PyTorch has hundreds of objects).
    fn already_loaded(&mut self) -> Vec<Candidate> {
        let spec = self.spec;
        let own = own_address();
        let mut own_file = None;
        let mut out: Vec<Candidate> = Vec::new();
        each_loaded_object(&mut |info| {
            // SAFETY: an object dl_iterate_phdr describes, under the loader's lock.
            if own_file.is_none() && unsafe { elf::maps(info, own) } {
                own_file = Some(own_name(info));
            }
            // SAFETY: as above.
            let name_major = match unsafe { elf::loaded_soname(info) } {
                Some(soname) => match file_names(spec.real).iter().find(|s| same(s.name, soname)) {
                    Some(s) => s.major,
                    None => return,
                },
                None => {
                    // SAFETY: as above.
                    let name = unsafe { object_name(info) };
                    let file = file_name(name.to_bytes());
                    let exact = file_names(spec.real)
                        .iter()
                        .any(|s| s.name.to_bytes() == file);
                    let major = major_of_name(spec, file);
                    if major == 0 && !exact {
                        return;
                    }
                    major
                }
            };
            // Copied: the object may be closed by another thread once the walk is over.
            // SAFETY: as above.
            let target = Cow::Owned(unsafe { object_name(info) }.to_owned());
            out.push(Candidate {
                origin: Origin::AlreadyLoaded,
                target,
                name_major,
            });
        });
        self.own_file = Some(own_file);
        // Newest major first, like every other place.
        sort_small(&mut out, |a, b| a.name_major > b.name_major);
        if out.is_empty() {
            line(spec.real.name, format_args!("no copy already loaded"));
        }
        out
    }

    /// Every file name of the library in each absolute folder of `LD_LIBRARY_PATH`, in order
    /// (ignored in secure-execution processes, as glibc ignores it; relative and empty entries
    /// skipped: nothing is searched relative to the current directory). Listed only when the
    /// loader's search by soname found cuda-stubs' own files (`search::find`).
    pub(crate) fn library_path<B>(&mut self, visit: Visit<'_, B>) -> ControlFlow<B> {
        let Some(value) = crate::env::trusted_var(c"LD_LIBRARY_PATH") else {
            return ControlFlow::Continue(());
        };
        for dir in value.split(|&b| b == b':' || b == b';') {
            // glibc splits at both; a NUL cannot come from the environment.
            let dir = alloc::ffi::CString::new(dir).unwrap_or_default();
            if super::paths::is_absolute(dir.to_bytes()) {
                in_existing_dir(self.spec, &dir, Origin::LoaderSearch, visit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The stub's own file, from the walk of [`Places::already_loaded`] or a walk of its own.
    fn own_file(&mut self) -> Option<&'static CStr> {
        if let Some(known) = self.own_file {
            return known;
        }
        let own = own_address();
        let mut found = None;
        each_loaded_object(&mut |info| {
            // SAFETY: an object dl_iterate_phdr describes, under the loader's lock.
            if found.is_none() && unsafe { elf::maps(info, own) } {
                found = Some(own_name(info));
            }
        });
        self.own_file = Some(found);
        found
    }

    fn conda_prefix(&mut self) -> Option<&'static [u8]> {
        *self
            .conda_prefix
            .get_or_insert_with(|| absolute_var(c"CONDA_PREFIX"))
    }
}

/// `c == bytes` (`bytes` without NUL), compared as it walks `c`: the walk of the loaded objects
/// compares every object's soname with each of the spec's, and most differ in their first few
/// bytes, so neither is measured first (no `strlen`, no `memcmp` call).
fn same(c: &CStr, bytes: &[u8]) -> bool {
    let mut p = c.as_ptr().cast::<u8>();
    for &b in bytes {
        // SAFETY: `p` is within `c`: it stops at the first mismatch, and `c`'s NUL mismatches
        // every byte of `bytes`, which has none.
        if unsafe { *p } != b {
            return false;
        }
        // SAFETY: as above; at most one past a non-NUL byte of `c`, still within it.
        p = unsafe { p.add(1) };
    }
    // SAFETY: as above: every byte so far matched a non-NUL byte, so `p` is within `c`.
    unsafe { *p == 0 }
}

/// The name of the stub's own object.
fn own_name(info: &libc::dl_phdr_info) -> &'static CStr {
    // SAFETY: an object each_loaded_object passed; this one is the stub itself, loaded for as
    // long as its code runs, so its name outlives every use.
    unsafe { &*core::ptr::from_ref(object_name(info)) }
}

/// The folders from which what a candidate file needs (`DT_NEEDED`) and the process lacks is
/// loaded first (`search/release.rs`): the file's own folder (13.x's `nvidia/cu13/lib` holds
/// `libcudart.so.13` beside `libcurand.so.10`, which has no RUNPATH). An 11.x or 12.x wheel's
/// library finds the other wheels' folders by its own RUNPATH (`libcusolver.so.11`:
/// `$ORIGIN/../../cublas/lib`), so no other folder is listed.
pub(crate) fn needed_dirs(_spec: &LibrarySpec, path: &[u8]) -> Vec<alloc::ffi::CString> {
    parent(path)
        .and_then(|dir| alloc::ffi::CString::new(dir).ok())
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    static NVRTC: LibrarySpec = LibrarySpec {
        real: stub_spec::libraries::NVRTC.real,
        replacements: &[],
        proc_address: None,
        last_error: None,
    };

    #[test]
    fn sonames_compare_without_measuring() {
        assert!(same(c"libnvrtc.so.13", b"libnvrtc.so.13"));
        assert!(!same(c"libnvrtc.so.13", b"libnvrtc.so.1"));
        assert!(!same(c"libnvrtc.so.1", b"libnvrtc.so.13"));
        assert!(!same(c"libnvrtc.so.13", b"libc.so.6"));
        assert!(same(c"", b""));
        assert!(!same(c"", b"x"));
    }

    #[test]
    fn file_names_give_their_major() {
        assert_eq!(major_of_name(&NVRTC, b"libnvrtc.so.12.9.86"), 12);
        assert_eq!(major_of_name(&NVRTC, b"libnvrtc.so.11.2"), 11);
        assert_eq!(major_of_name(&NVRTC, b"libnvrtc.so.13"), 13);
        assert_eq!(major_of_name(&NVRTC, b"libnvrtc.so.130"), 0);
        assert_eq!(major_of_name(&NVRTC, b"libnvrtc.so"), 0);
    }

    /// No NVRTC in the test process; its own code is in the main program, which the walk
    /// skips (its empty name gives nothing to reopen), so it has no file of its own either.
    #[test]
    fn walk_of_the_test_process() {
        let mut places = Places::new(&NVRTC);
        assert!(places.already_loaded().is_empty());
        assert_eq!(places.own_file(), None);
    }
}
