//! A library's file names on Linux: its sonames (`libcudart.so.13` …), its wheel folders
//! (`nvidia/cu13/lib` …), its companion (`libnvrtc-builtins.so.13.0`) and its lazy dependency
//! (`libcudnn_graph.so.9`), from the spec.

use crate::spec::{LibrarySpec, RealLibrary, Soname};
use alloc::format;
use alloc::string::String;
use core::ffi::CStr;

/// The library's sonames, newest major first.
pub(crate) fn file_names(real: &RealLibrary) -> &'static [Soname] {
    real.sonames
}

/// The folders, relative to a `site-packages`, where NVIDIA's wheels put the library
/// (`nvidia/cu13/lib` …).
pub(crate) fn wheel_dirs(real: &RealLibrary) -> &'static [&'static CStr] {
    real.wheel_dirs
}

/// The CUDA major a file name says, from the spec's sonames (`libcudart.so.12.9.79` → 12), 0
/// when it says none.
pub(crate) fn major_of_name(spec: &LibrarySpec, name: &[u8]) -> u32 {
    file_names(spec.real)
        .iter()
        .find(|s| {
            let soname = s.name.to_bytes();
            name.starts_with(soname) && matches!(name.get(soname.len()), None | Some(b'.'))
        })
        .map_or(0, |s| s.major)
}

/// The companion's file name for `version`: `libnvrtc-builtins.so.12.9`.
pub(crate) fn companion_name(spec: &LibrarySpec, version: i32) -> Option<String> {
    let (major, minor) = (version / 1000, (version % 1000) / 10);
    let prefix = spec.real.companion?;
    Some(format!("{prefix}{major}.{minor}"))
}

/// The library the real one loads itself at its first call and cannot run without
/// (`RealLibrary::lazy_dependency`: cuDNN's `libcudnn_graph.so.9`), by its soname.
pub(crate) fn lazy_dependency(real: &RealLibrary) -> Option<&'static CStr> {
    real.lazy_dependency
}

/// The Python environments' place, as the "not found" summary names it.
pub(crate) const PYTHON_ENVS: &str = "$VIRTUAL_ENV, $CONDA_PREFIX site-packages";
