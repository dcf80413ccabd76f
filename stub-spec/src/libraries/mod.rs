//! One spec per stubbed library, data only: [`CUDART`], [`NVRTC`], [`CUDA`] (the driver),
//! [`NVJITLINK`], [`CURAND`], [`CUFFT`], [`NVML`], [`CUBLAS`], [`CUBLASLT`], [`CUSPARSE`],
//! [`CUSOLVER`], [`NCCL`], [`CUTENSOR`], [`CUSPARSELT`], [`CUDNN`], [`NPPC`] … [`NPPS`] (NPP's
//! eleven), [`CUPTI`], [`NVFATBIN`], [`NVJPEG`], [`CUFILE`], [`CUFFTW`], [`NVBLAS`],
//! [`CUSOLVERMG`], [`NVTX`], [`CUDSS`], [`NVJPEG2K`], [`NVTIFF`], [`CUSTATEVEC`],
//! [`CUTENSORNET`], [`CUDENSITYMAT`], [`NVVM`], [`NVCOMP`], [`NVIMGCODEC`], [`NVPERF_HOST`], [`NVPERF_TARGET`], [`CUBLASMP`],
//! [`CUSOLVERMP`], [`CUFFTMP`]. Adding a library is
//! adding a file here
//! (`docs/src/adding-a-cuda-library.md`).

mod cublas;
mod cublaslt;
mod cublasmp;
mod cuda;
mod cudart;
mod cudensitymat;
mod cudnn;
mod cudss;
mod cufft;
mod cufftmp;
mod cufftw;
mod cufile;
mod cupti;
mod curand;
mod cusolver;
mod cusolvermg;
mod cusolvermp;
mod cusparse;
mod cusparselt;
mod custatevec;
mod cutensor;
mod cutensornet;
mod nccl;
mod npp;
mod nvblas;
mod nvcomp;
mod nvfatbin;
mod nvimgcodec;
mod nvjitlink;
mod nvjpeg;
mod nvjpeg2k;
mod nvml;
mod nvperf;
mod nvrtc;
mod nvtiff;
mod nvtx;
mod nvvm;

use core::ffi::CStr;

pub use cublas::CUBLAS;
pub use cublaslt::CUBLASLT;
pub use cublasmp::CUBLASMP;
pub use cuda::CUDA;
pub use cudart::CUDART;
pub use cudensitymat::CUDENSITYMAT;
pub use cudnn::CUDNN;
pub use cudss::CUDSS;
pub use cufft::CUFFT;
pub use cufftmp::CUFFTMP;
pub use cufftw::CUFFTW;
pub use cufile::CUFILE;
pub use cupti::CUPTI;
pub use curand::CURAND;
pub use cusolver::CUSOLVER;
pub use cusolvermg::CUSOLVERMG;
pub use cusolvermp::CUSOLVERMP;
pub use cusparse::CUSPARSE;
pub use cusparselt::CUSPARSELT;
pub use custatevec::CUSTATEVEC;
pub use cutensor::CUTENSOR;
pub use cutensornet::CUTENSORNET;
pub use nccl::NCCL;
pub use npp::{
    NPPC, NPPIAL, NPPICC, NPPIDEI, NPPIF, NPPIG, NPPIM, NPPIST, NPPISU, NPPITC, NPPS, NppLibrary,
};
pub use nvblas::NVBLAS;
pub use nvcomp::NVCOMP;
pub use nvfatbin::NVFATBIN;
pub use nvimgcodec::NVIMGCODEC;
pub use nvjitlink::NVJITLINK;
pub use nvjpeg::NVJPEG;
pub use nvjpeg2k::NVJPEG2K;
pub use nvml::NVML;
pub use nvperf::{NVPERF_HOST, NVPERF_TARGET};
pub use nvrtc::NVRTC;
pub use nvtiff::NVTIFF;
pub use nvtx::NVTX;
pub use nvvm::NVVM;

/// All of them, in the order codegen writes them.
pub const ALL: [&crate::Library; 48] = [
    &CUDART,
    &NVRTC,
    &CUDA,
    &NVJITLINK,
    &CURAND,
    &CUFFT,
    &NVML,
    &CUBLAS,
    &CUBLASLT,
    &CUSPARSE,
    &CUSOLVER,
    &NCCL,
    &CUTENSOR,
    &CUSPARSELT,
    &CUDNN,
    &NPPC,
    &NPPIAL,
    &NPPICC,
    &NPPIDEI,
    &NPPIF,
    &NPPIG,
    &NPPIM,
    &NPPIST,
    &NPPISU,
    &NPPITC,
    &NPPS,
    &CUPTI,
    &NVFATBIN,
    &NVJPEG,
    &CUFILE,
    &CUFFTW,
    &NVBLAS,
    &CUSOLVERMG,
    &NVTX,
    &CUDSS,
    &NVJPEG2K,
    &NVTIFF,
    &CUSTATEVEC,
    &CUTENSORNET,
    &CUDENSITYMAT,
    &NVVM,
    &NVCOMP,
    &NVIMGCODEC,
    // The target library before the host's, whose exports include all of the target's: a
    // Windows program linked to both (tests/windows/win_math.c) then takes the shared calls
    // from the target's import library, and imports both DLLs.
    &NVPERF_TARGET,
    &NVPERF_HOST,
    &CUBLASMP,
    &CUSOLVERMP,
    &CUFFTMP,
];

/// Where CUDA 13's wheels (`nvidia-cuda-runtime`, `nvidia-cuda-nvrtc`, `nvidia-nvjitlink` 13.x)
/// all put their libraries: one folder for every library of the major.
const CU13_LIB: &CStr = c"nvidia/cu13/lib";

/// Where CUDA 13's `win_amd64` wheels put their DLLs, as the 13.x toolkit does (`bin\x64`).
const CU13_BIN: &CStr = c"nvidia/cu13/bin/x86_64";

/// A Windows toolkit's DLL folders under `%CUDA_PATH%`: `bin\x64` (13.x moved them there),
/// then `bin` (11.x, 12.x).
const TOOLKIT_BIN: &[&CStr] = &[c"bin/x64", c"bin"];
