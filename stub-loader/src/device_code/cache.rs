//! The CUBINs reconciliation made, kept for the process's lifetime and keyed by what made them
//! (the input's bytes, the architecture and the options): a module loaded again (each context,
//! each `cuModuleLoadData` of the same PTX) costs a hash and a compare, not a compile.

use crate::os::{LOCK_INIT, Lock, lock, unlock};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::UnsafeCell;

/// One CUBIN made.
struct Entry {
    hash: u64,
    /// The input, kept to compare: a 64-bit hash alone could, however rarely, hand one
    /// module's CUBIN to another.
    input: Box<[u8]>,
    /// The nvJitLink options, joined: `-arch` included.
    options: Box<[u8]>,
    cubin: &'static [u8],
}

/// Every CUBIN made, behind the system's lock.
struct Cache {
    lock: UnsafeCell<Lock>,
    entries: UnsafeCell<Vec<Entry>>,
}

// SAFETY: `entries` is only touched with `lock` held.
unsafe impl Sync for Cache {}

static CACHE: Cache = Cache {
    lock: UnsafeCell::new(LOCK_INIT),
    entries: UnsafeCell::new(Vec::new()),
};

/// FNV-1a, 64 bits: no dependency, and the compare after it makes its quality irrelevant to
/// correctness.
pub(crate) fn hash(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn with<T>(f: impl FnOnce(&mut Vec<Entry>) -> T) -> T {
    // SAFETY: the lock is static and initialised; `entries` is touched only while it is held,
    // and `f` does not reach the cache again.
    unsafe {
        lock(CACHE.lock.get());
        let value = f(&mut *CACHE.entries.get());
        unlock(CACHE.lock.get());
        value
    }
}

/// The CUBIN made before from `input` with `options`, if any.
pub(crate) fn find(input: &[u8], options: &[u8]) -> Option<&'static [u8]> {
    let h = hash(&[input, options]);
    with(|entries| {
        entries
            .iter()
            .find(|e| e.hash == h && *e.input == *input && *e.options == *options)
            .map(|e| e.cubin)
    })
}

/// Keeps `cubin`, made from `input` with `options`, for the process's lifetime (a module the
/// driver loaded from it may be unloaded and loaded again; the bytes are never freed), and
/// returns it; an equal entry another thread kept first wins.
pub(crate) fn keep(input: &[u8], options: &[u8], cubin: Vec<u8>) -> &'static [u8] {
    let h = hash(&[input, options]);
    with(|entries| {
        if let Some(e) = entries
            .iter()
            .find(|e| e.hash == h && *e.input == *input && *e.options == *options)
        {
            return e.cubin;
        }
        let cubin: &'static [u8] = Box::leak(cubin.into_boxed_slice());
        entries.push(Entry {
            hash: h,
            input: input.into(),
            options: options.into(),
            cubin,
        });
        cubin
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_cubins_are_found_by_input_and_options() {
        assert_eq!(find(b"ptx one", b"-arch=sm_90"), None);
        let kept = keep(b"ptx one", b"-arch=sm_90", alloc::vec![1, 2, 3]);
        assert_eq!(kept, &[1, 2, 3]);
        assert_eq!(find(b"ptx one", b"-arch=sm_90"), Some(&[1u8, 2, 3][..]));
        assert_eq!(find(b"ptx one", b"-arch=sm_80"), None);
        assert_eq!(find(b"ptx two", b"-arch=sm_90"), None);
        // The first kept wins.
        assert_eq!(keep(b"ptx one", b"-arch=sm_90", alloc::vec![9]), &[1, 2, 3]);
        assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
    }
}
