//! The runtime's kernel launches over the device model: nvcc's registration
//! (`__cudaRegisterFatBinary`, `__cudaRegisterFunction`, … of crt/host_runtime.h, which every
//! nvcc-built program's static initialisers call), its `<<<>>>` path
//! (`__cudaPushCallConfiguration`, `__cudaPopCallConfiguration`, `__cudaGetKernel`,
//! `__cudaLaunchKernel`, crt/device_functions.h of nvcc 12.x/13.x), `cudaLaunchKernel`,
//! `cudaLaunchCooperativeKernel` and `cudaLaunchKernelExC` (launch attributes: cooperative,
//! clusters (`cudaErrorInvalidClusterSize` 912 for a shape the grid or the limits refuse); priority and the scheduling hints ignored), CUDA 13 ABI. A registered fat binary's entries are read from their headers; a launch is checked
//! as the runtime checks it (the kernel is registered, its fat binary has code the device runs
//! under the profile's driver: `cudaErrorNoKernelImageForDevice` 209 or
//! `cudaErrorUnsupportedPtxVersion` 222 otherwise; the stream; the configuration against the
//! device's limits: `cudaErrorInvalidConfiguration` 9; a cooperative grid against the blocks
//! the device keeps resident, occupancy × SMs: `cudaErrorCooperativeLaunchTooLarge` 720), then
//! it runs the host function
//! registered for its kernel name (`include/cuda_stubs_mock.h`; nvcc's device name, mangled
//! unless the kernel is `extern "C"`) or, without one, the kernel's PTX on the kernel executor
//! (`code/execute.rs`).

// NVIDIA's parameter names (crt/host_runtime.h), as the prototypes in the docs spell them.
#![allow(non_snake_case)]

use crate::code::cooperative::{self, Attribute};
use crate::code::fatbins;
use crate::code::image::{NO_BINARY_FOR_GPU, fatbin_runs};
use crate::code::launch::{Launch, fits};
use crate::device::handles;
use crate::queue::launches;
use crate::runtime::{call, current};
use crate::types::cudart::*;
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ffi::{c_char, c_int, c_uint, c_void};
use stub_loader::device_code::{fatbin_entries, wrapped_fatbin};
use stub_loader::sync::{Mutex, MutexGuard};

/// A `<<<grid, block, shared_mem, stream>>>` configuration, pushed by nvcc's code before the
/// kernel's host stub pops it.
#[derive(Debug, Clone, Copy)]
struct Config {
    grid: dim3,
    block: dim3,
    shared_mem: usize,
    stream: usize,
}

/// Pushed configurations, with the pushing thread's number (`handles::thread_number`).
static CONFIGS: Mutex<Vec<(usize, Config)>> = Mutex::new(Vec::new());

fn configs() -> MutexGuard<'static, Vec<(usize, Config)>> {
    CONFIGS.lock()
}

/// `void **__cudaRegisterFatBinary(void *fatCubin)`: a handle for nvcc's `__fatBinC_Wrapper_t`
/// (never NULL); its entries are read now, the code chosen at launch.
///
/// # Safety
/// nvcc's contract: `fatCubin` is its wrapper and fat binary.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void {
    // SAFETY: by contract (NULL or a wrapper).
    let image = unsafe { wrapped_fatbin(fatCubin) };
    let entries = image.map_or_else(Vec::new, fatbin_entries);
    let handle = Box::into_raw(Box::new(fatCubin));
    fatbins::register(handle as usize, entries, image);
    handle
}

/// `void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)`: nothing left to do.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// `void __cudaUnregisterFatBinary(void **fatCubinHandle)` (at exit): forgets the fat binary,
/// its kernels and its variables (`code/variables.rs`).
///
/// # Safety
/// `handle` came from [`__cudaRegisterFatBinary`], or is unknown (ignored).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    crate::code::variables::forget(crate::device::model::model().ok(), handle as usize);
    if let Ok(m) = crate::device::model::model() {
        crate::code::execute::unload(m, crate::code::kernels::Owner::Fatbin(handle as usize));
    }
    if fatbins::unregister(handle as usize) {
        // SAFETY: made by `__cudaRegisterFatBinary` from a Box, removed above.
        drop(unsafe { Box::from_raw(handle) });
    }
}

/// `void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
/// const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim,
/// int *wSize)`: kernel `deviceName` of the fat binary, launched by its host stub `hostFun`.
///
/// # Safety
/// `deviceName` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    hostFun: *const c_char,
    _deviceFun: *mut c_char,
    deviceName: *const c_char,
    _thread_limit: c_int,
    _tid: *mut uint3,
    _bid: *mut uint3,
    _bDim: *mut dim3,
    _gDim: *mut dim3,
    _wSize: *mut c_int,
) {
    if deviceName.is_null() || hostFun.is_null() {
        return;
    }
    // SAFETY: non-NULL and NUL-terminated, by the contract.
    let name = unsafe { core::ffi::CStr::from_ptr(deviceName) }
        .to_string_lossy()
        .into_owned();
    fatbins::register_function(handle as usize, hostFun as usize, name);
}

/// `unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
/// cudaStream_t stream)`: 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaPushCallConfiguration(
    gridDim: dim3,
    blockDim: dim3,
    sharedMem: usize,
    stream: cudaStream_t,
) -> c_uint {
    let config = Config {
        grid: gridDim,
        block: blockDim,
        shared_mem: sharedMem,
        stream: stream as usize,
    };
    let me = handles::thread_number();
    configs().push((me, config));
    0
}

/// `cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
/// void *stream)`: the calling thread's last pushed configuration; `cudaErrorMissingConfiguration`
/// (52) when it pushed none, `cudaErrorInvalidValue` for a NULL pointer.
///
/// # Safety
/// Each pointer is NULL or writable (`stream` for one `cudaStream_t`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    gridDim: *mut dim3,
    blockDim: *mut dim3,
    sharedMem: *mut usize,
    stream: *mut c_void,
) -> cudaError_t {
    if gridDim.is_null() || blockDim.is_null() || sharedMem.is_null() || stream.is_null() {
        return cudaErrorInvalidValue;
    }
    let me = handles::thread_number();
    let config = {
        let mut c = configs();
        let at = c.iter().rposition(|(t, _)| *t == me);
        at.map(|i| c.remove(i).1)
    };
    let Some(c) = config else {
        return cudaErrorMissingConfiguration;
    };
    // SAFETY: non-NULL and writable, by the contract.
    unsafe {
        *gridDim = c.grid;
        *blockDim = c.block;
        *sharedMem = c.shared_mem;
        *stream.cast::<usize>() = c.stream;
    }
    cudaSuccess
}

/// `cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)`: the kernel's
/// handle, which on the mock is its host function; `cudaErrorInvalidDeviceFunction` (98) for a
/// function no fat binary registered.
///
/// # Safety
/// `kernel` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaGetKernel(
    kernel: *mut cudaKernel_t,
    hostFun: *const c_void,
) -> cudaError_t {
    call(|_| {
        if kernel.is_null() {
            return cudaErrorInvalidValue;
        }
        if !fatbins::is_function(hostFun as usize) {
            return cudaErrorInvalidDeviceFunction;
        }
        // SAFETY: non-NULL and writable, by the contract.
        unsafe { *kernel = hostFun as cudaKernel_t };
        cudaSuccess
    })
}

/// A launch of the kernel whose host function is `host` (see the module docs).
fn launch(
    host: usize,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared_mem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch_as(
        host,
        (grid, block),
        args,
        shared_mem,
        stream,
        (false, [0; 3]),
    )
}

/// [`launch`], cooperative or not, in clusters or not (the cluster dimensions the launch
/// named, all 0 for none: [`cooperative::cluster_fits`]).
fn launch_as(
    host: usize,
    (grid, block): (dim3, dim3),
    args: *mut *mut c_void,
    shared_mem: usize,
    stream: cudaStream_t,
    (cooperative, cluster): (bool, [u32; 3]),
) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let Some(p) = m.device(d as i64) else {
            return cudaErrorInvalidDevice;
        };
        let Some((entries, kernel, handle)) = fatbins::kernel_of(host) else {
            return cudaErrorInvalidDeviceFunction;
        };
        let sm = p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR") as u32 * 10
            + p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR") as u32;
        if let Err(refusal) = fatbin_runs(&entries, sm, m.profile.cuda_version) {
            return if refusal == NO_BINARY_FOR_GPU {
                cudaErrorNoKernelImageForDevice
            } else {
                cudaErrorUnsupportedPtxVersion
            };
        }
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        let grid = [grid.x, grid.y, grid.z];
        let block = [block.x, block.y, block.z];
        let Ok(shared_mem) = u32::try_from(shared_mem) else {
            return cudaErrorInvalidConfiguration;
        };
        if !fits(p, grid, block, shared_mem) {
            return cudaErrorInvalidConfiguration;
        }
        if cooperative {
            let (device, a, s) = match crate::runtime::functions::kernel(m, host as *const c_void) {
                Ok(k) => k,
                Err(e) => return e,
            };
            if !cooperative::co_resident(&device, &a, &s, grid, block, shared_mem) {
                return cudaErrorCooperativeLaunchTooLarge;
            }
        }
        let settings = crate::code::kernel_attributes::settings(true, host);
        if let Err(code) = cooperative::cluster_fits(p, &settings, grid, cluster) {
            return code;
        }
        let launch = Launch {
            grid,
            block,
            shared_mem,
            device: d as c_int,
            cooperative: u32::from(cooperative),
            cluster,
        };
        // SAFETY: `args` as the caller gave it to the runtime.
        // In a capture, which keeps the arguments: the parameters' sizes, from the CUBIN for
        // the device.
        let sizes = crate::queue::graph::is_capturing(stream as usize)
            .then(|| fatbins::cubin_of(handle, sm))
            .flatten()
            .and_then(|c| crate::code::kernel_params::from_cubin(c, &kernel));
        let args = (args, sizes.as_deref());
        let at = (crate::code::kernels::Owner::Fatbin(handle), kernel.as_str());
        match unsafe { launches::issue(m, stream as usize, at, args, &launch) } {
            Ok(()) => cudaSuccess,
            Err(code) => code,
        }
    })
}

/// `cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void
/// **args, size_t sharedMem, cudaStream_t stream)`: nvcc's launch of `<<<>>>`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch(kernel as usize, gridDim, blockDim, args, sharedMem, stream)
}

/// `__cudaLaunchKernel` of code built with `--default-stream per-thread`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch(kernel as usize, gridDim, blockDim, args, sharedMem, stream)
}

/// `cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
/// size_t sharedMem, cudaStream_t stream)` (cuda_runtime_api.h): `func` is the kernel's host
/// function.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch(func as usize, gridDim, blockDim, args, sharedMem, stream)
}

/// `cudaLaunchKernel` of code built with `--default-stream per-thread`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernel_ptsz(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch(func as usize, gridDim, blockDim, args, sharedMem, stream)
}

/// `cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void
/// **args, size_t sharedMem, cudaStream_t stream)` (cuda_runtime_api.h): a launch whose blocks
/// are all resident at once, so that they may wait for each other (cooperative groups'
/// `grid.sync()`); `cudaErrorCooperativeLaunchTooLarge` (720) for more blocks than the device
/// keeps resident.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    launch_as(
        func as usize,
        (gridDim, blockDim),
        args,
        sharedMem,
        stream,
        (true, [0; 3]),
    )
}

/// `cudaLaunchCooperativeKernel` of code built with `--default-stream per-thread`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchCooperativeKernel_ptsz(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream) }
}

/// `cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void
/// **args)` (cuda_runtime_api.h; `cudaLaunchKernelEx` of cuda_runtime.h is a template over
/// it): the configuration's launch with its attributes: cooperative, in clusters (run by the
/// executor cluster by cluster); the attributes of [`Attribute::Unmodelled`] are not
/// supported (801).
///
/// # Safety
/// `config` is NULL or a configuration whose `attrs` holds `numAttrs` attributes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    if config.is_null() {
        return call(|_| cudaErrorInvalidValue);
    }
    // SAFETY: non-NULL, the caller's configuration.
    let c = unsafe { *config };
    if c.numAttrs > 0 && c.attrs.is_null() {
        return call(|_| cudaErrorInvalidValue);
    }
    let mut cooperative = false;
    let mut cluster = [0; 3];
    for i in 0..c.numAttrs as usize {
        // SAFETY: `numAttrs` attributes, by the contract; the value's 64 bytes read as words.
        let (id, value) = unsafe {
            let at = c.attrs.add(i);
            (
                (*at).id,
                *core::ptr::addr_of!((*at).val).cast::<[u32; 16]>(),
            )
        };
        match cooperative::attribute(id, &value) {
            Attribute::Cooperative(on) => cooperative = on,
            Attribute::Cluster(dims) => cluster = dims,
            Attribute::Unmodelled => return call(|_| cudaErrorNotSupported),
            Attribute::Unknown => return call(|_| cudaErrorInvalidValue),
            Attribute::Ignored => {}
        }
    }
    launch_as(
        func as usize,
        (c.gridDim, c.blockDim),
        args,
        c.dynamicSmemBytes,
        c.stream,
        (cooperative, cluster),
    )
}

/// `cudaLaunchKernelExC` of code built with `--default-stream per-thread`.
///
/// # Safety
/// As [`cudaLaunchKernelExC`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernelExC_ptsz(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaLaunchKernelExC(config, func, args) }
}
