//! The values of conditional graph nodes' handles during a graph launch (CUDA 12.3+,
//! `cudaGraphConditionalHandle`, `CUgraphConditionalHandle`): what a kernel's
//! `cudaGraphSetConditional(handle, value)` (cuda_device_runtime_api.h) sets, read by the graph's
//! launch (`queue/graph.rs`) when it reaches the conditional node. Kept here, below the queue,
//! because the kernel executor's device (`execute.rs`) sets them and the queue reads them.
//!
//! A handle is live from the start of a launch of its graph to its end; a kernel setting a
//! handle that is not live (a launch outside any graph, a handle of a graph not running) ends
//! with `stub_ptx::Fault::Conditional`, which the launch answers as the board does: an illegal
//! address (700), sticky (`code/execute.rs`).

use alloc::collections::BTreeMap;
use stub_loader::sync::Mutex;

/// Live handles: each one's value and how many launches hold it (a graph launched from a host
/// node of another holds its own handles, never the same ones).
static VALUES: Mutex<BTreeMap<u64, (u32, usize)>> = Mutex::new(BTreeMap::new());

/// Makes `handle` live with `value` for a launch of its graph.
pub fn begin(handle: u64, value: u32) {
    let mut v = VALUES.lock();
    let e = v.entry(handle).or_insert((value, 0));
    *e = (value, e.1 + 1);
}

/// Ends a launch's hold of `handle`: its last value (the graph keeps it for its next launch
/// when the handle does not take its default at each launch).
pub fn end(handle: u64) -> u32 {
    let mut v = VALUES.lock();
    let Some(&(value, holds)) = v.get(&handle) else {
        return 0;
    };
    if holds <= 1 {
        v.remove(&handle);
    } else {
        v.insert(handle, (value, holds - 1));
    }
    value
}

/// `handle`'s value now, `None` when it is not live.
pub fn value(handle: u64) -> Option<u32> {
    VALUES.lock().get(&handle).map(|&(v, _)| v)
}

/// A kernel's `cudaGraphSetConditional(handle, value)`: `false` when `handle` is not live.
pub fn set(handle: u64, value: u32) -> bool {
    match VALUES.lock().get_mut(&handle) {
        Some(e) => {
            e.0 = value;
            true
        }
        None => false,
    }
}
