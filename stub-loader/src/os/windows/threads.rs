//! Threads for the mock device's kernel executor: the mock is built for Linux only, so on
//! Windows the work runs on the calling thread (`stub_loader::sync::run_parallel`).

/// Runs `work` once, on this thread.
pub(crate) fn run_parallel(_threads: usize, work: &(dyn Fn() + Sync)) {
    work();
}

/// One CPU: [`run_parallel`] uses no other.
pub(crate) fn cpu_count() -> usize {
    1
}
