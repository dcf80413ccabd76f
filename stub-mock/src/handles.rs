//! Streams and events, one registry for the runtime's and the driver's handles (`cudaStream_t`
//! is `CUstream`, `cudaEvent_t` is `CUevent`). The mock runs every operation when it is
//! issued, so a stream is always idle and an event records the monotonic clock's time when it
//! is recorded: elapsed times are real host times.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

/// What a handle is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Handle {
    /// A stream of the device with this index.
    Stream(usize),
    /// An event: recorded when, and whether it keeps timing (not `cudaEventDisableTiming`).
    Event {
        /// When it was last recorded; `None`: never.
        recorded: Option<Instant>,
        /// Whether elapsed times may be read.
        timing: bool,
    },
}

/// Live handles by address. The address is that of a heap byte allocated for the handle,
/// never reused while it is live, so a stale or foreign handle is found missing.
static HANDLES: Mutex<BTreeMap<usize, Handle>> = Mutex::new(BTreeMap::new());

fn handles() -> std::sync::MutexGuard<'static, BTreeMap<usize, Handle>> {
    HANDLES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new handle's address.
pub fn create(h: Handle) -> usize {
    let address = Box::into_raw(Box::new(0u8)) as usize;
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
            // SAFETY: made by `create` from a `Box<u8>`, removed from the map above.
            drop(unsafe { Box::from_raw(address as *mut u8) });
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

/// Records the event at `address` now; `false` if it is no event.
pub fn record(address: usize) -> bool {
    match get(address) {
        Some(Handle::Event { timing, .. }) => set(
            address,
            Handle::Event {
                recorded: Some(Instant::now()),
                timing,
            },
        ),
        _ => false,
    }
}
