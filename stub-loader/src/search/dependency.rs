//! A candidate's lazy dependency (`RealLibrary::lazy_dependency`; on Windows
//! `WindowsDlls::lazy_dependency`, a DLL name): the library the real one `dlopen`s itself at its
//! first call and cannot run without (cuDNN's front library `libcudnn.so.9` forwards every
//! export into `libcudnn_graph.so.9` and calls `abort()` when it cannot load it; `cudnn64_9.dll`
//! into `cudnn_graph64_9.dll`). Loaded before anything of the candidate is called, its version probe
//! included, where the real library's own `dlopen` will find it; a candidate for which that
//! cannot be done is rejected, and stays mapped, never called. The same holds for a copy the
//! process has mapped that another stub asks for its release (`release.rs`): a copy rejected
//! for want of its dependency stays mapped, and asking it would abort the process.
//!
//! A copy the process already has is held to the same rule, and the search goes on past it: it
//! cannot run (its own `dlopen` looks where this one did), so it holds no state a second copy
//! could be handed by mistake.

use super::paths::{join, parent};
use super::reject::Reject;
use crate::debug::line;
use crate::os::{Handle, is_file, is_loaded, lazy_dependency};
use crate::spec::RealLibrary;

/// Makes `real`'s lazy dependency of the candidate `handle` loaded, as its own `dlopen` by
/// soname will then answer:
/// - the process has an object of that soname: the candidate's `dlopen` gets it, whatever lies
///   beside the candidate (the loader matches a loaded object's soname first). Accepted when it
///   is the file beside the candidate, or when there is none there; another copy (one a
///   candidate rejected earlier in this search left loaded, cuDNN 9.27's CUDA 12 build's
///   beside its CUDA 13 build) would serve this candidate another release or version:
///   rejected ([`Reject::ForeignDependency`]);
/// - else the file beside the candidate (its `$ORIGIN` RPATH), else the system loader's search
///   (`LD_LIBRARY_PATH`, the cache), which the candidate's `dlopen` also does; where none loads,
///   rejected ([`Reject::LacksDependency`]): calling the candidate would abort the process.
pub(super) fn load_lazy_dependency(real: &RealLibrary, handle: &Handle) -> Result<(), Reject> {
    let Some(name) = lazy_dependency(real) else {
        return Ok(());
    };
    let beside = handle
        .path()
        .and_then(|path| parent(path.to_bytes()))
        .map(|dir| join(dir, name.to_bytes()))
        .filter(|file| is_file(file));
    if let Ok(loaded) = Handle::loaded(name) {
        // `RTLD_NOLOAD` on a path matches the loaded object that is that file.
        return match &beside {
            Some(own) if !is_loaded(own) => Err(Reject::ForeignDependency {
                name,
                loaded: loaded
                    .path()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            }),
            _ => Ok(()),
        };
    }
    let target = beside.as_deref().unwrap_or(name);
    match Handle::open(target) {
        Ok(_) => {
            line(
                real.name,
                format_args!("loaded {}", target.to_string_lossy()),
            );
            Ok(())
        }
        Err(e) => Err(Reject::LacksDependency {
            name,
            error: e.text,
        }),
    }
}
