//! The lock of `once.rs`: an SRW lock, which needs no initialisation call and is never
//! destroyed, like Linux's static mutex.

use windows_sys::Win32::System::Threading::{
    AcquireSRWLockExclusive, ReleaseSRWLockExclusive, SRWLOCK, SRWLOCK_INIT,
};

/// A static lock.
pub(crate) type Lock = SRWLOCK;

/// An unlocked [`Lock`].
pub(crate) const LOCK_INIT: Lock = SRWLOCK_INIT;

/// Locks `lock` exclusively, blocking.
///
/// # Safety
/// `lock` points to a [`Lock`] initialised with [`LOCK_INIT`], alive while locked.
pub(crate) unsafe fn lock(lock: *mut Lock) {
    // SAFETY: by contract.
    unsafe { AcquireSRWLockExclusive(lock) };
}

/// Unlocks `lock`.
///
/// # Safety
/// The calling thread locked `lock` with [`lock`].
pub(crate) unsafe fn unlock(lock: *mut Lock) {
    // SAFETY: by contract.
    unsafe { ReleaseSRWLockExclusive(lock) };
}
