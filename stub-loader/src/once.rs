//! A once-initialised value behind the system's lock (`os::Lock`: a pthread mutex; on Windows
//! an SRW lock): `std::sync::OnceLock` without `std`, and without its deadlock on re-entry.

use crate::os::{LOCK_INIT, Lock, lock, thread_id, unlock};
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Initialised by the first caller of [`Once::get_or_init`]; other threads block on the mutex
/// until it is done (the search for a library runs once, whatever the number of threads). A
/// call from inside the initialisation on the same thread gets `None` instead of waiting on
/// itself: a library the search loads can call the stub's own exports from its initialisers
/// (a constructor reaching the stub through the global scope), and that call must return.
pub struct Once<T> {
    done: AtomicBool,
    /// The thread running the initialisation (`os::thread_id`), 0 when none is.
    owner: AtomicUsize,
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
    /// A value not yet initialised.
    pub const fn new() -> Self {
        Once {
            done: AtomicBool::new(false),
            owner: AtomicUsize::new(0),
            lock: UnsafeCell::new(LOCK_INIT),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// The value, if initialised.
    pub fn get(&self) -> Option<&T> {
        if self.done.load(Ordering::Acquire) {
            // SAFETY: done is only set after the value was written.
            Some(unsafe { (*self.value.get()).assume_init_ref() })
        } else {
            None
        }
    }

    /// Whether the calling thread is running the initialisation now (a call made from inside
    /// `init`).
    pub(crate) fn initializing_here(&self) -> bool {
        !self.done.load(Ordering::Acquire) && self.owner.load(Ordering::Relaxed) == thread_id()
    }

    /// The value, computing it with `init` on the first call; `None` for a call made from
    /// inside `init` on the same thread, which has no value yet (and locking again would wait
    /// forever). Another thread's `owner` never equals the caller's id, so it waits as before.
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> Option<&T> {
        if let Some(v) = self.get() {
            return Some(v);
        }
        let me = thread_id();
        if self.owner.load(Ordering::Relaxed) == me {
            return None;
        }
        // SAFETY: a static lock, initialised by its static initialiser, never destroyed.
        unsafe { lock(self.lock.get()) };
        if !self.done.load(Ordering::Relaxed) {
            self.owner.store(me, Ordering::Relaxed);
            let value = init();
            // SAFETY: only the lock holder writes, once, before publishing.
            unsafe { (*self.value.get()).write(value) };
            self.done.store(true, Ordering::Release);
            self.owner.store(0, Ordering::Relaxed);
        }
        // SAFETY: locked above by this thread.
        unsafe { unlock(self.lock.get()) };
        // SAFETY: done is set.
        Some(unsafe { (*self.value.get()).assume_init_ref() })
    }
}

impl<T> Default for Once<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Once<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Once").field(&self.get()).finish()
    }
}
