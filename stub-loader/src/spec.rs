use core::ffi::CStr;

/// One soname a real library is published under, and the CUDA major it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Soname {
    /// e.g. `libcudart.so.12`.
    pub name: &'static CStr,
    /// The CUDA major of that soname (11 for `libcudart.so.11.0` and `libnvrtc.so.11.2`). For the
    /// driver (`libcuda.so.1`), 0: its version comes only from `cuDriverGetVersion`.
    pub major: u32,
}

/// How the loaded library's version is learnt, after `dlopen`.
#[derive(Debug, Clone, Copy)]
pub enum VersionProbe {
    /// `cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)`, or `CUresult
    /// cuDriverGetVersion(int *driverVersion)`: one `int` out, status 0 on success, the version
    /// as `1000 * major + 10 * minor`.
    OneInt(&'static CStr),
    /// `nvrtcResult nvrtcVersion(int *major, int *minor)`.
    MajorMinor(&'static CStr),
}

/// How a symbol's declared majors gate its lookup in the loaded library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gating {
    /// The loaded major must be one of the symbol's majors (cudart, NVRTC: majors remove
    /// symbols, e.g. `cudaThreadSynchronize` is gone from 13.x).
    Exact,
    /// The loaded major must be at least the symbol's first major (the driver keeps every entry
    /// point of older headers; a newer driver serves every older runtime).
    AtLeast,
}

/// Everything the loader needs to know about one real library. One `static` per stub.
#[derive(Debug)]
pub struct LibrarySpec {
    /// Short name used in messages and the debug log: `cudart`, `nvrtc`, `cuda`.
    pub name: &'static str,
    /// Candidate sonames, newest major first.
    pub sonames: &'static [Soname],
    /// Environment variable holding an absolute path to the library or to its directory.
    pub env_path: &'static str,
    /// Directories, relative to a `site-packages`, where NVIDIA's wheels put the library.
    pub wheel_dirs: &'static [&'static str],
    /// How to learn the version once loaded.
    pub version: VersionProbe,
    /// How the loaded major gates symbols.
    pub gating: Gating,
    /// A library the real one `dlopen`s by bare name from its own directory, preloaded from
    /// there when the real library was found by path (`libnvrtc-builtins.so.` + `13.0`: NVRTC
    /// 13.x has no `$ORIGIN` RUNPATH, so outside `LD_LIBRARY_PATH` it cannot find it alone).
    /// The version's `major.minor` is appended.
    pub companion: Option<&'static str>,
    /// `(removed, replacement)`: when the loaded version lacks `removed`, bind `replacement`
    /// instead. Only for pairs with the same prototype and semantics (`cudaThreadSynchronize`
    /// → `cudaDeviceSynchronize`, removed in CUDA 13.0).
    pub replacements: &'static [(&'static CStr, &'static CStr)],
}
