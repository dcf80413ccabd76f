//! Threads for the mock device's kernel executor (`stub_loader::sync::run_parallel`):
//! `CreateThread`, joined with `WaitForSingleObject`, as `pthread_create` on Linux.

use core::ffi::c_void;
use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
use windows_sys::Win32::System::SystemInformation::{GetSystemInfo, SYSTEM_INFO};
use windows_sys::Win32::System::Threading::{CreateThread, INFINITE, WaitForSingleObject};

/// The work every thread runs.
type Work<'a> = &'a (dyn Fn() + Sync);

unsafe extern "system" fn start(work: *mut c_void) -> u32 {
    // SAFETY: a `&Work` that outlives the thread (`run_parallel` waits for it before returning).
    let work = unsafe { *(work as *const Work<'_>) };
    work();
    0
}

/// Runs `work` on `threads` threads, this one included, and returns once all have ended; fewer
/// when the system makes no more (the work is shared by those that run).
pub(crate) fn run_parallel(threads: usize, work: Work<'_>) {
    let mut made: alloc::vec::Vec<HANDLE> = alloc::vec::Vec::new();
    let arg = &work as *const Work<'_> as *const c_void;
    for _ in 1..threads {
        // SAFETY: `start` reads `arg`, which lives until every thread has ended below; default
        // security and stack size.
        let h = unsafe {
            CreateThread(
                core::ptr::null(),
                0,
                Some(start),
                arg,
                0,
                core::ptr::null_mut(),
            )
        };
        if h.is_null() {
            break;
        }
        made.push(h);
    }
    work();
    for h in made {
        // SAFETY: a thread handle made above, waited for and closed once.
        unsafe {
            WaitForSingleObject(h, INFINITE);
            CloseHandle(h);
        }
    }
}

/// The logical processors of the system (`GetSystemInfo`), at least 1.
pub(crate) fn cpu_count() -> usize {
    // SAFETY: an all-zero SYSTEM_INFO is valid (integers, pointers and a union of integers).
    let mut info: SYSTEM_INFO = unsafe { core::mem::zeroed() };
    // SAFETY: a valid out-pointer.
    unsafe { GetSystemInfo(&mut info) };
    usize::try_from(info.dwNumberOfProcessors)
        .unwrap_or(1)
        .max(1)
}
