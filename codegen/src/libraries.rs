//! The three stubbed libraries: which header declares them and which exports are hand-written.

/// One stubbed library.
#[derive(Debug, Clone, Copy)]
pub struct Library {
    /// The `library = "..."` name the proc-macro takes; also the manifest's file stem.
    pub name: &'static str,
    /// The header that declares its API.
    pub header: &'static str,
    /// The stub crate directory, relative to the workspace root.
    pub crate_dir: &'static str,
    /// Functions to keep from the header (a bindgen allowlist regex).
    pub functions: &'static str,
    /// Types codegen's hand-written prototypes need beyond what the header's functions use.
    pub extra_types: &'static str,
    /// The C status type: spelled exactly so by every status function.
    pub status: &'static str,
    /// Exports the stub crate implements by hand (the lead extends this list here).
    pub hand_written: &'static [&'static str],
}

/// The CUDA runtime.
pub const CUDART: Library = Library {
    name: "cudart",
    header: "cuda_runtime_api.h",
    crate_dir: "stubs-cudart",
    functions: "cuda.*|__cuda.*",
    extra_types: "uint3|dim3|cudaStream_t|cudaError_t",
    status: "cudaError_t",
    hand_written: &["cudaGetErrorName", "cudaGetErrorString"],
};

/// NVRTC.
pub const NVRTC: Library = Library {
    name: "nvrtc",
    header: "nvrtc.h",
    crate_dir: "stubs-nvrtc",
    functions: "nvrtc.*|__nvrtc.*",
    extra_types: "nvrtcResult|nvrtcProgram",
    status: "nvrtcResult",
    hand_written: &["nvrtcGetErrorString"],
};

/// The driver API.
pub const CUDA: Library = Library {
    name: "cuda",
    header: "cuda.h",
    crate_dir: "stubs-cuda",
    functions: "cu.*|__cu.*",
    extra_types: "CUresult|CUuuid",
    status: "CUresult",
    hand_written: &["cuGetErrorName", "cuGetErrorString"],
};

/// All three, in the order codegen writes them.
pub const ALL: [Library; 3] = [CUDART, NVRTC, CUDA];
