//! Which real library a declaration block stands for, and the way to its spec.

use crate::Library;
use crate::libraries::{
    CUBLAS, CUBLASLT, CUBLASMP, CUDA, CUDART, CUDENSITYMAT, CUDNN, CUDSS, CUFFT, CUFFTMP, CUFFTW,
    CUFILE, CUPTI, CURAND, CUSOLVER, CUSOLVERMG, CUSOLVERMP, CUSPARSE, CUSPARSELT, CUSTATEVEC,
    CUTENSOR, CUTENSORNET, NCCL, NVBLAS, NVCOMP, NVFATBIN, NVIMGCODEC, NVJITLINK, NVJPEG, NVJPEG2K,
    NVML, NVPERF_HOST, NVPERF_TARGET, NVRTC, NVTIFF, NVTX, NVVM, NppLibrary,
};
use alloc::format;
use alloc::string::String;

/// The real libraries a stub can stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibraryKind {
    /// The CUDA runtime, libcudart ([`CUDART`]).
    Cudart,
    /// NVRTC, libnvrtc ([`NVRTC`]).
    Nvrtc,
    /// The driver, libcuda ([`CUDA`]).
    Cuda,
    /// nvJitLink, libnvJitLink ([`NVJITLINK`]).
    NvJitLink,
    /// cuRAND, libcurand ([`CURAND`]).
    Curand,
    /// cuFFT, libcufft ([`CUFFT`]).
    Cufft,
    /// NVML, libnvidia-ml ([`NVML`]).
    Nvml,
    /// cuBLAS, libcublas ([`CUBLAS`]).
    Cublas,
    /// cuBLASLt, libcublasLt ([`CUBLASLT`]).
    CublasLt,
    /// cuSPARSE, libcusparse ([`CUSPARSE`]).
    Cusparse,
    /// cuSOLVER, libcusolver ([`CUSOLVER`]).
    Cusolver,
    /// NCCL, libnccl ([`NCCL`]).
    Nccl,
    /// cuTENSOR, libcutensor ([`CUTENSOR`]).
    Cutensor,
    /// cuSPARSELt, libcusparseLt ([`CUSPARSELT`]).
    CusparseLt,
    /// cuDNN, libcudnn ([`CUDNN`]).
    Cudnn,
    /// One of NPP's eleven libraries (`libnppc`, `libnppial` …: [`NppLibrary`]).
    Npp(NppLibrary),
    /// CUPTI, libcupti ([`CUPTI`]).
    Cupti,
    /// nvFatbin, libnvfatbin ([`NVFATBIN`]).
    NvFatbin,
    /// nvJPEG, libnvjpeg ([`NVJPEG`]).
    NvJpeg,
    /// cuFile, libcufile ([`CUFILE`]).
    Cufile,
    /// cuFFTW, libcufftw ([`CUFFTW`]).
    Cufftw,
    /// nvBLAS, libnvblas ([`NVBLAS`]).
    NvBlas,
    /// cuSOLVERMg, libcusolverMg ([`CUSOLVERMG`]).
    CusolverMg,
    /// NVTX, libnvToolsExt ([`NVTX`]).
    Nvtx,
    /// cuDSS, libcudss ([`CUDSS`]).
    Cudss,
    /// nvJPEG2000, libnvjpeg2k ([`NVJPEG2K`]).
    NvJpeg2k,
    /// nvTIFF, libnvtiff ([`NVTIFF`]).
    NvTiff,
    /// cuStateVec, libcustatevec ([`CUSTATEVEC`]).
    Custatevec,
    /// cuTensorNet, libcutensornet ([`CUTENSORNET`]).
    Cutensornet,
    /// cuDensityMat, libcudensitymat ([`CUDENSITYMAT`]).
    Cudensitymat,
    /// libNVVM, libnvvm ([`NVVM`]).
    Nvvm,
    /// nvCOMP, libnvcomp ([`NVCOMP`]).
    NvComp,
    /// nvImageCodec, libnvimgcodec ([`NVIMGCODEC`]).
    NvImgCodec,
    /// Perfworks' host library, libnvperf_host ([`NVPERF_HOST`]).
    NvperfHost,
    /// Perfworks' target library, libnvperf_target ([`NVPERF_TARGET`]).
    NvperfTarget,
    /// cuBLASMp, libcublasmp ([`CUBLASMP`]).
    CublasMp,
    /// cuSOLVERMp, libcusolverMp ([`CUSOLVERMP`]).
    CusolverMp,
    /// cuFFTMp, libcufftMp ([`CUFFTMP`]).
    CufftMp,
}

impl LibraryKind {
    /// Its spec.
    pub const fn spec(self) -> &'static Library {
        match self {
            Self::Cudart => &CUDART,
            Self::Nvrtc => &NVRTC,
            Self::Cuda => &CUDA,
            Self::NvJitLink => &NVJITLINK,
            Self::Curand => &CURAND,
            Self::Cufft => &CUFFT,
            Self::Nvml => &NVML,
            Self::Cublas => &CUBLAS,
            Self::CublasLt => &CUBLASLT,
            Self::Cusparse => &CUSPARSE,
            Self::Cusolver => &CUSOLVER,
            Self::Nccl => &NCCL,
            Self::Cutensor => &CUTENSOR,
            Self::CusparseLt => &CUSPARSELT,
            Self::Cudnn => &CUDNN,
            Self::Npp(library) => library.spec(),
            Self::Cupti => &CUPTI,
            Self::NvFatbin => &NVFATBIN,
            Self::NvJpeg => &NVJPEG,
            Self::Cufile => &CUFILE,
            Self::Cufftw => &CUFFTW,
            Self::NvBlas => &NVBLAS,
            Self::CusolverMg => &CUSOLVERMG,
            Self::Nvtx => &NVTX,
            Self::Cudss => &CUDSS,
            Self::NvJpeg2k => &NVJPEG2K,
            Self::NvTiff => &NVTIFF,
            Self::Custatevec => &CUSTATEVEC,
            Self::Cutensornet => &CUTENSORNET,
            Self::Cudensitymat => &CUDENSITYMAT,
            Self::Nvvm => &NVVM,
            Self::NvComp => &NVCOMP,
            Self::NvImgCodec => &NVIMGCODEC,
            Self::NvperfHost => &NVPERF_HOST,
            Self::NvperfTarget => &NVPERF_TARGET,
            Self::CublasMp => &CUBLASMP,
            Self::CusolverMp => &CUSOLVERMP,
            Self::CufftMp => &CUFFTMP,
        }
    }

    /// From the `library = "..."` argument (a spec's name).
    pub fn from_name(name: &str) -> Option<Self> {
        crate::libraries::ALL
            .iter()
            .find(|l| l.name() == name)
            .map(|l| l.kind)
    }

    /// The `library = "..."` argument for this kind.
    pub fn name(self) -> &'static str {
        self.spec().name()
    }

    /// The ELF version node of this library's exports with CUDA `major`'s ABI, e.g.
    /// `CUDA_STUBS_CUDART_12`: what a program linked for that ABI records for a name whose
    /// prototype differs between majors (`cudaMemAdvise@CUDA_STUBS_CUDART_12`). Not NVIDIA's
    /// node names (`libcudart.so.12`): a stub never claims to be the real library.
    pub fn version_node(self, major: u32) -> String {
        format!("CUDA_STUBS_{}_{major}", self.name().to_uppercase())
    }

    /// The Windows export of `name` with CUDA `major`'s ABI when that is not the default
    /// (newest) one, e.g. `__cuda_stubs_abi12_cudaMemAdvise`. PE exports have no versions: the
    /// default ABI is exported under the plain name, each other one under this name, which
    /// `stubs_cudart_abi12.lib` (the import library for programs built with CUDA 12's headers)
    /// binds to the plain name, as the abi12 link stub does on Linux.
    pub fn windows_export(self, name: &str, major: u32) -> String {
        format!("__cuda_stubs_abi{major}_{name}")
    }

    /// The C status type whose functions get typed errors as fallback.
    pub fn status_type(self) -> &'static str {
        self.spec().status_type
    }
}

#[cfg(test)]
mod tests {
    use super::LibraryKind;
    use crate::libraries::ALL;

    #[test]
    fn every_spec_is_its_kinds() {
        for library in ALL {
            assert_eq!(library.kind.spec().name(), library.name());
            assert_eq!(LibraryKind::from_name(library.name()), Some(library.kind));
        }
    }
}
