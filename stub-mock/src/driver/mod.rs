//! The driver API (`cuda.h`, CUDA 13 ABI) over the device model, one of the mock's three API
//! faces: `cuInit`, devices and their attributes, primary contexts and the current context,
//! memory, modules and launches, streams and events (copies and memsets: `copies.rs`; CUDA
//! arrays, texture and surface objects: `arrays.rs`; graphs and capture: `graph.rs`;
//! hand-built kernel and event nodes, graph updates: `graph_nodes.rs`; memory beyond
//! `cuMemAlloc`: `memory.rs`; functions' attributes and occupancy: `functions.rs`; the
//! entry-point getter, `cuGetProcAddress`: `entry_points.rs`; memcpy nodes of `CUDA_MEMCPY3D`
//! and graph clones: `graph_copies.rs`; default memory pools, stream-ordered memory and graph
//! memory: `mem_pools.rs`; hints (profiler, stream attributes, prefetch): `hints.rs`;
//! conditional nodes, `cuGraphAddNode` and capture into a graph: `graph_conditional.rs`; child
//! graph nodes: `graph_child.rs`;
//! per-thread default stream variants: `per_thread.rs`). Every other status function of the API answers
//! `CUDA_ERROR_NOT_SUPPORTED` (`unmodelled.rs`). It imports the layers below (`device/`,
//! `code/`, `queue/`), never another face.
use crate::device::context;
use crate::device::model::{Kind, Model, model};
use crate::types::cuda::*;
use core::ffi::{c_char, c_int, c_uint, c_void};

mod arrays;
mod copies;
mod entry_points;
mod functions;
mod graph;
mod graph_child;
mod graph_conditional;
mod graph_copies;
mod graph_nodes;
mod hints;
mod mem_pools;
mod memory;
mod per_thread;

/// Runs `f` once `cuInit` has succeeded (`CUDA_ERROR_NOT_INITIALIZED` before).
fn call(f: impl FnOnce(&'static Model) -> CUresult) -> CUresult {
    match model() {
        Ok(m) if context::is_initialized() => f(m),
        _ => CUDA_ERROR_NOT_INITIALIZED,
    }
}

/// Runs `f` with the thread's current context's device (`CUDA_ERROR_INVALID_CONTEXT` without;
/// the device's sticky fault if it had one: `Model::fault`).
pub(crate) fn in_context(f: impl FnOnce(&'static Model, usize) -> CUresult) -> CUresult {
    call(|m| match context::current() {
        Some(d) => match m.faulted(d) {
            Some(code) => code,
            None => f(m, d),
        },
        None => CUDA_ERROR_INVALID_CONTEXT,
    })
}

macro_rules! out {
    ($ptr:expr, $value:expr) => {{
        if $ptr.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, and by the API's contract the caller's storage for one value.
        unsafe { *$ptr = $value };
    }};
}

/// The device `dev` names, or `CUDA_ERROR_INVALID_DEVICE`.
macro_rules! device {
    ($m:expr, $dev:expr) => {
        match $m.device($dev.into()) {
            Some(d) => d,
            None => return CUDA_ERROR_INVALID_DEVICE,
        }
    };
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuInit(flags: c_uint) -> CUresult {
    if flags != 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    match model() {
        Ok(_) => {
            context::initialize();
            CUDA_SUCCESS
        }
        // No profile: as a machine without a device.
        Err(_) => CUDA_ERROR_NO_DEVICE,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CUresult {
    // Answers before cuInit, as the real driver does.
    let v = model().map_or(0, |m| m.profile.cuda_version);
    out!(version, v);
    CUDA_SUCCESS
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CUresult {
    call(|m| {
        out!(count, m.count() as c_int);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGet(device: *mut CUdevice, ordinal: c_int) -> CUresult {
    call(|m| {
        device!(m, ordinal);
        out!(device, ordinal);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    call(|m| {
        let d = device!(m, dev);
        // As the driver: the name cut to `len - 1` bytes, always terminated.
        let len = usize::try_from(len).unwrap_or(0);
        // SAFETY: the caller's buffer of `len` bytes, by the API's contract.
        if unsafe { crate::c_text::write_cut(&d.name, name, len) } {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    value: *mut c_int,
    attrib: CUdevice_attribute,
    dev: CUdevice,
) -> CUresult {
    call(|m| {
        let d = device!(m, dev);
        let Some(v) = d.value(attrib as i32) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        out!(value, v);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: CUdevice,
) -> CUresult {
    call(|m| {
        let d = device!(m, dev);
        let get = |attr: CUdevice_attribute| d.value(attr as i32).unwrap_or(0);
        out!(major, get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
        out!(minor, get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) -> CUresult {
    call(|m| {
        let d = device!(m, dev);
        out!(bytes, d.total_memory as usize);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    call(|m| {
        let d = device!(m, dev);
        out!(
            uuid,
            CUuuid {
                bytes: d.uuid.map(|b| b as c_char)
            }
        );
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    // SAFETY: the same contract.
    unsafe { cuDeviceGetUuid(uuid, dev) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    call(|m| {
        device!(m, dev);
        if ctx.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        context::retain(dev as usize);
        out!(ctx, context::primary(dev as usize) as CUcontext);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    call(|m| {
        device!(m, dev);
        if context::release(dev as usize) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_CONTEXT
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: CUdevice,
    flags: *mut c_uint,
    active: *mut c_int,
) -> CUresult {
    call(|m| {
        device!(m, dev);
        out!(flags, 0);
        out!(active, context::is_active(dev as usize) as c_int);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDevicePrimaryCtxReset_v2(dev: CUdevice) -> CUresult {
    call(|m| {
        device!(m, dev);
        // Its memory, streams, limits, flags and peer access; the retain count stays (the
        // header: "resetting the primary context does not release it").
        m.free_all(dev as usize);
        crate::device::handles::destroy_streams_of(dev as usize);
        context::reset(dev as usize);
        CUDA_SUCCESS
    })
}

/// A limit's refusal as the driver answers it.
fn limit_error(e: context::LimitError) -> CUresult {
    match e {
        context::LimitError::Unsupported => CUDA_ERROR_UNSUPPORTED_LIMIT,
        context::LimitError::Unknown | context::LimitError::Fixed => CUDA_ERROR_INVALID_VALUE,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxGetLimit(value: *mut usize, limit: CUlimit) -> CUresult {
    in_context(|_, d| match context::limit(d, limit) {
        Ok(v) => {
            out!(value, v);
            CUDA_SUCCESS
        }
        Err(e) => limit_error(e),
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxSetLimit(limit: CUlimit, value: usize) -> CUresult {
    in_context(|_, d| match context::set_limit(d, limit, value) {
        Ok(()) => CUDA_SUCCESS,
        Err(e) => limit_error(e),
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxSetCurrent(ctx: CUcontext) -> CUresult {
    call(|_| {
        if ctx.is_null() {
            context::set_current(None);
            return CUDA_SUCCESS;
        }
        match context::device_of(ctx as usize) {
            Some(d) => {
                context::set_current(Some(d));
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_CONTEXT,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut CUcontext) -> CUresult {
    call(|_| {
        let c = context::current().map_or(0, context::primary);
        out!(ctx, c as CUcontext);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxGetDevice(device: *mut CUdevice) -> CUresult {
    in_context(|_, d| {
        out!(device, d as CUdevice);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxSynchronize() -> CUresult {
    crate::code::printf::flush();
    in_context(|_, _| status(crate::queue::graph::unsafe_call()))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    in_context(|m, d| {
        let (f, t) = m.mem_info(d);
        out!(free, f as usize);
        out!(total, t as usize);
        CUDA_SUCCESS
    })
}

/// `cuMemAlloc_v2`: `size` bytes of the current context's device.
fn allocate(ptr: *mut CUdeviceptr, size: usize) -> CUresult {
    in_context(|m, d| {
        if ptr.is_null() || size == 0 {
            // The driver refuses 0 bytes (the runtime answers NULL).
            return CUDA_ERROR_INVALID_VALUE;
        }
        match m.allocate(size, Kind::Device(d)) {
            Ok(p) => {
                out!(ptr, p as CUdeviceptr);
                CUDA_SUCCESS
            }
            Err(_) => CUDA_ERROR_OUT_OF_MEMORY,
        }
    })
}

/// `cuMemFree_v2`.
fn free(ptr: CUdeviceptr) -> CUresult {
    in_context(|m, _| {
        if ptr == 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // A graph's memory stays for its next launch (`graph::owns_allocation`).
        if crate::queue::graph::owns_allocation(ptr as usize) {
            return CUDA_SUCCESS;
        }
        match m.free(ptr as usize, |k| k.device().is_some()) {
            Ok(()) => CUDA_SUCCESS,
            Err(_) => CUDA_ERROR_INVALID_VALUE,
        }
    })
}

/// `Ok` → `CUDA_SUCCESS`, `Err(code)` → the code (the codes the APIs share, `queue/ops.rs`).
pub(crate) fn status<T>(r: Result<T, u32>) -> CUresult {
    match r {
        Ok(_) => CUDA_SUCCESS,
        Err(code) => code,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemAlloc_v2(ptr: *mut CUdeviceptr, size: usize) -> CUresult {
    match crate::queue::graph::unsafe_call() {
        Ok(()) => allocate(ptr, size),
        Err(code) => code,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemFree_v2(ptr: CUdeviceptr) -> CUresult {
    match crate::queue::graph::unsafe_call() {
        Ok(()) => free(ptr),
        Err(code) => code,
    }
}

/// `cuModuleLoadData`'s check and record, for every entry point that loads a module.
fn load_module(module: *mut CUmodule, image: *const c_void) -> CUresult {
    in_context(|m, d| {
        if module.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let get = |a: CUdevice_attribute| {
            m.device(d as i64)
                .and_then(|p| p.value(a as i32))
                .unwrap_or(0)
        };
        let sm = (get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10
            + get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)) as u32;
        // SAFETY: the driver's contract on `image` (NUL-terminated PTX, or an ELF image).
        match unsafe { crate::code::image::load(image.cast(), sm, m.profile.cuda_version) } {
            Ok(kernels) => {
                let h = crate::code::module::add(kernels);
                // SAFETY: checked by `image::load` just above.
                unsafe { crate::code::kernels::keep_module_image(h, image.cast()) };
                out!(module, h as CUmodule);
                CUDA_SUCCESS
            }
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) -> CUresult {
    load_module(module, image)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut CUmodule,
    image: *const c_void,
    _num_options: c_uint,
    _options: *mut CUjit_option,
    _values: *mut *mut c_void,
) -> CUresult {
    // The JIT options (log buffers, optimisation level) change nothing the mock reports.
    load_module(module, image)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleUnload(module: CUmodule) -> CUresult {
    crate::code::printf::flush();
    call(|m| {
        if crate::code::module::remove(module as usize) {
            let owner = crate::code::kernels::Owner::Module(module as usize);
            crate::code::execute::unload(m, owner);
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuModuleGetFunction(
    function: *mut CUfunction,
    module: CUmodule,
    name: *const c_char,
) -> CUresult {
    call(|_| {
        if function.is_null() || name.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: NUL-terminated, by the contract.
        let name = unsafe { core::ffi::CStr::from_ptr(name) }.to_string_lossy();
        match crate::code::module::function(module as usize, &name) {
            Ok(h) => {
                out!(function, h as CUfunction);
                CUDA_SUCCESS
            }
            Err(false) => CUDA_ERROR_INVALID_HANDLE,
            Err(true) => CUDA_ERROR_NOT_FOUND,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLaunchKernel(
    f: CUfunction,
    grid_x: c_uint,
    grid_y: c_uint,
    grid_z: c_uint,
    block_x: c_uint,
    block_y: c_uint,
    block_z: c_uint,
    shared_mem: c_uint,
    stream: CUstream,
    params: *mut *mut c_void,
    _extra: *mut *mut c_void,
) -> CUresult {
    let grid = [grid_x, grid_y, grid_z];
    let block = [block_x, block_y, block_z];
    // SAFETY: forwarded contract.
    unsafe {
        launch_function(
            f,
            (grid, block, shared_mem),
            stream,
            params,
            (false, [0; 3]),
        )
    }
}

/// `CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gridDimX, gridDimY, gridDimZ,
/// blockDimX, blockDimY, blockDimZ, sharedMemBytes, CUstream hStream, void **kernelParams)`
/// (cuda.h): `cuLaunchKernel` of a grid whose blocks are all resident at once, so that they
/// may wait for each other (cooperative groups' `grid.sync()`);
/// `CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE` (720) for more blocks than the device keeps
/// resident.
///
/// # Safety
/// `params` is NULL or the kernel's argument pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLaunchCooperativeKernel(
    f: CUfunction,
    grid_x: c_uint,
    grid_y: c_uint,
    grid_z: c_uint,
    block_x: c_uint,
    block_y: c_uint,
    block_z: c_uint,
    shared_mem: c_uint,
    stream: CUstream,
    params: *mut *mut c_void,
) -> CUresult {
    let grid = [grid_x, grid_y, grid_z];
    let block = [block_x, block_y, block_z];
    // SAFETY: forwarded contract.
    unsafe { launch_function(f, (grid, block, shared_mem), stream, params, (true, [0; 3])) }
}

/// `CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void
/// **kernelParams, void **extra)` (cuda.h): the configuration's launch with its attributes
/// (`code/cooperative.rs`): cooperative or not, in clusters or not
/// (`CUDA_ERROR_INVALID_CLUSTER_SIZE`, 912, for a shape the grid or the limits refuse);
/// programmatic and completion events are not supported (801);
/// the other attributes are hints, ignored. `extra` is ignored, as by `cuLaunchKernel`.
///
/// # Safety
/// `config` is NULL or a configuration whose `attrs` holds `numAttrs` attributes; `params` is
/// NULL or the kernel's argument pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuLaunchKernelEx(
    config: *const CUlaunchConfig,
    f: CUfunction,
    params: *mut *mut c_void,
    _extra: *mut *mut c_void,
) -> CUresult {
    use crate::code::cooperative::{Attribute, attribute};
    if config.is_null() {
        return in_context(|_, _| CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: non-NULL, the caller's configuration.
    let c = unsafe { *config };
    if c.numAttrs > 0 && c.attrs.is_null() {
        return in_context(|_, _| CUDA_ERROR_INVALID_VALUE);
    }
    let mut cooperative = false;
    let mut cluster = [0; 3];
    for i in 0..c.numAttrs as usize {
        // SAFETY: `numAttrs` attributes, by the contract; the value's 64 bytes read as words.
        let (id, value) = unsafe {
            let at = c.attrs.add(i);
            (
                (*at).id,
                *core::ptr::addr_of!((*at).value).cast::<[u32; 16]>(),
            )
        };
        match attribute(id, &value) {
            Attribute::Cooperative(on) => cooperative = on,
            Attribute::Cluster(dims) => cluster = dims,
            Attribute::Unmodelled => return in_context(|_, _| CUDA_ERROR_NOT_SUPPORTED),
            Attribute::Unknown => return in_context(|_, _| CUDA_ERROR_INVALID_VALUE),
            Attribute::Ignored => {}
        }
    }
    let grid = [c.gridDimX, c.gridDimY, c.gridDimZ];
    let block = [c.blockDimX, c.blockDimY, c.blockDimZ];
    // SAFETY: forwarded contract.
    unsafe {
        launch_function(
            f,
            (grid, block, c.sharedMemBytes),
            c.hStream,
            params,
            (cooperative, cluster),
        )
    }
}

/// `cuLaunchKernel`, cooperative or not: a cooperative grid must be resident all at once
/// (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`, 720, for more blocks than occupancy × SMs).
///
/// # Safety
/// `params` is NULL or the kernel's argument pointers.
unsafe fn launch_function(
    f: CUfunction,
    (grid, block, shared_mem): ([u32; 3], [u32; 3], u32),
    stream: CUstream,
    params: *mut *mut c_void,
    (cooperative, cluster): (bool, [u32; 3]),
) -> CUresult {
    in_context(|m, d| {
        let (Some((kernel, sizes)), Some(module)) = (
            crate::code::module::kernel_of(f as usize),
            crate::code::module::module_of(f as usize),
        ) else {
            return CUDA_ERROR_INVALID_HANDLE;
        };
        let owner = crate::code::kernels::Owner::Module(module);
        if !crate::device::handles::is_stream(stream as usize) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        let Some(p) = m.device(d as i64) else {
            return CUDA_ERROR_INVALID_CONTEXT;
        };
        if !crate::code::launch::fits(p, grid, block, shared_mem) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if cooperative {
            match crate::code::cooperative::function_co_resident(
                p, f as usize, grid, block, shared_mem,
            ) {
                Some(true) => {}
                Some(false) => return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                None => return CUDA_ERROR_INVALID_HANDLE,
            }
        }
        let settings = crate::code::kernel_attributes::settings(false, f as usize);
        if let Err(code) = crate::code::cooperative::cluster_fits(p, &settings, grid, cluster) {
            return code;
        }
        let launch = crate::code::launch::Launch {
            grid,
            block,
            shared_mem,
            device: d as c_int,
            cooperative: u32::from(cooperative),
            cluster,
        };
        // SAFETY: `params` as the caller gave it to the driver.
        let args = (params, sizes.as_deref());
        let at = (owner, kernel.as_str());
        match unsafe { crate::queue::launches::issue(m, stream as usize, at, args, &launch) } {
            Ok(()) => CUDA_SUCCESS,
            Err(code) => code,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamCreate(stream: *mut CUstream, flags: c_uint) -> CUresult {
    // SAFETY: the same contract.
    unsafe { cuStreamCreateWithPriority(stream, flags, 0) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamCreateWithPriority(
    stream: *mut CUstream,
    flags: c_uint,
    priority: c_int,
) -> CUresult {
    in_context(
        |_, d| match crate::device::handles::create_stream(d, flags, priority) {
            Some(s) => {
                out!(stream, s as CUstream);
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_VALUE,
        },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamGetPriority(stream: CUstream, priority: *mut c_int) -> CUresult {
    in_context(
        |_, d| match crate::device::handles::stream(stream as usize, d) {
            Some(s) => {
                out!(priority, s.priority);
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_HANDLE,
        },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamGetFlags(stream: CUstream, flags: *mut c_uint) -> CUresult {
    in_context(
        |_, d| match crate::device::handles::stream(stream as usize, d) {
            Some(s) => {
                out!(flags, s.flags);
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_HANDLE,
        },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> CUresult {
    in_context(|_, _| {
        let (l, g) = crate::device::handles::PRIORITY_RANGE;
        // Either may be NULL (the header's "optional").
        // SAFETY: NULL or the caller's int.
        unsafe {
            if let Some(p) = least.as_mut() {
                *p = l;
            }
            if let Some(p) = greatest.as_mut() {
                *p = g;
            }
        }
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamDestroy_v2(stream: CUstream) -> CUresult {
    call(|_| {
        if crate::device::handles::destroy(stream as usize, |h| {
            matches!(h, crate::device::handles::Handle::Stream(_))
        }) {
            crate::queue::stream_attributes::forget(stream as usize);
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamSynchronize(stream: CUstream) -> CUresult {
    crate::code::printf::flush();
    call(|_| {
        if crate::device::handles::is_stream(stream as usize) {
            status(crate::queue::graph::sync(stream as usize))
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

/// `f` in the current context once `stream` is known to be a stream
/// (`CUDA_ERROR_INVALID_HANDLE` otherwise).
pub(crate) fn on_stream(stream: CUstream, f: impl FnOnce(&'static Model) -> CUresult) -> CUresult {
    in_context(|m, _| {
        if crate::device::handles::is_stream(stream as usize) {
            f(m)
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

// Stream-ordered memory: `mem_pools.rs`.

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventCreate(event: *mut CUevent, flags: c_uint) -> CUresult {
    in_context(|_, _| {
        if event.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match crate::device::handles::create_event(flags) {
            Some(h) => {
                out!(event, h as CUevent);
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_VALUE,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventRecord(event: CUevent, stream: CUstream) -> CUresult {
    on_stream(stream, |_| {
        let event = event as usize;
        if !crate::device::handles::is_event(event) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        // In a capture the event marks the stream's place in the graph; outside, the time.
        if !crate::queue::graph::record_event(stream as usize, event) {
            crate::device::handles::record(event);
        }
        CUDA_SUCCESS
    })
}

/// Whether `event` is a live event.
fn is_event(event: CUevent) -> bool {
    matches!(
        crate::device::handles::get(event as usize),
        Some(crate::device::handles::Handle::Event { .. })
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventSynchronize(event: CUevent) -> CUresult {
    crate::code::printf::flush();
    call(|_| {
        if is_event(event) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventQuery(event: CUevent) -> CUresult {
    // SAFETY: no pointer is read.
    unsafe { cuEventSynchronize(event) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventDestroy_v2(event: CUevent) -> CUresult {
    call(|_| {
        if crate::device::handles::destroy(event as usize, |h| {
            matches!(h, crate::device::handles::Handle::Event { .. })
        }) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

/// `cuEventElapsedTime` and `_v2`: one answer (the mock's clock has no resolution limit).
fn elapsed(ms: *mut f32, start: CUevent, end: CUevent) -> CUresult {
    call(|_| {
        // Not events, not recorded yet, or created with CU_EVENT_DISABLE_TIMING.
        let Some(elapsed) = crate::device::handles::elapsed_ms(start as usize, end as usize) else {
            return CUDA_ERROR_INVALID_HANDLE;
        };
        out!(ms, elapsed);
        CUDA_SUCCESS
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventElapsedTime(
    ms: *mut f32,
    start: CUevent,
    end: CUevent,
) -> CUresult {
    elapsed(ms, start, end)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuEventElapsedTime_v2(
    ms: *mut f32,
    start: CUevent,
    end: CUevent,
) -> CUresult {
    elapsed(ms, start, end)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamWaitEvent(
    stream: CUstream,
    event: CUevent,
    _flags: c_uint,
) -> CUresult {
    // Outside a capture the event's work is done when it is recorded: nothing to wait for.
    on_stream(stream, |_| {
        if is_event(event) {
            status(crate::queue::graph::wait_event(
                stream as usize,
                event as usize,
            ))
        } else {
            CUDA_ERROR_INVALID_HANDLE
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuStreamQuery(stream: CUstream) -> CUresult {
    // SAFETY: no pointer is read.
    unsafe { cuStreamSynchronize(stream) }
}

/// `CUresult cuGetErrorName(CUresult error, const char **pStr)`: the board's driver's name of
/// the code; for a code it does not know, NULL written and `CUDA_ERROR_INVALID_VALUE`, as the
/// driver answers (`crate::error_texts`); a NULL `pStr` is `CUDA_ERROR_INVALID_VALUE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGetErrorName(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    // SAFETY: the caller's pointer storage, by cuda.h's contract.
    unsafe { error_text(error, p_str, |t| t.0) }
}

/// `CUresult cuGetErrorString(CUresult error, const char **pStr)`: the board's driver's text of
/// the code ("invalid argument"); as [`cuGetErrorName`] for the rest.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuGetErrorString(error: CUresult, p_str: *mut *const c_char) -> CUresult {
    // SAFETY: as above.
    unsafe { error_text(error, p_str, |t| t.1) }
}

/// # Safety
/// `out` is NULL or writable for one pointer.
unsafe fn error_text(
    error: CUresult,
    out: *mut *const c_char,
    pick: fn((&'static core::ffi::CStr, &'static core::ffi::CStr)) -> &'static core::ffi::CStr,
) -> CUresult {
    if out.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let text = crate::error_texts::driver(error as i32);
    // SAFETY: non-NULL, writable by the contract.
    unsafe { *out = text.map_or(core::ptr::null(), |t| pick(t).as_ptr()) };
    if text.is_some() {
        CUDA_SUCCESS
    } else {
        CUDA_ERROR_INVALID_VALUE
    }
}
