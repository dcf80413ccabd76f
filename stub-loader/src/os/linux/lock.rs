//! The lock of `once.rs`: a static pthread mutex, never destroyed.

/// A static mutex.
pub(crate) type Lock = libc::pthread_mutex_t;

/// An unlocked [`Lock`], by its static initialiser (no init call).
pub(crate) const LOCK_INIT: Lock = libc::PTHREAD_MUTEX_INITIALIZER;

/// Locks `lock`, blocking.
///
/// # Safety
/// `lock` points to a [`Lock`] initialised with [`LOCK_INIT`], alive while locked.
pub(crate) unsafe fn lock(lock: *mut Lock) {
    // SAFETY: by contract.
    unsafe { libc::pthread_mutex_lock(lock) };
}

/// Unlocks `lock`.
///
/// # Safety
/// The calling thread locked `lock` with [`lock`].
pub(crate) unsafe fn unlock(lock: *mut Lock) {
    // SAFETY: by contract.
    unsafe { libc::pthread_mutex_unlock(lock) };
}
