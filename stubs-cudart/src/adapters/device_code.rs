//! What the runtime's device-code adapters (`cuda_library_load.rs`,
//! `cuda_register_fat_binary.rs`) ask of the runtime: the driver's CUDA version
//! (`cudaDriverGetVersion`, asked once) and the devices' architectures, asked only when some PTX
//! is newer than the driver (`stub_loader::device_code::prepare`). The runtime reaches the
//! driver itself, not through the driver stub, so the runtime stub reconciles on its own.

use super::RawFn;
use crate::abi_fns::v13::{
    cudaDeviceGetAttribute as DeviceGetAttribute, cudaDriverGetVersion as DriverGetVersion,
    cudaGetDevice as GetDevice, cudaGetDeviceCount as GetDeviceCount,
};
use crate::types::{cudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMinor};
use alloc::vec::Vec;
use core::sync::atomic::{AtomicI32, Ordering};
use stub_loader::device_code::{Driver, Image, JitOptions, Outcome, newer_than_driver, prepare};

static DRIVER_GET_VERSION: RawFn = RawFn::new(c"cudaDriverGetVersion");
static GET_DEVICE: RawFn = RawFn::new(c"cudaGetDevice");
static GET_DEVICE_COUNT: RawFn = RawFn::new(c"cudaGetDeviceCount");
static DEVICE_GET_ATTRIBUTE: RawFn = RawFn::new(c"cudaDeviceGetAttribute");

/// The driver's CUDA version as the runtime reports it, 0 without a runtime or a driver (asked
/// once: -1 not yet).
fn driver_version() -> i32 {
    static VERSION: AtomicI32 = AtomicI32::new(-1);
    let known = VERSION.load(Ordering::Relaxed);
    if known >= 0 {
        return known;
    }
    let mut version = 0;
    // SAFETY: `cudaError_t cudaDriverGetVersion(int *driverVersion)`.
    let code = super::call_raw!(DRIVER_GET_VERSION, DriverGetVersion, (&mut version));
    let version = if code == 0 { version.max(0) } else { 0 };
    VERSION.store(version, Ordering::Relaxed);
    version
}

/// Device `ordinal`'s compute capability × 10 (90), `None` when the runtime cannot say.
fn sm_of(ordinal: i32) -> Option<u32> {
    let attribute = |which| {
        let mut value = 0;
        // SAFETY: `cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)`.
        let code = super::call_raw!(
            DEVICE_GET_ATTRIBUTE,
            DeviceGetAttribute,
            (&mut value, which, ordinal)
        );
        (code == 0).then_some(value)
    };
    let major = u32::try_from(attribute(cudaDevAttrComputeCapabilityMajor)?).ok()?;
    let minor = u32::try_from(attribute(cudaDevAttrComputeCapabilityMinor)?).ok()?;
    Some(major * 10 + minor)
}

/// The calling thread's current device's architecture.
pub(crate) fn current_sm() -> Option<u32> {
    let mut ordinal = 0;
    // SAFETY: `cudaError_t cudaGetDevice(int *device)`.
    (super::call_raw!(GET_DEVICE, GetDevice, (&mut ordinal)) == 0).then(|| sm_of(ordinal))?
}

/// Every device's architecture, each once, in device order.
pub(crate) fn every_sm() -> Vec<u32> {
    let mut count = 0;
    // SAFETY: `cudaError_t cudaGetDeviceCount(int *count)`.
    if super::call_raw!(GET_DEVICE_COUNT, GetDeviceCount, (&mut count)) != 0 {
        return Vec::new();
    }
    let mut sms = Vec::new();
    for ordinal in 0..count {
        if let Some(sm) = sm_of(ordinal).filter(|sm| !sms.contains(sm)) {
            sms.push(sm);
        }
    }
    sms
}

/// One CUBIN per architecture in `sms` made from `image`'s PTX newer than the driver, with
/// `options`: empty when the driver takes the image (or nothing could be made). The info logs
/// and wall times are reported into `options`.
pub(crate) fn reconcile_for(
    entry: &str,
    image: Image<'_>,
    sms: &dyn Fn() -> Vec<u32>,
    options: &JitOptions,
) -> Vec<(u32, &'static [u8])> {
    let cuda_version = driver_version();
    let mut made = Vec::new();
    if cuda_version == 0 {
        return made;
    }
    // Only PTX newer than the driver needs the devices asked.
    if newer_than_driver(image, cuda_version).is_none() {
        return made;
    }
    let (mut info, mut millis) = (Vec::new(), 0.0);
    for sm in sms() {
        let device = move || Some(sm);
        if let Outcome::Cubin(r) = prepare(
            entry,
            image,
            Driver {
                library: "cudart",
                cuda_version,
                device_sm: &device,
            },
            options,
        ) {
            info.extend_from_slice(&r.info_log);
            millis += r.millis;
            made.push((r.sm, r.cubin));
        }
    }
    if !made.is_empty() {
        options.report(&info, b"", millis);
    }
    made
}
