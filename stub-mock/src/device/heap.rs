//! The device heap that kernels' `malloc` and `free` (and C++ `new`/`delete`) allocate from
//! (CUDA C++ Programming Guide, "Dynamic Global Memory Allocation and Operations"):
//!
//! - one region per device of `cudaLimitMallocHeapSize` bytes (8 MiB unless set), made when a
//!   kernel first calls `malloc` ("A default heap of eight megabytes is allocated if any
//!   program uses malloc() or free() without explicitly specifying the heap size"), as one
//!   device allocation of the model: it counts in `cudaMemGetInfo` from then on, `cudaFree` of a
//!   pointer into it is refused (never an allocation's start: [`HEADER`]), and an access that overruns a
//!   block but stays in the region does not fault, as on a board;
//! - the region's size is fixed once made: setting the limit after answers
//!   `cudaErrorInvalidValue` ("must be performed before launching any kernel that uses the
//!   malloc() or free() device system calls") ([`exists`]);
//! - blocks are 16-byte aligned (the guide: "aligned on a 16-byte boundary"), first fit; a
//!   request with no room answers NULL; blocks live across launches until `free` or the
//!   context's reset ([`reset`]).
//!
//! How much of the region a board's allocator gives before answering NULL depends on its
//! bookkeeping, which NVIDIA does not document: here all of it.

use crate::device::model::{Kind, Model};
use alloc::collections::BTreeMap;
use alloc::collections::btree_map::Entry;
use stub_loader::sync::Mutex;

/// The alignment of a block.
const ALIGN: u64 = 16;

/// Bytes at the region's start no block takes (the allocator's own, as a board's keeps its
/// bookkeeping in the heap): no block starts where the region does, so `cudaFree` of a block
/// is refused as on a board rather than freeing the whole heap.
const HEADER: u64 = ALIGN;

/// One device's heap: the region and its live blocks (offset → size).
struct Heap {
    base: u64,
    size: u64,
    blocks: BTreeMap<u64, u64>,
}

/// Each device's heap, once made.
static HEAPS: Mutex<BTreeMap<usize, Heap>> = Mutex::new(BTreeMap::new());

/// Device `d`'s `malloc(size)` from a heap of `limit` bytes (made now if it is not yet): the
/// block's address, or 0 when no room is left (or the model has no memory for the region).
pub fn malloc(m: &Model, d: usize, size: u64, limit: usize) -> u64 {
    let mut heaps = HEAPS.lock();
    let heap = match heaps.entry(d) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => match m.allocate(limit, Kind::Device(d)) {
            Ok(base) if base != 0 => e.insert(Heap {
                base: base as u64,
                size: limit as u64,
                blocks: BTreeMap::new(),
            }),
            _ => return 0,
        },
    };
    // malloc(0): a block of its own all the same, so that free() takes it back.
    let Some(want) = size.max(1).checked_next_multiple_of(ALIGN) else {
        return 0;
    };
    let mut at = HEADER;
    for (&offset, &len) in &heap.blocks {
        if offset - at >= want {
            break;
        }
        at = (offset + len).next_multiple_of(ALIGN);
    }
    if heap.size.saturating_sub(at) < want {
        return 0;
    }
    heap.blocks.insert(at, want);
    heap.base + at
}

/// Device `d`'s `free(ptr)`: `false` when `ptr` is no live block of its heap.
pub fn free(d: usize, ptr: u64) -> bool {
    let mut heaps = HEAPS.lock();
    let Some(heap) = heaps.get_mut(&d) else {
        return false;
    };
    ptr.checked_sub(heap.base)
        .is_some_and(|offset| heap.blocks.remove(&offset).is_some())
}

/// Whether device `d`'s heap is made (its size can no longer change).
pub fn exists(d: usize) -> bool {
    HEAPS.lock().contains_key(&d)
}

/// Forgets device `d`'s heap: its context's reset (the model frees the region with the rest of
/// the device's memory).
pub fn reset(d: usize) {
    HEAPS.lock().remove(&d);
}
