//! nvcc's kernel launch: `__cudaGetKernel`, `__cudaLaunchKernel`, `__cudaLaunchKernel_ptsz`
//! (declared in crt/device_functions.h of nvcc 12.x/13.x; not in cuda_runtime_api.h).
//!
//! For `k<<<grid, block, smem, stream>>>(args)` nvcc 12.x/13.x emits host code that calls
//! `__cudaPushCallConfiguration`, then, in the kernel's host stub (crt/host_runtime.h),
//! `__cudaGetKernel(&handle, hostFun)` once (a function-local static), then
//! `__cudaPopCallConfiguration(&grid, &block, &smem, &stream)` and
//! `(void)__cudaLaunchKernel(handle, grid, block, args, smem, stream)` —
//! `__cudaLaunchKernel_ptsz` when compiled with `--default-stream per-thread`:
//!
//! - `cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)`
//! - `cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream)`
//!
//! libcudart 12.9 and 13.x export all three; 11.x exports none (nvcc 11.x launched through
//! `cudaLaunchKernel(hostFun, …)`, which every major still has). On a runtime that has
//! `__cudaGetKernel` the three are forwarded unchanged. On one that lacks it they are translated:
//! the handle `__cudaGetKernel` hands back is the host function itself, and
//! `__cudaLaunchKernel(handle, …)` becomes `cudaLaunchKernel(handle, …)` (`_ptsz` →
//! `cudaLaunchKernel_ptsz`), with the same grid, block, arguments, shared memory and stream.
//! The choice is made once per process from the bound runtime, so a handle never reaches a
//! function of the other path. The translated launch goes through the `cudaLaunchKernel` slot:
//! `CUDA_STUBS_TRACE=cudaLaunchKernel` shows `<<<>>>` launches on 11.x.
//!
//! With no runtime, each returns `cudaErrorStubLibrary` (34) and records it as the thread's last
//! error: nvcc's code discards the launch result, and `cudaGetLastError()` must still see it.

use super::{RawFn, Target, refusal, target};
use crate::types::{cudaError_t, cudaErrorInvalidValue, cudaKernel_t, cudaStream_t, dim3};
use core::ffi::c_void;

/// Present in the runtimes that have nvcc's 12.x launch path (12.9, 13.x).
static REAL_GET_KERNEL: RawFn = RawFn::new(c"__cudaGetKernel");

/// How this process launches: `None` with no runtime, `Some(true)` when the runtime lacks
/// nvcc's launch path and the stub translates it.
fn translated() -> Option<bool> {
    match target() {
        Target::NoLibrary => None,
        Target::Major(_) => Some(REAL_GET_KERNEL.get().is_none()),
    }
}

/// `cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)`: the runtime's
/// handle of the kernel whose host stub is `hostFun`; on a runtime without it, `hostFun`
/// itself (see the module documentation). `cudaErrorInvalidValue` (1) for a NULL `kernel`.
///
/// # Safety
/// `kernel` is NULL or valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaGetKernel(
    kernel: *mut cudaKernel_t,
    hostFun: *const c_void,
) -> cudaError_t {
    match translated() {
        None => refusal(),
        // SAFETY: forwarded contract.
        Some(false) => unsafe { crate::api::__cudaGetKernel::Forward::call(kernel, hostFun) },
        Some(true) if kernel.is_null() => {
            stub_loader::set_last_refusal(cudaErrorInvalidValue);
            cudaErrorInvalidValue
        }
        Some(true) => {
            // SAFETY: non-NULL and writable by contract.
            unsafe { kernel.write(hostFun.cast_mut().cast()) };
            0
        }
    }
}

/// A launch entry point with nvcc's prototype (`__cudaLaunchKernel[_ptsz]`'s forwarder).
type ByHandle =
    unsafe fn(cudaKernel_t, dim3, dim3, *mut *mut c_void, usize, cudaStream_t) -> cudaError_t;
/// The same with the host function first (`cudaLaunchKernel[_ptsz]`'s forwarder).
type ByHostFun =
    unsafe fn(*const c_void, dim3, dim3, *mut *mut c_void, usize, cudaStream_t) -> cudaError_t;

/// One launch: `forward` on a runtime with nvcc's launch path, `translated` with the handle as
/// the host function on one without, the typed refusal with no runtime.
///
/// # Safety
/// The CUDA API contract of `cudaLaunchKernel`; `kernel` came from [`__cudaGetKernel`].
// The launch's own six arguments plus the two entry points it chooses between.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn launch(
    forward: ByHandle,
    translated_to: ByHostFun,
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    match translated() {
        None => refusal(),
        // SAFETY: forwarded contract.
        Some(false) => unsafe { forward(kernel, gridDim, blockDim, args, sharedMem, stream) },
        // SAFETY: the handle is the host function (see __cudaGetKernel); same arguments.
        Some(true) => unsafe {
            translated_to(
                kernel.cast_const().cast(),
                gridDim,
                blockDim,
                args,
                sharedMem,
                stream,
            )
        },
    }
}

/// `cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
/// size_t sharedMem, cudaStream_t stream)`: forwarded, or `cudaLaunchKernel(kernel, …)` on a
/// runtime without it. Errors are the runtime's own, or 34 with no runtime.
///
/// # Safety
/// The CUDA API contract of `cudaLaunchKernel`; `kernel` came from [`__cudaGetKernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe {
        launch(
            crate::api::__cudaLaunchKernel::Forward::call,
            crate::api::cudaLaunchKernel::Forward::call,
            kernel,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
        )
    }
}

/// `__cudaLaunchKernel_ptsz`: [`__cudaLaunchKernel`] on the per-thread default stream;
/// translated to `cudaLaunchKernel_ptsz`.
///
/// # Safety
/// As [`__cudaLaunchKernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe {
        launch(
            crate::api::__cudaLaunchKernel_ptsz::Forward::call,
            crate::api::cudaLaunchKernel_ptsz::Forward::call,
            kernel,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
        )
    }
}
