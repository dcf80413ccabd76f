//! A library's file names on Windows: its DLL names (`cudart64_13.dll` …), its wheel folders
//! (`nvidia/cu13/bin/x86_64` …) and its companion (`nvrtc-builtins64_130.dll`), from the spec's
//! `windows` part (none for a library without a Windows stub).

use crate::spec::{LibrarySpec, RealLibrary, Soname};
use alloc::format;
use alloc::string::String;
use core::ffi::CStr;

/// The library's DLL names, newest major first.
pub(crate) fn file_names(real: &RealLibrary) -> &'static [Soname] {
    real.windows.map_or(&[], |w| w.dlls)
}

/// The folders, relative to a `site-packages`, where NVIDIA's wheels put the DLLs.
pub(crate) fn wheel_dirs(real: &RealLibrary) -> &'static [&'static CStr] {
    real.windows.map_or(&[], |w| w.wheel_dirs)
}

/// The CUDA major a DLL name says (`cudart64_12.dll` → 12, compared without case; CUPTI's
/// `cupti64_2025.2.1.dll` → 12 through its spec's releases), 0 when it says none.
pub(crate) fn major_of_name(spec: &LibrarySpec, name: &[u8]) -> u32 {
    file_names(spec.real)
        .iter()
        .find(|s| s.name.to_bytes().eq_ignore_ascii_case(name))
        .map(|s| s.major)
        .or_else(|| Some(spec.real.windows?.release_named?.major_of_name(name)))
        .unwrap_or(0)
}

/// The companion's file name for `version`: `nvrtc-builtins64_129.dll`.
pub(crate) fn companion_name(spec: &LibrarySpec, version: i32) -> Option<String> {
    let (major, minor) = (version / 1000, (version % 1000) / 10);
    let prefix = spec.real.windows?.companion?;
    Some(format!("{prefix}{}.dll", major * 10 + minor))
}

/// The DLL the real one loads itself at its first call and cannot run without, by its file
/// name (`WindowsDlls::lazy_dependency`: cuDNN's `cudnn_graph64_9.dll`; the spec's
/// `RealLibrary::lazy_dependency` is the Linux soname).
pub(crate) fn lazy_dependency(real: &RealLibrary) -> Option<&'static CStr> {
    real.windows?.lazy_dependency
}

/// The mock device's DLL (`stub-mock`), beside the stubs: no NVIDIA DLL name, so no search for
/// a real library ever finds it.
pub(crate) const MOCK_FILE: &[u8] = b"cuda_stubs_mock.dll";

/// The Python environments' place, as the "not found" summary names it.
pub(crate) const PYTHON_ENVS: &str = "%VIRTUAL_ENV%, %CONDA_PREFIX% Lib\\site-packages";
