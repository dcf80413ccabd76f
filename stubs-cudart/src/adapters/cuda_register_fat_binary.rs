//! `__cudaRegisterFatBinary` (crt/host_runtime.h, nvcc 11.x – 13.x: `void
//! **__cudaRegisterFatBinary(void *fatCubin)`, called by every nvcc-built program's static
//! initialisers with its `__fatBinC_Wrapper_t`): a fat binary whose only code for a device is
//! PTX newer than the driver (a program built by a newer nvcc with
//! `-gencode arch=compute_90,code=compute_90`) is registered as a copy with a CUBIN for each
//! device architecture put first, made by nvJitLink (`stub_loader::device_code`), so its
//! kernels run on the older driver; the copy and its wrapper live as long as the process.
//!
//! What it costs a program the driver serves: its fat binary's entry headers are read and the
//! driver's version asked once (`cudaDriverGetVersion`, which loads the runtime the first
//! registration loads anyway); the devices are asked only when some PTX is too new.
//! Relocatable device code (wrapper version 2) is passed on.
//!
//! Returns the runtime's handle; NULL without a runtime (recorded as the thread's last error).

use super::device_code::{every_sm, reconcile_for};
use core::ffi::c_void;
use stub_loader::device_code::{
    FATBIN_WRAPPER_MAGIC, FatbinWrapper, Image, JitOptions, fatbin_with_cubins, wrapped_fatbin,
};

/// The wrapper to register instead of `fat_cubin`, when the stub made CUBINs for it.
///
/// # Safety
/// `fat_cubin` is what nvcc passes: NULL or a `__fatBinC_Wrapper_t` and its fat binary.
unsafe fn reconciled(fat_cubin: *mut c_void) -> Option<*mut c_void> {
    // SAFETY: caller's contract.
    let wrapper = unsafe { fat_cubin.cast::<FatbinWrapper>().as_ref()? };
    if wrapper.magic as u32 != FATBIN_WRAPPER_MAGIC || wrapper.version != 1 {
        return None;
    }
    // SAFETY: caller's contract.
    let fat = unsafe { wrapped_fatbin(fat_cubin)? };
    let made = reconcile_for(
        "__cudaRegisterFatBinary",
        Image::Fatbin(fat),
        &every_sm,
        &JitOptions::NONE,
    );
    if made.is_empty() {
        return None;
    }
    let data: &'static [u64] =
        alloc::boxed::Box::leak(fatbin_with_cubins(&made, Some(fat)).into_boxed_slice());
    let copy = alloc::boxed::Box::leak(alloc::boxed::Box::new(FatbinWrapper {
        data: data.as_ptr(),
        ..*wrapper
    }));
    Some((copy as *mut FatbinWrapper).cast())
}

/// `void **__cudaRegisterFatBinary(void *fatCubin)`: see the module docs.
///
/// # Safety
/// nvcc's contract: `fatCubin` is its `__fatBinC_Wrapper_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void {
    // SAFETY: forwarded contract.
    let registered = unsafe { reconciled(fatCubin) }.unwrap_or(fatCubin);
    // SAFETY: forwarded contract (or the stub's copy, of the same layout).
    unsafe { crate::api::__cudaRegisterFatBinary::Forward::call(registered) }
}
