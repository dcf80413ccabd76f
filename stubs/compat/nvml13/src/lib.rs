//! `libnvidia-ml.so.1` of the compatibility folder (`lib/cuda-stubs-compat/`, opt-in, on no
//! search path): for programs that load NVML by its soname, as pynvml does
//! (`CDLL("libnvidia-ml.so.1")`), where the driver's is absent — on the mock device
//! (`CUDA_STUBS_MOCK`) or a machine without a GPU. It carries NVIDIA's SONAME, exports what the
//! driver's library exports (the checked-in list of driver 580, with CUDA 13's prototypes: the
//! generated list), and forwards each call to `libstubs_nvml.so`. Never put it where the
//! driver's own `libnvidia-ml.so.1` would be shadowed: `cuda_stubs.compat.enable(("nvml",))`
//! loads it only when no real NVML is in the process.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// The name list codegen writes (`src/generated/`, its `mod.rs` too; never edited by hand).
mod generated;
