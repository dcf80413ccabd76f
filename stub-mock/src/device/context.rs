//! Contexts: whether the driver is initialized, each device's primary context (the only kind
//! the mock makes) and each thread's current context, which the runtime's current device
//! follows (`cudaSetDevice` makes the device's primary context current, as the real runtime
//! does; `cuCtxSetCurrent` moves the runtime's current device with it).

use crate::device::heap;
use core::sync::atomic::{AtomicBool, Ordering};
use stub_loader::sync::{Mutex, ThreadWord};

/// Whether the driver is initialized: by `cuInit`, or by the runtime's first call (as the real
/// runtime calls `cuInit(0)`).
static INITIALIZED: AtomicBool = AtomicBool::new(false);

/// Marks the driver initialized.
pub fn initialize() {
    INITIALIZED.store(true, Ordering::Release);
}

/// Whether the driver is initialized ([`initialize`]).
pub fn is_initialized() -> bool {
    INITIALIZED.load(Ordering::Acquire)
}

/// The most devices a profile has (`profile.rs`' limit).
const MAX: usize = 64;

/// The primary contexts' identities: `CUcontext` of device `d` is the address of `PRIMARY[d]`.
static PRIMARY: [u8; MAX] = [0; MAX];

/// Each primary context's retain count (`cuDevicePrimaryCtxRetain` / `…Release`).
static RETAINS: Mutex<[u32; MAX]> = Mutex::new([0; MAX]);

/// The thread's current context: its device + 1, or 0 for none.
static CURRENT: ThreadWord = ThreadWord::new();

/// The primary context of device `d` as a handle.
pub fn primary(d: usize) -> usize {
    PRIMARY.as_ptr() as usize + d.min(MAX - 1)
}

/// The device of the context handle `ctx`, if it is one of the primary contexts.
pub fn device_of(ctx: usize) -> Option<usize> {
    let base = PRIMARY.as_ptr() as usize;
    (base..base + MAX).contains(&ctx).then(|| ctx - base)
}

/// The thread's current context's device.
pub fn current() -> Option<usize> {
    CURRENT.get().checked_sub(1)
}

/// Makes device `d`'s primary context current (`None`: no context).
pub fn set_current(d: Option<usize>) {
    CURRENT.set(d.map_or(0, |d| d + 1));
}

/// Retains device `d`'s primary context; its count after.
pub fn retain(d: usize) -> u32 {
    let mut r = RETAINS.lock();
    match r.get_mut(d) {
        Some(n) => {
            *n = n.saturating_add(1);
            *n
        }
        None => 0,
    }
}

/// Releases device `d`'s primary context; `false` if it was not retained.
pub fn release(d: usize) -> bool {
    let mut r = RETAINS.lock();
    match r.get_mut(d) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// Whether device `d`'s primary context is retained (active).
pub fn is_active(d: usize) -> bool {
    let r = RETAINS.lock();
    r.get(d).is_some_and(|&n| n > 0)
}

/// Peer access each device's context has enabled: `PEERS[d]`'s bit `p` for device `p`.
static PEERS: Mutex<[u64; MAX]> = Mutex::new([0; MAX]);

/// Enables (`enable`) or disables device `peer`'s access from device `d`'s context: `false`
/// when it already was (enabled twice, or disabled when not enabled).
pub fn set_peer(d: usize, peer: usize, enable: bool) -> bool {
    let mut peers = PEERS.lock();
    let (Some(mask), true) = (peers.get_mut(d), peer < MAX) else {
        return false;
    };
    let bit = 1u64 << peer;
    if (*mask & bit != 0) == enable {
        return false;
    }
    *mask ^= bit;
    true
}

/// The limits both APIs set and read by number (`cudaLimit` = `CUlimit`: stack size, printf
/// FIFO, malloc heap, device runtime sync depth and pending launches, L2 fetch granularity,
/// persisting L2 size), their defaults on an H200 with CUDA 13 (`tests/c/device_state.c`):
/// `None` for the device runtime's sync depth, which it no longer has.
const LIMIT_DEFAULTS: [Option<usize>; 7] = [
    Some(1024),
    Some(8_650_752),
    Some(8 << 20),
    None,
    Some(2048),
    Some(64),
    Some(0),
];

/// Why a limit cannot be read or set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitError {
    /// A number the APIs have but this device does not (`cudaErrorUnsupportedLimit`, 215).
    Unsupported,
    /// A number the APIs do not have (`cudaErrorInvalidValue`, 1).
    Unknown,
    /// The malloc heap's size once a kernel has made the heap (`cudaErrorInvalidValue`, 1).
    Fixed,
}

/// Each context's limits: `None` until set, then the value set.
static LIMITS: Mutex<[[Option<usize>; 7]; MAX]> = Mutex::new([[None; 7]; MAX]);

/// The index of limit `which`, if the device has it.
fn limit_index(which: u32) -> Result<usize, LimitError> {
    match usize::try_from(which).ok() {
        Some(i) if i < LIMIT_DEFAULTS.len() && LIMIT_DEFAULTS[i].is_some() => Ok(i),
        // The sync depth, and the runtime's per-block memory size (10): not this device's.
        Some(3 | 10) => Err(LimitError::Unsupported),
        _ => Err(LimitError::Unknown),
    }
}

/// Device `d`'s context's limit `which`.
pub fn limit(d: usize, which: u32) -> Result<usize, LimitError> {
    let i = limit_index(which)?;
    let limits = LIMITS.lock();
    let set = limits.get(d).and_then(|l| l[i]);
    set.or(LIMIT_DEFAULTS[i]).ok_or(LimitError::Unsupported)
}

/// `cudaLimitMallocHeapSize` / `CU_LIMIT_MALLOC_HEAP_SIZE`: the kernels' `malloc` heap's bytes.
pub const MALLOC_HEAP_SIZE: u32 = 2;

/// Sets device `d`'s context's limit `which` to `value`. The malloc heap's size is fixed once
/// a kernel has made the heap ([`heap::exists`]): [`LimitError::Fixed`] then.
pub fn set_limit(d: usize, which: u32, value: usize) -> Result<(), LimitError> {
    let i = limit_index(which)?;
    if which == MALLOC_HEAP_SIZE && heap::exists(d) {
        return Err(LimitError::Fixed);
    }
    match LIMITS.lock().get_mut(d) {
        Some(limits) => {
            limits[i] = Some(value);
            Ok(())
        }
        None => Err(LimitError::Unknown),
    }
}

/// `cudaDeviceMapHost`: set in every device's flags (the runtime maps page-locked memory
/// always, with unified addressing).
pub const MAP_HOST: u32 = 8;

/// The flags `cudaSetDeviceFlags` takes: a scheduling choice (auto 0, spin 1, yield 2,
/// blocking sync 4), `cudaDeviceMapHost`, `cudaDeviceLmemResizeToMax` (0x10),
/// `cudaDeviceSyncMemops` (0x80).
pub const DEVICE_FLAGS: u32 = 0x7 | MAP_HOST | 0x10 | 0x80;

/// Each device's flags as set (`cudaSetDeviceFlags`), [`MAP_HOST`] until then.
static FLAGS: Mutex<[u32; MAX]> = Mutex::new([MAP_HOST; MAX]);

/// Device `d`'s flags.
pub fn flags(d: usize) -> u32 {
    FLAGS.lock().get(d).copied().unwrap_or(MAP_HOST)
}

/// Sets device `d`'s flags (`cudaDeviceMapHost` stays set).
pub fn set_flags(d: usize, flags: u32) {
    if let Some(f) = FLAGS.lock().get_mut(d) {
        *f = flags | MAP_HOST;
    }
}

/// Device `d`'s primary context reset (`cudaDeviceReset`, `cuDevicePrimaryCtxReset`): inactive,
/// its limits, flags and peer access back to their defaults (its memory and streams: the model's
/// and the handles' own resets).
pub fn reset(d: usize) {
    // Destroyed: inactive until made again (an H200's driver reports it so after the reset).
    if let Some(n) = RETAINS.lock().get_mut(d) {
        *n = 0;
    }
    if let Some(l) = LIMITS.lock().get_mut(d) {
        *l = [None; 7];
    }
    heap::reset(d);
    set_flags(d, 0);
    if let Some(p) = PEERS.lock().get_mut(d) {
        *p = 0;
    }
}
