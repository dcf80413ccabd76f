//! The occupancy calculator, as the driver answers `cuOccupancyMaxActiveBlocksPerMultiprocessor`
//! and the runtime `cudaOccupancyMaxActiveBlocksPerMultiprocessor` (whose header templates,
//! `cudaOccupancyMaxPotentialBlockSize` and the rest, search block sizes over it): NVIDIA's own
//! model of the board, `cuda_occupancy.h` of CUDA 13.5 (`cudaOccMaxActiveBlocksPerMultiprocessor`
//! and `cudaOccMaxPotentialOccupancyBlockSize`), over the profile's device attributes and the
//! kernel's resources (`kernel_attributes.rs`). Blocks per SM are the least of the limits of
//! warps, blocks, registers (allocated per warp in units of 256, per sub-partition), shared memory
//! (allocated per block in units of 128 from sm_80, with the 1 KiB the driver reserves, within the
//! carveout the preference chooses) and, from sm_90, barriers.
//!
//! Every number is checked on the lent GPU against the board's answers for the same kernels
//! (`tests/gpu/occupancy.sh`).

use crate::code::kernel_attributes::{Attributes, Settings};
use crate::device::profile::DeviceProfile;

/// The device's numbers the calculator reads (`cudaOccDeviceProp`).
#[derive(Debug, Clone, Copy)]
pub struct Device {
    pub major: i64,
    pub minor: i64,
    pub sms: i64,
    pub max_threads_per_sm: i64,
    pub max_threads_per_block: i64,
    pub warp: i64,
    pub regs_per_block: i64,
    pub regs_per_sm: i64,
    pub shared_per_block: i64,
    pub shared_per_block_optin: i64,
    pub shared_per_sm: i64,
    pub reserved_shared: i64,
}

impl Device {
    /// The numbers of device `p`.
    pub fn of(p: &DeviceProfile) -> Device {
        let n = |name: &str| i64::from(p.named(name));
        Device {
            major: n("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"),
            minor: n("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"),
            sms: n("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"),
            max_threads_per_sm: n("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR"),
            max_threads_per_block: n("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK"),
            warp: n("CU_DEVICE_ATTRIBUTE_WARP_SIZE").max(1),
            regs_per_block: n("CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK"),
            regs_per_sm: n("CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR"),
            shared_per_block: n("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK"),
            shared_per_block_optin: n("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
            shared_per_sm: n("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR"),
            reserved_shared: n("CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK"),
        }
    }
}

/// Why the calculator gives no answer: the header's `CUDA_OCC_ERROR_UNKNOWN_DEVICE` (an
/// architecture it does not know) or `_INVALID_INPUT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    UnknownDevice,
    InvalidInput,
}

fn round_up(x: i64, y: i64) -> i64 {
    if y <= 0 {
        return x;
    }
    x.div_euclid(y)
        .wrapping_add(i64::from(x.rem_euclid(y) != 0))
        * y
}

const KIB: i64 = 1024;

/// `cudaOccAlignUpShmemSizeVoltaPlus`: the carveout, in bytes, that holds `size`.
fn align_carveout(d: &Device, size: i64) -> Result<i64, Refused> {
    let steps: &[i64] = match (d.major, d.minor) {
        (7, 5) => &[32, 64],
        (7, _) => &[0, 8, 16, 32, 64, 96],
        (8, 0 | 7) => &[0, 8, 16, 32, 64, 100, 132, 164],
        (8, _) | (12, 0 | 1) => &[0, 8, 16, 32, 64, 100],
        (9, _) | (10 | 11, 0 | 1 | 3) => &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
        (10 | 11, 7) => &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228, 328],
        _ => return Err(Refused::UnknownDevice),
    };
    steps
        .iter()
        .map(|s| s * KIB)
        .find(|&s| size <= s)
        .ok_or(Refused::InvalidInput)
}

/// `cudaOccMaxBlocksPerMultiprocessor`.
fn max_blocks_per_sm(d: &Device) -> Result<i64, Refused> {
    Ok(match (d.major, d.minor) {
        (7, 5) => 16,
        (7, _) | (8, 0) | (9, _) => 32,
        (8, 9) | (10, 1) | (11, 0) | (12, _) => 24,
        (8, _) | (10, 7) => 16,
        (10 | 11, _) => 32,
        _ => return Err(Refused::UnknownDevice),
    })
}

/// The function's threads-per-block limit (`CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`): the
/// device's, `__launch_bounds__`', and the most warps whose registers fit a block (allocated
/// per warp in units of 256, a block's warps rounded up to the 4 sub-partitions, as the
/// hardware checks a launch).
pub fn max_threads_per_block(d: &Device, a: &Attributes) -> i64 {
    let mut limit = d.max_threads_per_block;
    if a.max_threads > 0 {
        limit = limit.min(i64::from(a.max_threads));
    }
    let per_warp = round_up(i64::from(a.registers) * d.warp, 256);
    if per_warp > 0 {
        let warps = d.regs_per_block / per_warp / 4 * 4;
        limit = limit.min(warps * d.warp);
    }
    limit.max(0)
}

/// The function's dynamic shared memory limit (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`):
/// as set, else the device's default per-block limit less its static shared memory.
pub fn max_dynamic_shared(d: &Device, a: &Attributes, s: &Settings) -> i64 {
    s.max_dynamic_shared
        .map_or_else(|| (d.shared_per_block - a.shared as i64).max(0), i64::from)
}

/// `cudaOccMaxActiveBlocksPerMultiprocessor`: blocks of `block` threads with `dynamic` bytes of
/// dynamic shared memory that one SM runs at once.
pub fn max_active_blocks(
    d: &Device,
    a: &Attributes,
    s: &Settings,
    block: i64,
    dynamic: i64,
) -> Result<i64, Refused> {
    if block <= 0 || dynamic < 0 {
        return Err(Refused::InvalidInput);
    }
    let blocks_limit = max_blocks_per_sm(d)?;
    let warps = (block + d.warp - 1) / d.warp;
    // Registers.
    let per_warp = round_up(i64::from(a.registers) * d.warp, 256);
    let regs = if d.regs_per_block < per_warp * round_up(warps, 4)
        || d.regs_per_block < per_warp * warps
        || a.registers > 256
    {
        0
    } else if per_warp > 0 {
        (d.regs_per_sm / 4 / per_warp) * 4 / warps
    } else {
        i64::MAX
    };
    // Warps.
    let warps_limit = if block > d.max_threads_per_block {
        0
    } else {
        d.max_threads_per_sm / d.warp / warps
    };
    // Shared memory.
    let granularity = if d.major >= 8 { 128 } else { 256 };
    // `cudaOccSMemPreferenceVoltaPlus`: the carveout asked, else the cache preference's.
    let preference = match (s.carveout, s.cache) {
        (-1, 1) => 100,
        (-1, 2) => 0,
        (-1, 3) => 50,
        (c, _) => c,
    };
    if !(-1..=100).contains(&preference) {
        return Err(Refused::InvalidInput);
    }
    let preferred = align_carveout(
        d,
        if preference == -1 {
            d.shared_per_sm
        } else {
            i64::from(preference) * d.shared_per_sm / 100
        },
    )?;
    let fixed = a.shared as i64 + d.reserved_shared;
    let allocated = round_up(fixed + dynamic, granularity);
    let max_dynamic = max_dynamic_shared(d, a, s);
    let optin = s.max_dynamic_shared.is_some();
    let per_block_limit = if optin && fixed + max_dynamic > d.shared_per_block {
        d.shared_per_block_optin
    } else {
        d.shared_per_block
    } + if d.major >= 8 { d.reserved_shared } else { 0 };
    let shared = if (optin && dynamic > max_dynamic) || allocated > per_block_limit {
        0
    } else {
        let per_sm = if preferred >= allocated {
            preferred
        } else {
            align_carveout(d, allocated)?
        };
        if allocated > 0 {
            per_sm / allocated
        } else {
            i64::MAX
        }
    };
    let mut limit = regs.min(shared).min(warps_limit).min(blocks_limit);
    // Barriers, from sm_90: two per block slot (one on sm_10x but 10.0).
    if d.major >= 9 && a.barriers > 0 {
        let available = match (d.major, d.minor) {
            (9, _) | (10, 0) => blocks_limit * 2,
            (11, m) if m != 0 => blocks_limit * 2,
            _ => blocks_limit,
        };
        limit = limit.min(available / i64::from(a.barriers));
    }
    Ok(limit)
}

/// `cudaOccMaxPotentialOccupancyBlockSize`: the block size (a multiple of the warp, or the
/// limit) giving the most threads per SM, the first of equals from the largest, and the grid
/// that fills the device with it: `(min_grid, block)`. `dynamic` gives each block size's dynamic
/// shared memory; `limit`, when positive, bounds the block.
pub fn max_potential_block_size(
    d: &Device,
    a: &Attributes,
    s: &Settings,
    limit: i64,
    mut dynamic: impl FnMut(i64) -> i64,
) -> Result<(i64, i64), Refused> {
    let mut block_limit = d.max_threads_per_block.min(max_threads_per_block(d, a));
    if limit > 0 {
        block_limit = block_limit.min(limit);
    }
    let (mut best_block, mut best_blocks, mut best) = (0, 0, 0);
    let mut aligned = round_up(block_limit, d.warp);
    while aligned > 0 {
        let block = block_limit.min(aligned);
        let blocks = max_active_blocks(d, a, s, block, dynamic(block))?;
        if block * blocks > best {
            (best_block, best_blocks, best) = (block, blocks, block * blocks);
        }
        if best == d.max_threads_per_sm {
            break;
        }
        aligned -= d.warp;
    }
    Ok((best_blocks * d.sms, best_block))
}

/// `cuOccupancyAvailableDynamicSMemPerBlock`: the most dynamic shared memory a block of `block`
/// threads may have for `blocks` of them to run on one SM at once (0 when they never do).
pub fn available_dynamic_shared(
    d: &Device,
    a: &Attributes,
    s: &Settings,
    blocks: i64,
    block: i64,
) -> Result<i64, Refused> {
    let granularity = if d.major >= 8 { 128 } else { 256 };
    let mut dynamic = max_dynamic_shared(d, a, s);
    // The allocation is in units: each candidate is one unit less, from the function's limit.
    loop {
        if max_active_blocks(d, a, s, block, dynamic)? >= blocks {
            return Ok(dynamic);
        }
        if dynamic == 0 {
            return Ok(0);
        }
        let fixed = a.shared as i64 + d.reserved_shared;
        // The next smaller size allocated in one unit fewer.
        let allocated = round_up(fixed + dynamic, granularity) - granularity;
        dynamic = (allocated - fixed).clamp(0, dynamic - 1);
    }
}

/// Applies `value` to the settable attribute `attribute` (`CUfunction_attribute`, the
/// runtime's `cudaFuncAttribute` alike) of a function with `a` on device `d`: `false` for an
/// attribute that cannot be set or a value out of its range (the driver's
/// `CUDA_ERROR_INVALID_VALUE`).
pub fn apply(d: &Device, a: &Attributes, s: &mut Settings, attribute: u32, value: i32) -> bool {
    match attribute {
        // MAX_DYNAMIC_SHARED_SIZE_BYTES: up to the opt-in limit less the static.
        8 => match u32::try_from(value) {
            Ok(v) if i64::from(v) + a.shared as i64 <= d.shared_per_block_optin => {
                s.max_dynamic_shared = Some(v);
                true
            }
            _ => false,
        },
        // PREFERRED_SHARED_MEMORY_CARVEOUT: a percent, or -1 for the default.
        9 if (-1..=100).contains(&value) => {
            s.carveout = value;
            true
        }
        // REQUIRED_CLUSTER_WIDTH/HEIGHT/DEPTH.
        11..=13 if value >= 0 => {
            if let Some(c) = s.cluster.get_mut(attribute as usize - 11) {
                *c = value;
            }
            true
        }
        14 if (0..=1).contains(&value) => {
            s.non_portable_cluster = value;
            true
        }
        15 if (0..=2).contains(&value) => {
            s.cluster_policy = value;
            true
        }
        _ => false,
    }
}

/// The value of attribute `attribute` (`CUfunction_attribute`) of a function with `a` and `s` on
/// device `d`; `None` for an attribute the mock does not know.
pub fn value(d: &Device, a: &Attributes, s: &Settings, attribute: u32) -> Option<i64> {
    Some(match attribute {
        0 => max_threads_per_block(d, a),
        1 => a.shared as i64,
        2 => a.constant as i64,
        3 => a.local as i64,
        4 => i64::from(a.registers),
        5 => i64::from(a.ptx_version),
        6 => i64::from(a.binary_version),
        7 => 0,
        8 => max_dynamic_shared(d, a, s),
        9 => i64::from(s.carveout),
        10 => 0,
        11..=13 => i64::from(*s.cluster.get(attribute as usize - 11)?),
        14 => i64::from(s.non_portable_cluster),
        15 => i64::from(s.cluster_policy),
        // DEVICE_NODE_UPDATE_SUPPORTED, SHARED_MEMORY_MODE.
        16 | 17 => 0,
        _ => return None,
    })
}
