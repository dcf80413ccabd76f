//! The driver's functions' attributes and the occupancy they allow (`cuFuncGetAttribute`,
//! `cuFuncSetAttribute`, `cuFuncSetCacheConfig`, `cuFuncGetModule`, `cuOccupancy*`, cuda.h):
//! what the function's code says (`code/kernel_attributes.rs`) on the current context's device,
//! and NVIDIA's occupancy calculator over it (`code/occupancy.rs`).

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::code::kernel_attributes::{self, Attributes, Settings};
use crate::code::occupancy::{self, Device, Refused};
use crate::driver::in_context;
use crate::types::cuda::*;
use core::ffi::{c_int, c_uint};

/// A function of the current context's device: its resources, settings and the device, or the
/// driver's code (`CUDA_ERROR_INVALID_HANDLE` for no live function).
fn function(
    m: &crate::device::model::Model,
    d: usize,
    f: CUfunction,
) -> Result<(Device, Attributes, Settings), CUresult> {
    let p = m.device(d as i64).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
    let device = Device::of(p);
    let (_, attributes) =
        crate::code::module::attributes_of(f as usize).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let sm = (device.major * 10 + device.minor) as u32;
    let a = attributes.unwrap_or_else(|| kernel_attributes::unknown(sm));
    Ok((device, a, kernel_attributes::settings(false, f as usize)))
}

fn refused(r: Refused) -> CUresult {
    match r {
        Refused::UnknownDevice => CUDA_ERROR_NOT_SUPPORTED,
        Refused::InvalidInput => CUDA_ERROR_INVALID_VALUE,
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

/// `CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFuncGetAttribute(
    pi: *mut c_int,
    attrib: CUfunction_attribute,
    hfunc: CUfunction,
) -> CUresult {
    in_context(|m, d| {
        let (device, a, s) = try_or!(function(m, d, hfunc));
        let Some(v) = occupancy::value(&device, &a, &s, attrib) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pi.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's int.
        unsafe { *pi = c_int::try_from(v).unwrap_or(c_int::MAX) };
        CUDA_SUCCESS
    })
}

/// `CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)`:
/// the settable attributes (`occupancy::apply`), `CUDA_ERROR_INVALID_VALUE` otherwise.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFuncSetAttribute(
    hfunc: CUfunction,
    attrib: CUfunction_attribute,
    value: c_int,
) -> CUresult {
    in_context(|m, d| {
        let (device, a, mut s) = try_or!(function(m, d, hfunc));
        if !occupancy::apply(&device, &a, &mut s, attrib, value) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        kernel_attributes::set(false, hfunc as usize, |old| *old = s);
        CUDA_SUCCESS
    })
}

/// `CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)`: a preference the
/// occupancy calculator reads (0 none, 1 shared, 2 L1, 3 equal).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFuncSetCacheConfig(hfunc: CUfunction, config: CUfunc_cache) -> CUresult {
    in_context(|m, d| {
        try_or!(function(m, d, hfunc));
        if config > 3 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        kernel_attributes::set(false, hfunc as usize, |s| s.cache = config);
        CUDA_SUCCESS
    })
}

/// `CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFuncGetModule(hmod: *mut CUmodule, hfunc: CUfunction) -> CUresult {
    in_context(|_, _| {
        if hmod.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match crate::code::module::module_of(hfunc as usize) {
            Some(module) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *hmod = module as CUmodule };
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_HANDLE,
        }
    })
}

/// `CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction
/// func, int blockSize, size_t dynamicSMemSize, unsigned int flags)`: the flags
/// (`CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE`) change nothing from sm_70 on.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    numBlocks: *mut c_int,
    func: CUfunction,
    blockSize: c_int,
    dynamicSMemSize: usize,
    flags: c_uint,
) -> CUresult {
    in_context(|m, d| {
        let (device, a, s) = try_or!(function(m, d, func));
        if numBlocks.is_null() || flags > 1 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let dynamic = i64::try_from(dynamicSMemSize).unwrap_or(i64::MAX);
        let blocks = try_or!(
            occupancy::max_active_blocks(&device, &a, &s, blockSize.into(), dynamic)
                .map_err(refused)
        );
        // SAFETY: non-NULL, the caller's int.
        unsafe { *numBlocks = c_int::try_from(blocks).unwrap_or(c_int::MAX) };
        CUDA_SUCCESS
    })
}

/// `cuOccupancyMaxActiveBlocksPerMultiprocessor`: the above without flags.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(
    numBlocks: *mut c_int,
    func: CUfunction,
    blockSize: c_int,
    dynamicSMemSize: usize,
) -> CUresult {
    // SAFETY: the same contract.
    unsafe {
        cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            numBlocks,
            func,
            blockSize,
            dynamicSMemSize,
            0,
        )
    }
}

/// `CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
/// CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int
/// blockSizeLimit, unsigned int flags)`: the block size of the most threads per SM, and the
/// grid that fills the device with it (`occupancy::max_potential_block_size`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSizeWithFlags(
    minGridSize: *mut c_int,
    blockSize: *mut c_int,
    func: CUfunction,
    blockSizeToDynamicSMemSize: CUoccupancyB2DSize,
    dynamicSMemSize: usize,
    blockSizeLimit: c_int,
    flags: c_uint,
) -> CUresult {
    in_context(|m, d| {
        let (device, a, s) = try_or!(function(m, d, func));
        if minGridSize.is_null() || blockSize.is_null() || flags > 1 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let fixed = i64::try_from(dynamicSMemSize).unwrap_or(i64::MAX);
        let dynamic = |block: i64| match blockSizeToDynamicSMemSize {
            // SAFETY: the caller's function of a block size, by the API's contract.
            Some(f) => i64::try_from(unsafe { f(block as c_int) }).unwrap_or(i64::MAX),
            None => fixed,
        };
        let (grid, block) = try_or!(
            occupancy::max_potential_block_size(&device, &a, &s, blockSizeLimit.into(), dynamic)
                .map_err(refused)
        );
        // SAFETY: non-NULL, the caller's ints.
        unsafe {
            *minGridSize = c_int::try_from(grid).unwrap_or(c_int::MAX);
            *blockSize = c_int::try_from(block).unwrap_or(c_int::MAX);
        }
        CUDA_SUCCESS
    })
}

/// `cuOccupancyMaxPotentialBlockSize`: the above without flags.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSize(
    minGridSize: *mut c_int,
    blockSize: *mut c_int,
    func: CUfunction,
    blockSizeToDynamicSMemSize: CUoccupancyB2DSize,
    dynamicSMemSize: usize,
    blockSizeLimit: c_int,
) -> CUresult {
    // SAFETY: the same contract.
    unsafe {
        cuOccupancyMaxPotentialBlockSizeWithFlags(
            minGridSize,
            blockSize,
            func,
            blockSizeToDynamicSMemSize,
            dynamicSMemSize,
            blockSizeLimit,
            0,
        )
    }
}

/// `CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
/// int numBlocks, int blockSize)`: the most dynamic shared memory per block for `numBlocks`
/// blocks of `blockSize` threads to run on one SM at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuOccupancyAvailableDynamicSMemPerBlock(
    dynamicSmemSize: *mut usize,
    func: CUfunction,
    numBlocks: c_int,
    blockSize: c_int,
) -> CUresult {
    in_context(|m, d| {
        let (device, a, s) = try_or!(function(m, d, func));
        if dynamicSmemSize.is_null() || numBlocks <= 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let bytes = try_or!(
            occupancy::available_dynamic_shared(
                &device,
                &a,
                &s,
                numBlocks.into(),
                blockSize.into()
            )
            .map_err(refused)
        );
        // SAFETY: non-NULL, the caller's size.
        unsafe { *dynamicSmemSize = usize::try_from(bytes).unwrap_or(0) };
        CUDA_SUCCESS
    })
}
