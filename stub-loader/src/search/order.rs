//! The places a real library is looked for ([`Origin`]), named the same on both systems. Their
//! order is each system's `SEARCH` (`os/linux/places.rs`, `os/windows/places.rs`), and so is
//! each place's text (`Origin::as_cstr`): the first place with a usable candidate wins, and a
//! later place's candidates are not even listed (nothing of it touches the file system). The
//! book's "Where the real library is searched" (`docs/src/search-order.md`) is that list; the
//! "not found" summary is built from it.

/// One place of the search (`SEARCH`): where a candidate came from, and how the status API and
/// the debug log say a library was found.
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
    /// The mock device (`CUDA_STUBS_MOCK`): cuda-stubs' own `libcuda_stubs_mock.so` beside the
    /// stub's file. No place of `SEARCH`: under the variable it is the only one (`mock.rs`).
    Mock,
}

impl Origin {
    /// Short text for the debug log and the status API: [`Origin::as_cstr`], each system's
    /// own (`os/*/places.rs`).
    pub fn as_str(self) -> &'static str {
        self.as_cstr().to_str().unwrap_or("")
    }
}
