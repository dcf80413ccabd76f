//! Modules, their kernels and launches. A module is an image the driver would load
//! (`image.rs`); a launch is checked against the profile's limits and the function's module,
//! then recorded: kernels do not run. A test registers a host function for a kernel name
//! (`cuda_stubs_mock_register_kernel`, `include/cuda_stubs_mock.h`), which runs in its place with
//! the launch's parameters; without one, the debug log says the launch was recorded, not run.

use crate::image::Kernel;
use crate::profile::DeviceProfile;
use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::c_void;
use stub_loader::sync::{Mutex, MutexGuard};

/// The launch a registered host function is given (`cuda_stubs_mock_launch` in
/// `include/cuda_stubs_mock.h`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Launch {
    /// Blocks in x, y, z.
    pub grid: [u32; 3],
    /// Threads per block in x, y, z.
    pub block: [u32; 3],
    /// Dynamic shared memory, bytes.
    pub shared_mem: u32,
    /// The device's index.
    pub device: i32,
}

/// A host function standing for a kernel: the launch's `kernelParams` (each a pointer to one
/// argument, as the driver takes them), the launch, the pointer given at registration.
pub type HostKernel = unsafe extern "C" fn(*mut *mut c_void, *const Launch, *mut c_void);

#[derive(Debug, Clone, Copy)]
struct Registered {
    run: HostKernel,
    user: usize,
}

#[derive(Debug, Default)]
struct Modules {
    /// Live modules by handle: their kernels.
    modules: BTreeMap<usize, Vec<Kernel>>,
    /// Live functions by handle: module, kernel name.
    functions: BTreeMap<usize, (usize, String)>,
    /// Host functions by kernel name.
    registered: BTreeMap<String, Registered>,
}

static MODULES: Mutex<Modules> = Mutex::new(Modules {
    modules: BTreeMap::new(),
    functions: BTreeMap::new(),
    registered: BTreeMap::new(),
});

fn modules() -> MutexGuard<'static, Modules> {
    MODULES.lock()
}

/// Records a loaded module with `kernels`; its handle.
pub fn add(kernels: Vec<Kernel>) -> usize {
    let h = crate::handles::fresh();
    modules().modules.insert(h, kernels);
    h
}

/// Unloads `module` and its functions; `false` if it is none.
pub fn remove(module: usize) -> bool {
    let mut m = modules();
    if m.modules.remove(&module).is_none() {
        return false;
    }
    m.functions.retain(|_, (owner, _)| *owner != module);
    // SAFETY: made by `handles::fresh`, removed above.
    unsafe { crate::handles::release(module) };
    true
}

/// The function `name` of `module`: `Ok(handle)`, `Err(false)` for no such module,
/// `Err(true)` for no such kernel in it.
pub fn function(module: usize, name: &str) -> Result<usize, bool> {
    let mut m = modules();
    let Some(kernels) = m.modules.get(&module) else {
        return Err(false);
    };
    if !kernels.iter().any(|k| k.name == name) {
        return Err(true);
    }
    if let Some((&h, _)) = m
        .functions
        .iter()
        .find(|(_, (owner, k))| *owner == module && k == name)
    {
        return Ok(h);
    }
    let h = crate::handles::fresh();
    m.functions.insert(h, (module, name.to_owned()));
    Ok(h)
}

/// The kernel name of a live function handle, and its parameters' sizes if its code says.
pub fn kernel_of(function: usize) -> Option<(String, Option<Vec<usize>>)> {
    let m = modules();
    let (module, name) = m.functions.get(&function)?;
    let params = m
        .modules
        .get(module)
        .and_then(|ks| ks.iter().find(|k| &k.name == name))
        .and_then(|k| k.params.clone());
    Some((name.clone(), params))
}

/// Registers `run` for kernel `name` (replacing an earlier one).
pub fn register(name: String, run: HostKernel, user: usize) {
    modules().registered.insert(name, Registered { run, user });
}

/// Whether a host function is registered for `kernel`.
pub fn has_host_function(kernel: &str) -> bool {
    modules().registered.contains_key(kernel)
}

/// Runs the host function registered for `kernel`, if any: `true` when one ran.
///
/// # Safety
/// `params` is what the launch was given: NULL or the kernel's argument pointers.
pub unsafe fn run(kernel: &str, params: *mut *mut c_void, launch: &Launch) -> bool {
    // Copied out: the host function may itself launch or load (never under the lock).
    let Some(r) = modules().registered.get(kernel).copied() else {
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

/// A checked launch of `kernel` on `stream`: kept by the stream's capture (a kernel node, with
/// copies of the arguments when `sizes` says theirs), or made now ([`launch`]); a capture's
/// refusal (invalidated) is the answer.
///
/// # Safety
/// As [`launch`]; `sizes`, when given, are the kernel's declared parameter sizes.
pub unsafe fn issue(
    stream: usize,
    kernel: &str,
    (params, sizes): (*mut *mut c_void, Option<&[usize]>),
    at: &Launch,
) -> Result<(), crate::ops::Code> {
    // The arguments' bytes, when the code says their sizes: kept by a capture for its replays
    // (copied only then: a launch outside one makes none).
    let capturing = crate::graph::is_capturing(stream);
    let args = sizes
        .filter(|_| capturing && !params.is_null())
        .map(|sizes| {
            sizes
                .iter()
                .enumerate()
                .map(|(i, &size)| {
                    // SAFETY: `params[i]` points at argument `i`, of the size its code declares
                    // (the launch's contract).
                    unsafe { core::slice::from_raw_parts(*params.add(i) as *const u8, size) }
                        .to_vec()
                })
                .collect()
        });
    let op = crate::ops::Op::Kernel {
        name: kernel.to_owned(),
        launch: *at,
        args,
    };
    match crate::graph::capture(stream, op) {
        Ok(captured) => captured,
        Err(_) => {
            // SAFETY: forwarded contract.
            unsafe { launch(kernel, params, at) };
            Ok(())
        }
    }
}

/// A checked launch of `kernel`: the host function registered for it runs (kernels never run
/// on the mock), or the launch is only recorded; the debug log says which.
///
/// # Safety
/// `params` is what the launch was given: NULL or the kernel's argument pointers.
pub unsafe fn launch(kernel: &str, params: *mut *mut c_void, launch: &Launch) {
    // SAFETY: forwarded contract.
    let ran = unsafe { run(kernel, params, launch) };
    crate::unmodelled::launch_line(kernel, launch, ran);
}
