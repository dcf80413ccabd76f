//! Streams and events, one registry for the runtime's and the driver's handles (`cudaStream_t`
//! is `CUstream`, `cudaEvent_t` is `CUevent`). The mock runs every operation when it is
//! issued, so a stream is always idle and an event records the monotonic clock's time when it
//! is recorded: elapsed times are real host times.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use core::sync::atomic::{AtomicUsize, Ordering};
use stub_loader::sync::{Mutex, MutexGuard, ThreadWord};

/// What a handle is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Handle {
    /// A stream.
    Stream(Stream),
    /// An event: recorded when, and whether it keeps timing (not `cudaEventDisableTiming`).
    Event {
        /// When it was last recorded (the monotonic clock, `stub_loader::clock_ns`, ns);
        /// `None`: never.
        recorded: Option<u64>,
        /// Whether elapsed times may be read.
        timing: bool,
    },
}

/// A stream: its device, creation flags (`cudaStreamNonBlocking` = `CU_STREAM_NON_BLOCKING`
/// = 1) and priority (within [`PRIORITY_RANGE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stream {
    /// The device's index.
    pub device: usize,
    /// Creation flags.
    pub flags: u32,
    /// Priority: lower numbers run first.
    pub priority: i32,
}

/// Stream priorities, least to greatest (`cudaDeviceGetStreamPriorityRange`,
/// `cuCtxGetStreamPriorityRange`): the H200's.
pub const PRIORITY_RANGE: (i32, i32) = (0, -5);

/// A new stream of device `device`: `flags` must be 0 or non-blocking, `priority` is clamped
/// into [`PRIORITY_RANGE`] as both APIs do; `None` for other flags.
pub fn create_stream(device: usize, flags: u32, priority: i32) -> Option<usize> {
    let (least, greatest) = PRIORITY_RANGE;
    (flags <= 1).then(|| {
        create(Handle::Stream(Stream {
            device,
            flags,
            priority: priority.clamp(greatest, least),
        }))
    })
}

/// The stream `stream` names: a live one, or a default stream (NULL, legacy, per-thread) of
/// `current`, which has flags 0 and priority 0.
pub fn stream(stream: usize, current: usize) -> Option<Stream> {
    match (stream, get(stream)) {
        (0..=2, _) => Some(Stream {
            device: current,
            flags: 0,
            priority: 0,
        }),
        (_, Some(Handle::Stream(s))) => Some(s),
        _ => None,
    }
}

/// Destroys every stream of device `device` (a device reset).
pub fn destroy_streams_of(device: usize) {
    let mut map = handles();
    let gone: alloc::vec::Vec<usize> = map
        .iter()
        .filter(|(_, h)| matches!(h, Handle::Stream(s) if s.device == device))
        .map(|(&a, _)| a)
        .collect();
    for address in gone {
        map.remove(&address);
        // SAFETY: made by `create` with `fresh`, removed from the map above.
        unsafe { release(address) };
    }
}

/// Live handles by address. The address is that of a heap byte allocated for the handle,
/// never reused while it is live, so a stale or foreign handle is found missing.
static HANDLES: Mutex<BTreeMap<usize, Handle>> = Mutex::new(BTreeMap::new());

fn handles() -> MutexGuard<'static, BTreeMap<usize, Handle>> {
    HANDLES.lock()
}

/// A fresh address for a handle of any kind (streams, events, modules, graphs): a heap byte's,
/// so that no two live handles share one and a stale handle is not mistaken for a new one
/// until its byte is reused.
pub fn fresh() -> usize {
    Box::into_raw(Box::new(0u8)) as usize
}

/// Gives back an address from [`fresh`].
///
/// # Safety
/// `address` came from [`fresh`] and is released once.
pub unsafe fn release(address: usize) {
    // SAFETY: made by `fresh` from a `Box<u8>`, by the contract.
    drop(unsafe { Box::from_raw(address as *mut u8) });
}

/// The calling thread's number, from 1, given on its first call: what the launch
/// configurations and stream captures are kept by.
pub fn thread_number() -> usize {
    static NUMBER: ThreadWord = ThreadWord::new();
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    match NUMBER.get() {
        0 => {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            NUMBER.set(n);
            n
        }
        n => n,
    }
}

/// A new handle's address.
pub fn create(h: Handle) -> usize {
    let address = fresh();
    handles().insert(address, h);
    address
}

/// The live handle at `address`.
pub fn get(address: usize) -> Option<Handle> {
    handles().get(&address).copied()
}

/// Replaces the live handle at `address`; `false` if none lives there.
pub fn set(address: usize, h: Handle) -> bool {
    match handles().get_mut(&address) {
        Some(slot) => {
            *slot = h;
            true
        }
        None => false,
    }
}

/// Destroys the handle at `address` if it is a `want` (`true`), else leaves it.
pub fn destroy(address: usize, want: impl Fn(&Handle) -> bool) -> bool {
    let mut map = handles();
    match map.get(&address) {
        Some(h) if want(h) => {
            map.remove(&address);
            // SAFETY: made by `create` with `fresh`, removed from the map above.
            unsafe { release(address) };
            true
        }
        _ => false,
    }
}

/// Whether `stream` is the default stream (NULL, `cudaStreamLegacy` = 1, `cudaStreamPerThread`
/// = 2) or a live stream.
pub fn is_stream(stream: usize) -> bool {
    stream <= 2 || matches!(get(stream), Some(Handle::Stream(_)))
}

/// Whether `address` is a live event.
pub fn is_event(address: usize) -> bool {
    matches!(get(address), Some(Handle::Event { .. }))
}

/// Records the event at `address` now; `false` if it is no event.
pub fn record(address: usize) -> bool {
    match get(address) {
        Some(Handle::Event { timing, .. }) => set(
            address,
            Handle::Event {
                recorded: Some(stub_loader::clock_ns()),
                timing,
            },
        ),
        _ => false,
    }
}

/// `cudaEventDisableTiming` / `CU_EVENT_DISABLE_TIMING`: the same bit in both APIs.
const EVENT_DISABLE_TIMING: u32 = 2;

/// The flags both APIs' event creation accepts (`…Default`, `…BlockingSync`, `…DisableTiming`,
/// `…Interprocess`).
const EVENT_FLAGS: u32 = 0xf;

/// A new event of `flags` (`cudaEventCreateWithFlags`, `cuEventCreate`), never recorded; `None`
/// for a flag neither API has.
pub fn create_event(flags: u32) -> Option<usize> {
    (flags & !EVENT_FLAGS == 0).then(|| {
        create(Handle::Event {
            recorded: None,
            timing: flags & EVENT_DISABLE_TIMING == 0,
        })
    })
}

/// Milliseconds from the event at `start` to the one at `end`, by the monotonic clock (negative
/// when `end` was recorded first); `None` unless both are events recorded with timing.
pub fn elapsed_ms(start: usize, end: usize) -> Option<f32> {
    match (get(start)?, get(end)?) {
        (
            Handle::Event {
                recorded: Some(a),
                timing: true,
            },
            Handle::Event {
                recorded: Some(b),
                timing: true,
            },
        ) => Some(((b as f64 - a as f64) / 1e6) as f32),
        _ => None,
    }
}
