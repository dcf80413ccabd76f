//! Windows: the candidates of each place of [`SEARCH`](super::order::SEARCH), listed one at a
//! time and only when the search reaches that place (Linux: `so_places.rs`). A candidate is a
//! bare DLL name (the loader's search, or a DLL already loaded) or an absolute path.

use super::candidates::listing::{
    Visit, absolute_var, by_name, env_override, in_existing_dir, python_envs,
};
use super::candidates::{Candidate, Listed, file_names, wheel_dirs};
use super::order::Origin;
use super::paths::{enclosing_site_packages, join, may_be_in_site_packages, parent};
use crate::debug::line;
use crate::dynlib::{file_of_address, is_loaded};
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use core::ops::ControlFlow;

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

    /// Calls `visit` with what `origin` lists, in order, until `visit` breaks.
    pub(crate) fn each<B>(&mut self, origin: Origin, visit: Visit<'_, B>) -> ControlFlow<B> {
        let spec = self.spec;
        let windows = spec.real.windows;
        match origin {
            // By base name, as Windows' loader itself matches a loaded DLL: any major, newest
            // first; the probe takes its own reference with `GetModuleHandleExW`.
            Origin::AlreadyLoaded => {
                let mut any = false;
                for s in file_names(spec) {
                    if is_loaded(s.name) {
                        any = true;
                        visit(Listed::Try(Candidate {
                            origin,
                            target: Cow::Borrowed(s.name),
                            name_major: s.major,
                        }))?;
                    }
                }
                if !any {
                    line(spec.real.name, format_args!("no copy already loaded"));
                }
            }
            Origin::EnvOverride => env_override(spec, visit)?,
            // A wheel that bundles the stub puts it under site-packages\<pkg>\…; NVIDIA's
            // wheels are its siblings under site-packages\nvidia (Python 3.8+ adds neither to
            // any DLL search: this is how they are found).
            Origin::BesideStub if !wheel_dirs(spec).is_empty() => {
                let Some(file) = file_of_address(own_address()) else {
                    return ControlFlow::Continue(());
                };
                if !may_be_in_site_packages(&file) {
                    return ControlFlow::Continue(());
                }
                if let Some(site) = parent(&file).and_then(enclosing_site_packages) {
                    for wheel in wheel_dirs(spec) {
                        in_existing_dir(spec, &join(site, wheel.to_bytes()), origin, visit)?;
                    }
                }
            }
            Origin::PythonEnv if !wheel_dirs(spec).is_empty() => {
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
            Origin::LoaderSearch => by_name(spec, visit)?,
            Origin::SystemCuda => {} // Linux only
        }
        ControlFlow::Continue(())
    }

    fn conda_prefix(&mut self) -> Option<&'static [u8]> {
        *self
            .conda_prefix
            .get_or_insert_with(|| absolute_var(c"CONDA_PREFIX"))
    }
}
