//! Which real library a declaration block stands for: its `library = "..."` name, status type
//! and ELF version nodes.

/// The real libraries a stub can stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibraryKind {
    /// The CUDA runtime, libcudart; status type `cudaError_t`.
    Cudart,
    /// NVRTC, libnvrtc; status type `nvrtcResult`.
    Nvrtc,
    /// The driver, libcuda; status type `CUresult`.
    Cuda,
    /// nvJitLink, libnvJitLink; status type `nvJitLinkResult`.
    NvJitLink,
}

impl LibraryKind {
    /// From the `library = "..."` argument.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "cudart" => Some(Self::Cudart),
            "nvrtc" => Some(Self::Nvrtc),
            "cuda" => Some(Self::Cuda),
            "nvjitlink" => Some(Self::NvJitLink),
            _ => None,
        }
    }

    /// The `library = "..."` argument for this kind.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cudart => "cudart",
            Self::Nvrtc => "nvrtc",
            Self::Cuda => "cuda",
            Self::NvJitLink => "nvjitlink",
        }
    }

    /// The ELF version node of this library's exports with CUDA `major`'s ABI, e.g.
    /// `CUDA_STUBS_CUDART_12`: what a program linked for that ABI records for a name whose
    /// prototype differs between majors (`cudaMemAdvise@CUDA_STUBS_CUDART_12`). Not NVIDIA's
    /// node names (`libcudart.so.12`): a stub never claims to be the real library.
    pub fn version_node(self, major: u32) -> String {
        format!("CUDA_STUBS_{}_{major}", self.name().to_uppercase())
    }

    /// The C status type whose functions get typed errors as fallback.
    pub fn status_type(self) -> &'static str {
        match self {
            Self::Cudart => "cudaError_t",
            Self::Nvrtc => "nvrtcResult",
            Self::Cuda => "CUresult",
            Self::NvJitLink => "nvJitLinkResult",
        }
    }
}
