//! What a `no_std` cdylib built on the loader (the mock device, `stub-mock`) has in place of
//! `std`'s `OnceLock`, `Mutex`, `thread_local!`, `env::var` and `fs::read`: the loader's own
//! primitives over its OS face (`os::Lock`, `os::TlsKey`, the glibc-floor calls of
//! `os/linux/glibc.rs`), so that such a library keeps the stubs' glibc floor and never prints
//! or unwinds. `std`'s versions would bind `pthread_key_create@GLIBC_2.34`, `stat64@GLIBC_2.33`
//! and `statx@GLIBC_2.28` on a new build machine, and print on a panic.

use crate::os::{LOCK_INIT, Lock, TlsKey, lock, tls_create, tls_get, tls_set, unlock};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::ffi::{CStr, c_void};
use core::ops::{Deref, DerefMut};

pub use crate::once::Once;

/// Runs `work` on `threads` threads at once, the calling one included, and returns when every
/// one has ended (the mock's kernel executor: blocks taken from a shared counter). Fewer threads
/// when the system makes no more. The threads are made with `pthread_create` at the glibc floor,
/// on Windows with `CreateThread`.
pub fn run_parallel(threads: usize, work: &(dyn Fn() + Sync)) {
    crate::os::run_parallel(threads, work);
}

/// The CPUs online, at least 1.
pub fn cpu_count() -> usize {
    crate::os::cpu_count()
}

/// Nanoseconds since the Unix epoch (`CLOCK_REALTIME`; `GetSystemTimePreciseAsFileTime` on
/// Windows): a board's `%globaltimer` counts real time.
pub fn realtime_ns() -> u64 {
    crate::os::realtime_ns()
}

/// Writes `bytes` to standard error, unbuffered, until done or an error (none is reported: a
/// diagnostic that cannot be written is dropped, never a failure of the call that wrote it).
pub fn write_stderr(bytes: &[u8]) {
    crate::os::write_all(2, bytes);
}

/// Writes `bytes` to the program's standard output as a board's driver writes device-side
/// `printf` text: on Linux into the C stream `stdout`, unflushed, so it interleaves with the
/// program's own buffered `printf` output; on Windows with `WriteFile` (a DLL cannot reach the
/// program's C runtime buffer there).
pub fn write_stdout(bytes: &[u8]) {
    crate::os::write_stdout(bytes);
}

/// C99's `snprintf(buffer, size, format, ...)` as glibc formats (`%e`'s two exponent digits,
/// `%a`'s shortest hexadecimal): glibc's own on Linux, MinGW's `__mingw_snprintf` on Windows
/// (msvcrt's writes `1.234568e+004`). The mock device's device-side `printf` formats with it,
/// one conversion at a time, as a board's driver prints.
pub use crate::os::snprintf;

/// A value behind the system's lock (a pthread mutex; on Windows an SRW lock), usable in a
/// `static` (`const fn new`). Unlike `std::sync::Mutex` it has no poisoning: the cdylibs built
/// on it abort on a panic, so no guard is ever dropped by unwinding.
pub struct Mutex<T> {
    lock: UnsafeCell<Lock>,
    value: UnsafeCell<T>,
}

// SAFETY: the value is reached only through a guard, which holds the lock; T moves between
// threads with it, so T: Send suffices (as for std's Mutex).
unsafe impl<T: Send> Sync for Mutex<T> {}
// SAFETY: an unlocked lock is plain data (a static initialiser's bytes; Windows' SRWLOCK is a
// NULL word while unlocked), and T: Send.
unsafe impl<T: Send> Send for Mutex<T> {}

impl<T> Mutex<T> {
    /// An unlocked mutex holding `value`.
    pub const fn new(value: T) -> Self {
        Mutex {
            lock: UnsafeCell::new(LOCK_INIT),
            value: UnsafeCell::new(value),
        }
    }

    /// Locks, blocking until no other thread holds the lock; unlocked when the guard drops. A
    /// thread that locks twice waits for itself forever, as with `std`'s.
    pub fn lock(&self) -> MutexGuard<'_, T> {
        // SAFETY: initialised by LOCK_INIT; alive as long as `self`, which the guard borrows.
        unsafe { lock(self.lock.get()) };
        MutexGuard { mutex: self }
    }
}

impl<T> core::fmt::Debug for Mutex<T> {
    /// Without the value: reading it would take the lock (and wait for a holder).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Mutex { .. }")
    }
}

/// The lock of a [`Mutex`], held until dropped.
pub struct MutexGuard<'a, T> {
    mutex: &'a Mutex<T>,
}

impl<T> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds the lock.
        unsafe { &*self.mutex.value.get() }
    }
}

impl<T> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds the lock, and `&mut self` makes this the only reference.
        unsafe { &mut *self.mutex.value.get() }
    }
}

impl<T> Drop for MutexGuard<'_, T> {
    fn drop(&mut self) {
        // SAFETY: locked by this thread in `Mutex::lock`.
        unsafe { unlock(self.mutex.lock.get()) };
    }
}

/// One machine word per thread, 0 until the thread sets it (`pthread_key_t`; on Windows a TLS
/// index), usable in a `static`. The key is made on first use; should the process have none
/// left, every thread reads 0 and writes are dropped.
pub struct ThreadWord {
    key: Once<Option<TlsKey>>,
}

impl ThreadWord {
    /// A word no thread has set.
    pub const fn new() -> Self {
        ThreadWord { key: Once::new() }
    }

    fn key(&self) -> Option<TlsKey> {
        self.key.get_or_init(tls_create).copied().flatten()
    }

    /// The calling thread's value.
    pub fn get(&self) -> usize {
        match self.key() {
            // SAFETY: the key came from tls_create.
            Some(key) => unsafe { tls_get(key) as usize },
            None => 0,
        }
    }

    /// Sets the calling thread's value.
    pub fn set(&self, value: usize) {
        if let Some(key) = self.key() {
            // SAFETY: the key came from tls_create.
            unsafe { tls_set(key, value as *const c_void) };
        }
    }
}

impl Default for ThreadWord {
    fn default() -> Self {
        Self::new()
    }
}

/// An environment variable as text (lossy UTF-8), as the stubs read theirs: `None` when unset,
/// empty, or in a secure-execution process ([`crate::secure_execution`]).
pub fn env_text(name: &CStr) -> Option<String> {
    crate::env::trusted_text(name)
}

/// The whole of the file at `path` when it can be read and is at most `limit` bytes long.
pub fn read_file(path: &CStr, limit: usize) -> Option<Vec<u8>> {
    crate::os::read_file(path, limit)
}
