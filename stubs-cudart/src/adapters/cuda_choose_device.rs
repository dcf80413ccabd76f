//! `cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (cuda_runtime_api.h; the
//! same prototype in 11.8, 12.9 and 13.x, driver_types.h `struct cudaDeviceProp` differs):
//!
//! | runtime | `cudaDeviceProp` the runtime reads |
//! |---|---|
//! | 11.x (11.8 header) | 728 bytes |
//! | 12.x (12.9 header; unlike `cudaGetDeviceProperties` there is no `_v2`) | 1032 bytes |
//! | 13.x (13.0 header, this version's ABI) | 1008 bytes, forwarded |
//!
//! On 11.x / 12.x the caller's 13.x struct is converted field by field into the runtime's
//! layout (a local), with the conversions of `cuda_get_device_properties.rs`: fields 13.0
//! removed are 0 ("no preference"), 13.x fields the older layout lacks are dropped (the
//! runtime could not match on them anyway). A NULL `prop` is passed on as NULL (the runtime's
//! own `cudaErrorInvalidValue`); `*device` is written by the runtime only.

use super::super::cuda_get_device_properties::{v11_input_from_v13, v12_input_from_v13};
use super::super::{RawFn, Target, call_raw, target};
use crate::abi_fns;
use crate::types::{cudaDeviceProp, cudaError_t};
use core::ffi::c_int;

static CHOOSE: RawFn = RawFn::new(c"cudaChooseDevice");

/// `cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (13.0 ABI,
/// 1008-byte `cudaDeviceProp`).
///
/// # Safety
/// The CUDA API contract of `cudaChooseDevice`.
pub(crate) unsafe extern "C" fn cudaChooseDevice(
    device: *mut c_int,
    prop: *const cudaDeviceProp,
) -> cudaError_t {
    // SAFETY: NULL or readable by contract (only read on 11.x / 12.x).
    let given = || unsafe { prop.as_ref() };
    match target() {
        Target::Major(12) => match given() {
            Some(p) => {
                let old = v12_input_from_v13(p);
                call_raw!(CHOOSE, abi_fns::v12::cudaChooseDevice, (device, &old))
            }
            None => call_raw!(
                CHOOSE,
                abi_fns::v12::cudaChooseDevice,
                (device, core::ptr::null())
            ),
        },
        Target::Major(11) => match given() {
            Some(p) => {
                let old = v11_input_from_v13(p);
                call_raw!(CHOOSE, abi_fns::v11::cudaChooseDevice, (device, &old))
            }
            None => call_raw!(
                CHOOSE,
                abi_fns::v11::cudaChooseDevice,
                (device, core::ptr::null())
            ),
        },
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        _ => unsafe { crate::api::abi13::cudaChooseDevice::Forward::call(device, prop) },
    }
}
