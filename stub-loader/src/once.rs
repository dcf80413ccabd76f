//! A once-initialised value behind the system's lock (`os::Lock`: a pthread mutex; on Windows
//! an SRW lock): `std::sync::OnceLock` without `std`.

use crate::os::{LOCK_INIT, Lock, lock, unlock};
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, Ordering};

/// Initialised by the first caller of [`Once::get_or_init`]; other callers block on the mutex
/// until it is done (the search for a library runs once, whatever the number of threads).
pub(crate) struct Once<T> {
    done: AtomicBool,
    lock: UnsafeCell<Lock>,
    value: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: the value is written once, under the mutex, before `done` is published (Release);
// readers see it only after observing `done` (Acquire). T is shared across threads, so Sync.
unsafe impl<T: Sync + Send> Sync for Once<T> {}

// SAFETY: moving a `Once` moves its value (T: Send) and an unlocked lock, which is plain data
// (Windows' SRWLOCK holds a pointer-sized word that is NULL while unlocked).
unsafe impl<T: Send> Send for Once<T> {}

impl<T> Once<T> {
    pub(crate) const fn new() -> Self {
        Once {
            done: AtomicBool::new(false),
            lock: UnsafeCell::new(LOCK_INIT),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// The value, if initialised.
    pub(crate) fn get(&self) -> Option<&T> {
        if self.done.load(Ordering::Acquire) {
            // SAFETY: done is only set after the value was written.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }

    /// The value, computing it with `init` on the first call.
    pub(crate) fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        if let Some(v) = self.get() {
            return v;
        }
        // SAFETY: a static lock, initialised by its static initialiser, never destroyed.
        unsafe { lock(self.lock.get()) };
        if !self.done.load(Ordering::Relaxed) {
            let value = init();
            // SAFETY: only the lock holder writes, once, before publishing.
            unsafe { (*self.value.get()).write(value) };
            self.done.store(true, Ordering::Release);
        }
        // SAFETY: locked above by this thread.
        unsafe { unlock(self.lock.get()) };
        // SAFETY: done is set.
        unsafe { (*self.value.get()).assume_init_ref() }
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Once<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Once").field(&self.get()).finish()
    }
}
