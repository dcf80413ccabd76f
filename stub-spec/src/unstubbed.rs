//! NVIDIA's CUDA libraries that have no stub yet: what `python -m cuda_stubs --check` names as
//! "no stub" when a binary still needs one. Each entry is the start of the sonames of one
//! library or family (`libcudnn_` covers cuDNN's sub-libraries `libcudnn_ops.so.9` …, which
//! the stub of `libcudnn.so.9` does not stand for at run time: a binary that needs one needs
//! NVIDIA's file). The libraries with a stub are the specs of
//! [`crate::libraries::ALL`], whose sonames codegen lists beside these.

/// Soname stems of NVIDIA libraries without a stub (CUDA 11.8 to 13.x, and the framework
/// libraries shipped as NVIDIA wheels). Asked only after the stubbed sonames (a spec's
/// `libcutensor.so.2`, `libcupti.so.13`, `libnppc.so.12` have their stub): cuDNN's
/// sub-libraries, cuTENSOR's `libcutensorMg` / `libcutensorMp`, CUPTI and NPP sonames no spec
/// lists (older majors'), cuFile's RDMA plugin (libcufile loads it itself;
/// no header declares its API), NVRTC's builtins, and the libraries of NVIDIA's wheels that have
/// no stub yet (`docs/src/wheel-libraries.md` says why each): NVSHMEM's host library,
/// nvCOMP 4.x (`libnvcomp.so.4`: another ABI than the stub's
/// 5.x and 6.x) and its CPU library, NVTX 3's interop library, CUPTI's PC-sampling utility,
/// MathDx.
pub const UNSTUBBED_SONAME_STEMS: &[&str] = &[
    "libcudnn_",
    "libcutensor",
    "libcupti.so",
    "libnpp",
    "libcufile_rdma.so",
    "libnvrtc-builtins.so",
    "libnvshmem_host.so",
    "libnvcomp.so.4",
    "libnvcomp_cpu.so",
    "libnvtx3interop.so",
    "libpcsamplingutil.so",
    "libmathdx.so",
];
