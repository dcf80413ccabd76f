//! The runtime's kernels' attributes and the occupancy they allow (`cudaFuncGetAttributes`,
//! `cudaFuncSetAttribute`, `cudaFuncSetCacheConfig`, `cudaFuncSetSharedMemConfig`,
//! `cudaOccupancy*`, cuda_runtime_api.h): a kernel is named by its host function, registered by
//! nvcc's code (`code/fatbins.rs`); its resources are read off the CUBIN its fat binary holds
//! for the device (`code/kernel_attributes.rs`), and NVIDIA's occupancy calculator runs over
//! them (`code/occupancy.rs`). `cudaOccupancyMaxPotentialBlockSize` and the other templates of
//! cuda_runtime.h are the program's own code over these.

// NVIDIA's parameter names (cuda_runtime_api.h).
#![allow(non_snake_case)]

use crate::code::fatbins;
use crate::code::image::{NO_BINARY_FOR_GPU, fatbin_runs};
use crate::code::kernel_attributes::{self, Attributes, Settings};
use crate::code::occupancy::{self, Device, Refused};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_int, c_uint, c_void};
use stub_loader::device_code::FatbinEntry;

/// The kernel whose host function is `func`, on the current device: the device, the kernel's
/// resources and settings; or the runtime's code (`cudaErrorInvalidResourceHandle` for no
/// registered kernel, as an H100 answered `cudaFuncGetAttributes(&a, main)` (400, not 98:
/// tests/gpu/occupancy.sh); `cudaErrorNoKernelImageForDevice` for none the device runs).
pub(super) fn kernel(
    m: &crate::device::model::Model,
    func: *const c_void,
) -> Result<(Device, Attributes, Settings), cudaError_t> {
    let d = current(m)?;
    let p = m.device(d as i64).ok_or(cudaErrorInvalidDevice)?;
    let device = Device::of(p);
    let (entries, name, handle) =
        fatbins::kernel_of(func as usize).ok_or(cudaErrorInvalidResourceHandle)?;
    let sm = (device.major * 10 + device.minor) as u32;
    if let Err(refusal) = fatbin_runs(&entries, sm, m.profile.cuda_version) {
        return Err(if refusal == NO_BINARY_FOR_GPU {
            cudaErrorNoKernelImageForDevice
        } else {
            cudaErrorUnsupportedPtxVersion
        });
    }
    // The CUBIN the driver would choose: the newest of the device's major no newer than it.
    let cubin = entries
        .iter()
        .filter_map(|e| match *e {
            FatbinEntry::Cubin { arch } if arch / 10 == sm / 10 && arch % 10 <= sm % 10 => {
                Some(arch)
            }
            _ => None,
        })
        .max();
    let read = cubin
        .and_then(|arch| fatbins::cubin_of(handle, arch))
        .and_then(|c| kernel_attributes::from_cubin(c, &name));
    let a = read.unwrap_or_else(|| {
        // JIT-compiled PTX: its virtual architecture, the rest as the mock assumes it.
        let ptx = entries
            .iter()
            .filter_map(|e| match *e {
                FatbinEntry::Ptx { arch, .. } if arch <= sm => Some(arch),
                _ => None,
            })
            .max();
        Attributes {
            ptx_version: ptx.unwrap_or(sm),
            ..kernel_attributes::unknown(sm)
        }
    });
    Ok((device, a, kernel_attributes::settings(true, func as usize)))
}

fn refused(r: Refused) -> cudaError_t {
    match r {
        Refused::UnknownDevice => cudaErrorNotSupported,
        Refused::InvalidInput => cudaErrorInvalidValue,
    }
}

macro_rules! try_or {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(code) => return code,
        }
    };
}

/// `cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncGetAttributes(
    attr: *mut cudaFuncAttributes,
    func: *const c_void,
) -> cudaError_t {
    call(|m| {
        if attr.is_null() {
            return cudaErrorInvalidValue;
        }
        let (d, a, s) = try_or!(kernel(m, func));
        let v = |n: u32| {
            occupancy::value(&d, &a, &s, n)
                .and_then(|v| c_int::try_from(v).ok())
                .unwrap_or(0)
        };
        let out = cudaFuncAttributes {
            sharedSizeBytes: a.shared as usize,
            constSizeBytes: a.constant as usize,
            localSizeBytes: a.local as usize,
            maxThreadsPerBlock: v(0),
            numRegs: v(4),
            ptxVersion: v(5),
            binaryVersion: v(6),
            cacheModeCA: v(7),
            maxDynamicSharedSizeBytes: v(8),
            preferredShmemCarveout: v(9),
            clusterDimMustBeSet: v(10),
            requiredClusterWidth: v(11),
            requiredClusterHeight: v(12),
            requiredClusterDepth: v(13),
            clusterSchedulingPolicyPreference: v(15),
            nonPortableClusterSizeAllowed: v(14),
            ..cudaFuncAttributes::default()
        };
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *attr = out };
        cudaSuccess
    })
}

/// `cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int
/// value)`: the settable attributes (`occupancy::apply`), `cudaErrorInvalidValue`
/// otherwise.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncSetAttribute(
    func: *const c_void,
    attr: cudaFuncAttribute,
    value: c_int,
) -> cudaError_t {
    call(|m| {
        let (d, a, mut s) = try_or!(kernel(m, func));
        if !occupancy::apply(&d, &a, &mut s, attr, value) {
            return cudaErrorInvalidValue;
        }
        kernel_attributes::set(true, func as usize, |old| *old = s);
        cudaSuccess
    })
}

/// `cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)`: a
/// preference the occupancy calculator reads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncSetCacheConfig(
    func: *const c_void,
    cacheConfig: cudaFuncCache,
) -> cudaError_t {
    call(|m| {
        try_or!(kernel(m, func));
        if cacheConfig > 3 {
            return cudaErrorInvalidValue;
        }
        kernel_attributes::set(true, func as usize, |s| s.cache = cacheConfig);
        cudaSuccess
    })
}

/// `cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig
/// config)`: accepted and without effect, as on every device since sm_50 (bank size is fixed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncSetSharedMemConfig(
    func: *const c_void,
    config: cudaSharedMemConfig,
) -> cudaError_t {
    call(|m| {
        try_or!(kernel(m, func));
        if config > 2 {
            return cudaErrorInvalidValue;
        }
        cudaSuccess
    })
}

/// `cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const
/// void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        let (d, a, s) = try_or!(kernel(m, func));
        if numBlocks.is_null() || flags > 1 {
            return cudaErrorInvalidValue;
        }
        let dynamic = i64::try_from(dynamicSMemSize).unwrap_or(i64::MAX);
        let blocks = try_or!(
            occupancy::max_active_blocks(&d, &a, &s, blockSize.into(), dynamic).map_err(refused)
        );
        // SAFETY: non-NULL, the caller's int.
        unsafe { *numBlocks = c_int::try_from(blocks).unwrap_or(c_int::MAX) };
        cudaSuccess
    })
}

/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor`: the above without flags.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe {
        cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            numBlocks,
            func,
            blockSize,
            dynamicSMemSize,
            0,
        )
    }
}

/// `cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void
/// *func, int numBlocks, int blockSize)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    dynamicSmemSize: *mut usize,
    func: *const c_void,
    numBlocks: c_int,
    blockSize: c_int,
) -> cudaError_t {
    call(|m| {
        let (d, a, s) = try_or!(kernel(m, func));
        if dynamicSmemSize.is_null() || numBlocks <= 0 {
            return cudaErrorInvalidValue;
        }
        let bytes = try_or!(
            occupancy::available_dynamic_shared(&d, &a, &s, numBlocks.into(), blockSize.into())
                .map_err(refused)
        );
        // SAFETY: non-NULL, the caller's size.
        unsafe { *dynamicSmemSize = usize::try_from(bytes).unwrap_or(0) };
        cudaSuccess
    })
}
