//! A library's file names on Linux: its sonames (`libcudart.so.13` …), its wheel folders
//! (`nvidia/cu13/lib` …), its companion (`libnvrtc-builtins.so.13.0`) and its lazy dependency
//! (`libcudnn_graph.so.9`), from the spec.

use crate::spec::{LibrarySpec, RealLibrary, ReleaseNamed, Soname};
use alloc::ffi::CString;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
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

/// The library's DLL named after its own release: none on Linux, where every soname says the
/// CUDA major (CUPTI's is `libcupti.so.12`; only its Windows DLL is `cupti64_2025.2.1.dll`).
pub(crate) fn release_named(_real: &RealLibrary) -> Option<&'static ReleaseNamed> {
    None
}

/// The release-named files in a folder ([`release_named`]): none on Linux.
pub(crate) fn release_named_in(_real: &RealLibrary, _dir: &[u8]) -> Vec<(Vec<u8>, u32)> {
    Vec::new()
}

/// The release-named objects the process has loaded ([`release_named`]): none on Linux.
pub(crate) fn loaded_release_named(_real: &RealLibrary) -> Vec<(CString, u32)> {
    Vec::new()
}

/// The mock device's file (`stub-mock`), beside the stubs: no NVIDIA soname, so no search for
/// a real library ever finds it.
pub(crate) const MOCK_FILE: &[u8] = b"libcuda_stubs_mock.so";

/// The Python environments' place, as the "not found" summary names it.
pub(crate) const PYTHON_ENVS: &str = "$VIRTUAL_ENV, $CONDA_PREFIX site-packages";
