//! Devices' default memory pools (`cudaDeviceGetDefaultMemPool` / `cuDeviceGetDefaultMemPool`,
//! `cudaMemPoolSetAttribute` …, CUDA 13 ABI): one pool a device, which the stream-ordered
//! allocations (`cudaMallocAsync`, `cuMemAllocAsync`) draw from, its attributes as set and the
//! bytes allocated from it. The mock's pool keeps nothing back: an allocation is made and freed
//! in the device's memory when issued (streams are always idle), so its reserved bytes are its
//! used bytes and the release threshold changes no result. Other devices' access to a pool is
//! kept and read back ([`set_access`]); it changes no result either. User-made pools
//! (`cudaMemPoolCreate`) are not modelled.

use alloc::collections::BTreeMap;
use stub_loader::sync::Mutex;

/// Most devices a profile may have a pool for (the handles' storage).
const MAX_DEVICES: usize = 64;

/// One byte per device: a pool's handle is its device's byte's address, unique in the process
/// and never a stream's, event's or graph's (those are heap bytes: `handles::fresh`).
static TOKENS: [u8; MAX_DEVICES] = [0; MAX_DEVICES];

/// A pool's attributes (`cudaMemPoolAttr`, `CUmemPool_attribute`: the same numbers).
#[derive(Debug, Clone, Copy)]
pub struct Pool {
    /// `…ReuseFollowEventDependencies` (1), `…ReuseAllowOpportunistic` (2),
    /// `…ReuseAllowInternalDependencies` (3): each 1 by default (CUDA Runtime API, "Stream
    /// Ordered Memory Allocator").
    pub reuse: [i32; 3],
    /// `…AttrReleaseThreshold` (4), bytes: 0 by default.
    pub release_threshold: u64,
    /// Bytes allocated from the pool and not freed: `…UsedMemCurrent` (7) and, the mock
    /// reserving nothing more, `…ReservedMemCurrent` (5).
    pub used: u64,
    /// The most `used` has been since the pool's creation or the last reset of `…UsedMemHigh`
    /// (8).
    pub used_high: u64,
    /// The same for `…ReservedMemHigh` (6), reset on its own.
    pub reserved_high: u64,
    /// The other devices given read-write access (`cudaMemPoolSetAccess`), one bit each.
    pub peers: u64,
}

impl Pool {
    const DEFAULT: Pool = Pool {
        reuse: [1; 3],
        release_threshold: 0,
        used: 0,
        used_high: 0,
        reserved_high: 0,
        peers: 0,
    };
}

/// Pools by device, made on first use.
static POOLS: Mutex<BTreeMap<usize, Pool>> = Mutex::new(BTreeMap::new());

/// The handle of device `d`'s default pool (`d` below the profile's count, checked by the
/// caller); `None` beyond [`MAX_DEVICES`].
pub fn handle(d: usize) -> Option<usize> {
    TOKENS.get(d).map(|t| t as *const u8 as usize)
}

/// The device whose default pool `handle` is.
pub fn device_of(handle: usize) -> Option<usize> {
    let d = handle.wrapping_sub(TOKENS.as_ptr() as usize);
    (d < MAX_DEVICES).then_some(d)
}

/// Device `d`'s pool's attributes.
pub fn get(d: usize) -> Pool {
    POOLS.lock().get(&d).copied().unwrap_or(Pool::DEFAULT)
}

/// Changes device `d`'s pool's attributes with `f`.
pub fn update<T>(d: usize, f: impl FnOnce(&mut Pool) -> T) -> T {
    f(POOLS.lock().entry(d).or_insert(Pool::DEFAULT))
}

/// Allocations drawn from the pools: address → (device, bytes).
static DRAWN: Mutex<BTreeMap<usize, (usize, usize)>> = Mutex::new(BTreeMap::new());

/// `size` bytes at `ptr` allocated from device `d`'s pool.
pub fn allocated(d: usize, ptr: usize, size: usize) {
    DRAWN.lock().insert(ptr, (d, size));
    update(d, |p| {
        p.used = p.used.saturating_add(size as u64);
        p.used_high = p.used_high.max(p.used);
        p.reserved_high = p.reserved_high.max(p.used);
    });
}

/// The allocation at `ptr` given back to its pool, if it came from one (memory from
/// `cudaMalloc` freed by `cudaFreeAsync` changes no pool).
pub fn freed(ptr: usize) {
    let Some((d, size)) = DRAWN.lock().remove(&ptr) else {
        return;
    };
    update(d, |p| p.used = p.used.saturating_sub(size as u64));
}

/// An attribute's value: an int or a `cuuint64_t`, as the attribute says.
#[derive(Debug, Clone, Copy)]
pub enum Value {
    /// An `int`.
    Int(i32),
    /// A `cuuint64_t`.
    Long(u64),
}

/// Device `d`'s pool's attribute `attr` (`cudaMemPoolAttr` = `CUmemPool_attribute`): an int
/// for the reuse policies (1-3), the allocation type (9: pinned, 1), the export handle types
/// (10: none, 0), the location's id (11: the device) and type (12: a device, 1); a
/// `cuuint64_t` for the release threshold (4), the reserved and used bytes and their high
/// watermarks (5-8), the maximum size (13: 0, none). `None` for another, and for 9-13 when the
/// profile's driver is CUDA 13.0 or older (`cuda_version`): they came after 13.0 (12.9's and
/// 13.0's headers end at 8), and a 13.0 driver answers `CUDA_ERROR_INVALID_VALUE` for them, as
/// the H100 on driver 580.159.04 did to 13.5's `cudaMemPoolAttrLocationType` and `…LocationId`
/// (tests/gpu/RESULTS.md, 2026-12-07).
pub fn attribute(d: usize, attr: u32, cuda_version: i32) -> Option<Value> {
    if attr >= 9 && cuda_version <= 13000 {
        return None;
    }
    let p = get(d);
    Some(match attr {
        1..=3 => Value::Int(p.reuse.get(attr as usize - 1).copied().unwrap_or(1)),
        4 => Value::Long(p.release_threshold),
        5 | 7 => Value::Long(p.used),
        6 => Value::Long(p.reserved_high),
        8 => Value::Long(p.used_high),
        9 | 12 => Value::Int(1),
        10 => Value::Int(0),
        11 => Value::Int(d as i32),
        13 => Value::Long(0),
        _ => return None,
    })
}

/// Sets device `d`'s pool's attribute `attr` from the caller's value, read by `int` or `long`
/// as the attribute's type says: the reuse policies (any nonzero taken as 1), the release
/// threshold, and the high watermarks (6, 8), which take only 0, a reset to the current
/// bytes. `false` for another attribute or value (read-only).
pub fn set_attribute(d: usize, attr: u32, int: impl Fn() -> i32, long: impl Fn() -> u64) -> bool {
    update(d, |p| match attr {
        1..=3 => {
            if let Some(r) = p.reuse.get_mut(attr as usize - 1) {
                *r = (int() != 0) as i32;
            }
            true
        }
        4 => {
            p.release_threshold = long();
            true
        }
        6 if long() == 0 => {
            p.reserved_high = p.used;
            true
        }
        8 if long() == 0 => {
            p.used_high = p.used;
            true
        }
        _ => false,
    })
}

/// Each device's high watermark of graph memory (`graph::graph_memory`), since the process
/// began or its last reset.
static GRAPH_HIGH: Mutex<BTreeMap<usize, u64>> = Mutex::new(BTreeMap::new());

/// Device `d`'s graph memory is `current` bytes now: its high watermark raised to it if
/// below, and returned.
pub fn graph_high(d: usize, current: u64) -> u64 {
    let mut high = GRAPH_HIGH.lock();
    let h = high.entry(d).or_insert(0);
    *h = (*h).max(current);
    *h
}

/// Device `d`'s graph memory high watermark reset to `current` (`cudaDeviceSetGraphMemAttribute`
/// of a high watermark to 0).
pub fn reset_graph_high(d: usize, current: u64) {
    GRAPH_HIGH.lock().insert(d, current);
}

/// `cudaMemAccessFlagsProtNone`, `CU_MEM_ACCESS_FLAGS_PROT_NONE`.
pub const ACCESS_NONE: u32 = 0;
/// `cudaMemAccessFlagsProtRead`, `CU_MEM_ACCESS_FLAGS_PROT_READ`.
pub const ACCESS_READ: u32 = 1;
/// `cudaMemAccessFlagsProtReadWrite`, `CU_MEM_ACCESS_FLAGS_PROT_READWRITE`.
pub const ACCESS_READ_WRITE: u32 = 3;

/// What `cudaMemPoolSetAccess` / `cuMemPoolSetAccess` refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessRefused {
    /// A location that is no device of the profile, flags no enumerator names, or the pool's
    /// own device given less than read-write: invalid value.
    Invalid,
    /// Read-only access: not modelled (not supported, with a debug line).
    ReadOnly,
}

/// Sets access to device `d`'s pool for each `(location type, id, flags)` of `descs`, on a
/// profile of `devices` devices: a device location (`…LocationTypeDevice`, 1) whose device
/// gets read-write access or none; its own device keeps read-write. All are checked before any
/// is set. The mock's memory is every device's, so access changes no kernel's or copy's result:
/// it is kept to be read back ([`access`]).
pub fn set_access(
    d: usize,
    devices: usize,
    descs: &[(u32, i32, u32)],
) -> Result<(), AccessRefused> {
    for &(kind, id, flags) in descs {
        let device = usize::try_from(id)
            .ok()
            .filter(|&i| kind == 1 && i < devices.min(MAX_DEVICES));
        match (device, flags) {
            (None, _) => return Err(AccessRefused::Invalid),
            (Some(_), ACCESS_READ) => return Err(AccessRefused::ReadOnly),
            (Some(i), ACCESS_NONE) if i == d => return Err(AccessRefused::Invalid),
            (Some(_), ACCESS_NONE | ACCESS_READ_WRITE) => {}
            _ => return Err(AccessRefused::Invalid),
        }
    }
    update(d, |p| {
        for &(_, id, flags) in descs {
            let bit = 1u64 << id;
            if flags == ACCESS_READ_WRITE {
                p.peers |= bit;
            } else {
                p.peers &= !bit;
            }
        }
    });
    Ok(())
}

/// The access device `d`'s pool gives a location (`cudaMemPoolGetAccess`): read-write for its
/// own device and those given it, none for the other devices; `None` for a location that is no
/// device of the profile's `devices`.
pub fn access(d: usize, devices: usize, (kind, id): (u32, i32)) -> Option<u32> {
    let i = usize::try_from(id)
        .ok()
        .filter(|&i| kind == 1 && i < devices.min(MAX_DEVICES))?;
    let given = i == d || get(d).peers & (1u64 << i) != 0;
    Some(if given {
        ACCESS_READ_WRITE
    } else {
        ACCESS_NONE
    })
}
