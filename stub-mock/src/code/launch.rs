//! A kernel launch, checked and made: its configuration against the device's limits
//! ([`fits`]), then [`run_kernel`], the one place a launch reaches a kernel. A host function
//! registered for the kernel's name (`cuda_stubs_mock_register_kernel`,
//! `include/cuda_stubs_mock.h`) runs in its place with the launch's parameters; otherwise the
//! kernel's PTX runs on the CPU (`execute.rs`, crate `stub-ptx`), which takes the kernel, the
//! launch and the model's memory and nothing of the API faces above.

use crate::code::kernels::Owner;
use crate::device::model::Model;
use crate::device::profile::DeviceProfile;
use alloc::collections::BTreeMap;
use alloc::string::String;
use core::ffi::c_void;
use stub_loader::sync::{Mutex, MutexGuard};

pub use crate::code::shape::Launch;

/// A host function standing for a kernel: the launch's `kernelParams` (each a pointer to one
/// argument, as the driver takes them), the launch, the pointer given at registration.
pub type HostKernel = unsafe extern "C" fn(*mut *mut c_void, *const Launch, *mut c_void);

#[derive(Debug, Clone, Copy)]
struct Registered {
    run: HostKernel,
    user: usize,
}

/// Host functions by kernel name.
static REGISTERED: Mutex<BTreeMap<String, Registered>> = Mutex::new(BTreeMap::new());

fn registered() -> MutexGuard<'static, BTreeMap<String, Registered>> {
    REGISTERED.lock()
}

/// Registers `run` for kernel `name` (replacing an earlier one).
pub fn register(name: String, run: HostKernel, user: usize) {
    registered().insert(name, Registered { run, user });
}

/// Runs the host function registered for `kernel`, if any: `true` when one ran.
///
/// # Safety
/// `params` is what the launch was given: NULL or the kernel's argument pointers.
unsafe fn run_host_function(kernel: &str, params: *mut *mut c_void, launch: &Launch) -> bool {
    // Copied out: the host function may itself launch or load (never under the lock).
    let Some(r) = registered().get(kernel).copied() else {
        return false;
    };
    // SAFETY: the registrant's function, called as its registration promised.
    unsafe { (r.run)(params, launch, r.user as *mut c_void) };
    true
}

/// Whether a launch of `grid` blocks of `block` threads with `shared_mem` bytes of dynamic
/// shared memory fits device `p`, as the driver checks it: every dimension at least 1 and within
/// the device's limits, the block's threads and its dynamic shared memory too (the opt-in
/// maximum: a function's own attribute is raised to it by `cuFuncSetAttribute`, which the mock
/// does not model).
pub fn fits(p: &DeviceProfile, grid: [u32; 3], block: [u32; 3], shared_mem: u32) -> bool {
    let limit = |name: &str| u64::try_from(p.named(name)).unwrap_or(0);
    let grid_max = [
        "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X",
        "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y",
        "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z",
    ];
    let block_max = [
        "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X",
        "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y",
        "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z",
    ];
    let threads: u64 = block.iter().map(|&b| u64::from(b)).product();
    !(grid.iter().chain(&block).any(|&v| v == 0)
        || (0..3).any(|i| u64::from(grid[i]) > limit(grid_max[i]))
        || (0..3).any(|i| u64::from(block[i]) > limit(block_max[i]))
        || threads > limit("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK")
        || u64::from(shared_mem) > limit("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"))
}

/// Makes a checked launch of `kernel` (whose code `owner` holds) now, on the device memory of
/// `m`: the host function registered for it runs, or the executor runs its PTX
/// (`execute.rs`); the debug log says which. Every launch comes here, from a stream or a
/// graph's replay (`queue/`). `Err` is the launch's own answer (801 for code the executor cannot
/// run); a fault while the kernel runs is the device's sticky fault.
///
/// # Safety
/// `params` is what the launch was given: NULL or the kernel's argument pointers.
pub unsafe fn run_kernel(
    m: &Model,
    owner: Owner,
    kernel: &str,
    params: *mut *mut c_void,
    launch: &Launch,
) -> Result<(), u32> {
    // A launch is one of the points where what earlier kernels printed is written.
    crate::code::printf::flush();
    // SAFETY: forwarded contract.
    if unsafe { run_host_function(kernel, params, launch) } {
        launch_line(kernel, launch, true);
        return Ok(());
    }
    launch_line(kernel, launch, false);
    // SAFETY: forwarded contract.
    unsafe { crate::code::execute::execute(m, owner, kernel, params, launch) }
}

/// The debug line of a launch: its kernel and shape, and whether a registered host function ran
/// in its place or the executor runs its PTX.
pub fn launch_line(kernel: &str, launch: &Launch, ran: bool) {
    let [gx, gy, gz] = launch.grid;
    let [bx, by, bz] = launch.block;
    let what = if ran {
        "ran its registered host function"
    } else {
        "its PTX runs on the kernel executor"
    };
    stub_loader::debug_line(
        "mock",
        format_args!(
            "launch {kernel}<<<({gx},{gy},{gz}),({bx},{by},{bz}),{}>>> on device {}: {what}",
            launch.shared_mem, launch.device
        ),
    );
}

/// The debug line of a graph's replay of a captured launch whose arguments the capture could
/// not keep (their sizes unknown: neither its code nor a CUBIN says them): not run.
pub fn kept_launch_line(kernel: &str, launch: &Launch) {
    stub_loader::debug_line(
        "mock",
        format_args!(
            "graph launch of {kernel} on device {}: not supported (the capture kept no \
             arguments: their sizes are unknown)",
            launch.device
        ),
    );
}
