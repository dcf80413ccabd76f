//! The search order, [`SEARCH`]: every place a real library is looked for, one list.

use core::ffi::CStr;

/// The search, in order: the first place with a usable candidate wins, and a later place's
/// candidates are not even listed (nothing of it touches the file system). The book's "Where the
/// real library is searched" (`docs/src/search-order.md`) is this list; the "not found" summary is built from it.
///
/// Why this order (the order of NVIDIA's `cuda.pathfinder`): a copy already in the process is
/// the one every other library there uses, so a second copy (another major, another patch
/// level) is never loaded; the override is the user's explicit choice; NVIDIA's wheels of the
/// stub's own Python environment come before the dynamic loader's search, so that an extension
/// making the first CUDA call before `import torch` binds the wheel copy torch will load, not
/// an older toolkit on `LD_LIBRARY_PATH`; the toolkit folders, which the loader's search does
/// not cover by default, come last.
#[cfg(unix)]
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

/// The search on Windows, in order (`dll_places.rs` lists each place): a DLL the process
/// already has (`GetModuleHandleExW`, any major, newest first), the override, NVIDIA's wheels
/// beside the stub and in the Python environment, `%CONDA_PREFIX%\Library\bin`, the toolkit
/// (`%CUDA_PATH%\bin\x64`, `%CUDA_PATH%\bin`), then the safe system search
/// (`LOAD_LIBRARY_SEARCH_DEFAULT_DIRS`: the application's folder, `System32`, folders added
/// with `AddDllDirectory`). Never the current directory, never `PATH`: Python 3.8+ does not
/// search `PATH` for DLLs either, and a DLL planted in the working folder must not be loaded.
/// The toolkit comes before the system search, which holds only the driver (`nvcuda.dll`).
#[cfg(windows)]
pub(crate) const SEARCH: [Origin; 7] = [
    Origin::AlreadyLoaded,
    Origin::EnvOverride,
    Origin::BesideStub,
    Origin::PythonEnv,
    Origin::CondaLib,
    Origin::CudaHome,
    Origin::LoaderSearch,
];

/// One place of [`SEARCH`]: where a candidate came from, and how the status API and the debug
/// log say a library was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Already loaded in the process, recognised by its `DT_SONAME` whatever its file name
    /// (reopened `RTLD_NOLOAD`), newest major first. Windows: by DLL name
    /// (`GetModuleHandleExW`).
    AlreadyLoaded,
    /// The `CUDA_STUBS_*_PATH` override: a file, or a folder searched by soname.
    EnvOverride,
    /// An NVIDIA wheel layout in the `site-packages` (or `dist-packages`) holding the stub's own
    /// file.
    BesideStub,
    /// An NVIDIA wheel layout in `$VIRTUAL_ENV` or `$CONDA_PREFIX` `lib/python3*/site-packages`
    /// (Windows: `Lib\site-packages`).
    PythonEnv,
    /// `$CONDA_PREFIX/lib` (conda's `cuda-cudart`, `cuda-nvrtc` … packages); Windows:
    /// `%CONDA_PREFIX%\Library\bin`.
    CondaLib,
    /// The sonames, newest major first, through the dynamic loader's search (`LD_LIBRARY_PATH`,
    /// ldconfig). Windows: the DLL names through `LOAD_LIBRARY_SEARCH_DEFAULT_DIRS`.
    LoaderSearch,
    /// `$CUDA_HOME/lib64`, then `$CUDA_PATH/lib64`. Windows: the toolkit's DLL folders
    /// (`bin\x64`, `bin`) under `%CUDA_PATH%`, then `%CUDA_HOME%`.
    CudaHome,
    /// `/usr/local/cuda/lib64` (Linux only).
    SystemCuda,
}

impl Origin {
    /// Short text for the debug log and the status API.
    pub fn as_str(self) -> &'static str {
        self.as_cstr().to_str().unwrap_or("")
    }

    /// [`Origin::as_str`] as a C string, for the status API.
    #[cfg(windows)]
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            Origin::AlreadyLoaded => c"already loaded (GetModuleHandleExW)",
            Origin::EnvOverride => c"environment override",
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"%CONDA_PREFIX%\\Library\\bin",
            Origin::LoaderSearch => c"safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)",
            Origin::CudaHome => c"%CUDA_PATH%/%CUDA_HOME% bin\\x64, bin",
            Origin::SystemCuda => c"",
        }
    }

    /// [`Origin::as_str`] as a C string, for the status API.
    #[cfg(unix)]
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            Origin::AlreadyLoaded => c"already loaded (RTLD_NOLOAD)",
            Origin::EnvOverride => c"environment override",
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"$CONDA_PREFIX/lib",
            Origin::LoaderSearch => c"dynamic loader search",
            Origin::CudaHome => c"$CUDA_HOME/$CUDA_PATH lib64",
            Origin::SystemCuda => c"/usr/local/cuda/lib64",
        }
    }
}
