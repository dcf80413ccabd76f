//! Threads for the mock device's kernel executor (`stub_loader::sync::run_parallel`): made with
//! `pthread_create` bound to its original version, as `glibc.rs` binds the rest, since glibc
//! 2.34 gave `pthread_create` and `pthread_join` a new default version `GLIBC_2.34` in
//! `libc.so.6` (`libpthread.so.0` before; every stub and the mock need it:
//! `stub-loader/link_args.rs`).

use core::ffi::{c_int, c_void};

unsafe extern "C" {
    #[cfg_attr(target_arch = "x86_64", link_name = "pthread_create@GLIBC_2.2.5")]
    #[cfg_attr(target_arch = "aarch64", link_name = "pthread_create@GLIBC_2.17")]
    fn pthread_create(
        thread: *mut libc::pthread_t,
        attr: *const libc::pthread_attr_t,
        start: extern "C" fn(*mut c_void) -> *mut c_void,
        arg: *mut c_void,
    ) -> c_int;
    #[cfg_attr(target_arch = "x86_64", link_name = "pthread_join@GLIBC_2.2.5")]
    #[cfg_attr(target_arch = "aarch64", link_name = "pthread_join@GLIBC_2.17")]
    fn pthread_join(thread: libc::pthread_t, retval: *mut *mut c_void) -> c_int;
}

/// The work every thread runs.
type Work<'a> = &'a (dyn Fn() + Sync);

extern "C" fn start(work: *mut c_void) -> *mut c_void {
    // SAFETY: a `&Work` that outlives the thread (`run_parallel` joins it before returning).
    let work = unsafe { *(work as *const Work<'_>) };
    work();
    core::ptr::null_mut()
}

/// Runs `work` on `threads` threads, this one included, and returns once all have ended; fewer
/// when the system makes no more (the work is shared by those that run).
pub(crate) fn run_parallel(threads: usize, work: Work<'_>) {
    let mut made: alloc::vec::Vec<libc::pthread_t> = alloc::vec::Vec::new();
    let arg = &work as *const Work<'_> as *mut c_void;
    for _ in 1..threads {
        let mut t: libc::pthread_t = 0;
        // SAFETY: `start` reads `arg`, which lives until every thread is joined below.
        if unsafe { pthread_create(&mut t, core::ptr::null(), start, arg) } != 0 {
            break;
        }
        made.push(t);
    }
    work();
    for t in made {
        // SAFETY: a thread made above, joined once.
        unsafe { pthread_join(t, core::ptr::null_mut()) };
    }
}

/// The CPUs online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
pub(crate) fn cpu_count() -> usize {
    // SAFETY: sysconf with a valid name.
    usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) })
        .unwrap_or(1)
        .max(1)
}
