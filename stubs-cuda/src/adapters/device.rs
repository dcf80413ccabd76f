//! What the device-code adapters (`cu_module_load.rs`, `cu_library_load.rs`) ask of the driver:
//! its CUDA version (the search's `cuDriverGetVersion`) and the architecture of the device code
//! is loaded for, asked only when some PTX is newer than the driver
//! (`stub_loader::device_code::prepare`).

use super::RawFn;
use crate::abi_fns::v13::{
    cuCtxGetDevice as CtxGetDevice, cuDeviceGet as DeviceGet,
    cuDeviceGetAttribute as DeviceGetAttribute, cuDeviceGetCount as DeviceGetCount,
};
use crate::types::{
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    CUdevice,
};
use alloc::vec::Vec;
use core::ffi::c_void;
use stub_loader::device_code::{Driver, Image, JitOptions, Outcome, prepare};

static CTX_GET_DEVICE: RawFn = RawFn::new(c"cuCtxGetDevice");
static DEVICE_GET: RawFn = RawFn::new(c"cuDeviceGet");
static DEVICE_GET_COUNT: RawFn = RawFn::new(c"cuDeviceGetCount");
static DEVICE_GET_ATTRIBUTE: RawFn = RawFn::new(c"cuDeviceGetAttribute");
/// The mock device's `void cuda_stubs_mock_keep_source(const void *cubin, const void *image)`
/// (`stub-mock/src/lib.rs`); NVIDIA's driver has none.
static MOCK_KEEP_SOURCE: RawFn = RawFn::new(c"cuda_stubs_mock_keep_source");

/// When the stub is bound to the mock device: tells it that `cubin`, which the driver is handed,
/// was made from `image` (PTX text or a fat binary), since the mock runs kernels from their PTX.
/// Nothing with NVIDIA's driver, which exports no such function (one failed lookup, once).
pub(crate) fn tell_mock_source(cubin: &[u8], image: *const c_void) {
    let Some(f) = MOCK_KEEP_SOURCE.get() else {
        return;
    };
    // SAFETY: the mock's export, of this prototype.
    let f: unsafe extern "C" fn(*const c_void, *const c_void) = unsafe { core::mem::transmute(f) };
    // SAFETY: a CUBIN the stub keeps for the process's lifetime and the caller's image.
    unsafe { f(cubin.as_ptr().cast(), image) };
}

/// The bound driver's CUDA version (`cuDriverGetVersion`), 0 when none is bound.
pub(crate) fn driver_version() -> i32 {
    let loaded = crate::LIBRARY.loaded();
    if loaded.is_bound() { loaded.version } else { 0 }
}

/// `device`'s compute capability × 10 (90), `None` when the driver cannot say.
pub(crate) fn sm_of(device: CUdevice) -> Option<u32> {
    let attribute = |which| {
        let mut value = 0;
        // SAFETY: `cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)`.
        let code = super::call_raw!(
            DEVICE_GET_ATTRIBUTE,
            DeviceGetAttribute,
            (&mut value, which, device)
        );
        (code == 0).then_some(value)
    };
    let major = u32::try_from(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?).ok()?;
    let minor = u32::try_from(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?).ok()?;
    Some(major * 10 + minor)
}

/// The current context's device's architecture, `None` without a current context.
pub(crate) fn current_sm() -> Option<u32> {
    let mut device: CUdevice = 0;
    // SAFETY: `cuCtxGetDevice(CUdevice *device)`.
    let code = super::call_raw!(CTX_GET_DEVICE, CtxGetDevice, (&mut device));
    if code != 0 {
        return None;
    }
    sm_of(device)
}

/// The architectures of every device, each once, in device order (a library load is for all
/// of them, context or not).
pub(crate) fn every_sm() -> Vec<u32> {
    let mut count = 0;
    // SAFETY: `cuDeviceGetCount(int *count)`.
    if super::call_raw!(DEVICE_GET_COUNT, DeviceGetCount, (&mut count)) != 0 {
        return Vec::new();
    }
    let mut sms = Vec::new();
    for ordinal in 0..count {
        let mut device: CUdevice = 0;
        // SAFETY: `cuDeviceGet(CUdevice *device, int ordinal)`.
        if super::call_raw!(DEVICE_GET, DeviceGet, (&mut device, ordinal)) != 0 {
            continue;
        }
        if let Some(sm) = sm_of(device).filter(|sm| !sms.contains(sm)) {
            sms.push(sm);
        }
    }
    sms
}

/// [`prepare`] for the bound driver and `device_sm`.
pub(crate) fn prepare_for(
    entry: &str,
    image: Image<'_>,
    device_sm: &dyn Fn() -> Option<u32>,
    options: &JitOptions,
) -> Outcome {
    let cuda_version = driver_version();
    if cuda_version == 0 {
        return Outcome::Pass;
    }
    prepare(
        entry,
        image,
        Driver {
            library: "cuda",
            cuda_version,
            device_sm,
        },
        options,
    )
}
