//! `cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (cuda_runtime_api.h): the
//! same prototype in 11.8, 12.9 and 13.x, but driver_types.h's `struct cudaDeviceProp` differs
//! (728 / 1032 / 1008 bytes), so the name is exported once per ABI. Both versions convert the
//! caller's struct with `cuda_get_device_properties.rs`'s conversions.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! `cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (cuda_runtime_api.h; the
//! same prototype in 11.8, 12.9 and 13.x, driver_types.h `struct cudaDeviceProp` differs):
//!
//! | runtime | `cudaDeviceProp` the runtime reads |
//! |---|---|
//! | 11.x (11.8 header) | 728 bytes |
//! | 12.x (12.9 header; unlike `cudaGetDeviceProperties` there is no `_v2`) | 1032 bytes |
//! | 13.x (13.0 header, the CUDA 13 version's ABI) | 1008 bytes, forwarded |
//!
//! On 11.x / 12.x the caller's 13.x struct is converted field by field into the runtime's
//! layout (a local), with the conversions of `cuda_get_device_properties.rs`: fields 13.0
//! removed are 0 ("no preference"), 13.x fields the older layout lacks are dropped (the
//! runtime could not match on them anyway). A NULL `prop` is passed on as NULL (the runtime's
//! own `cudaErrorInvalidValue`); `*device` is written by the runtime only.
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! `cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` in their CUDA 12 version
//! (`@CUDA_STUBS_CUDART_12`) (cuda_runtime_api.h; the same prototype in 11.8, 12.9 and 13.x,
//! driver_types.h `struct cudaDeviceProp` differs):
//!
//! | runtime | `cudaDeviceProp` the runtime reads |
//! |---|---|
//! | 11.x (11.8 header) | 728 bytes |
//! | 12.x (12.9 header; unlike `cudaGetDeviceProperties` there is no `_v2`), the CUDA 12 version's ABI | 1032 bytes, forwarded |
//! | 13.x (13.0 header) | 1008 bytes |
//!
//! On 11.x / 13.x the caller's 12.9 struct is converted field by field into the runtime's
//! layout (a local), with the conversions of `cuda_get_device_properties.rs`: fields the target
//! layout adds are 0 ("no preference"), fields it lacks are dropped (the runtime could not
//! match on them anyway). A NULL `prop` is passed on as NULL (the runtime's own
//! `cudaErrorInvalidValue`); `*device` is written by the runtime only.

use super::cuda_get_device_properties::{
    v11_input_from_v12, v11_input_from_v13, v12_input_from_v13, v13_input_from_v12,
};
use super::{RawFn, Target, call_raw, target};
use crate::abi_fns;
use crate::abi_types::v12;
use crate::types::{cudaDeviceProp, cudaError_t};
use core::ffi::c_int;

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

static CHOOSE: RawFn = RawFn::new(c"cudaChooseDevice");

/// `cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (13.0 ABI,
/// 1008-byte `cudaDeviceProp`).
///
/// # Safety
/// The CUDA API contract of `cudaChooseDevice`.
pub(crate) unsafe extern "C" fn cudaChooseDevice_abi13(
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
        _ => unsafe { crate::api::cudaChooseDevice_abi13::Forward::call(device, prop) },
    }
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

/// `cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)` (12.9 ABI,
/// 1032-byte `cudaDeviceProp`).
///
/// # Safety
/// The CUDA API contract of `cudaChooseDevice`.
pub(crate) unsafe extern "C" fn cudaChooseDevice_abi12(
    device: *mut c_int,
    prop: *const v12::cudaDeviceProp,
) -> cudaError_t {
    // SAFETY: NULL or readable by contract (only read on 11.x / 13.x).
    let given = || unsafe { prop.as_ref() };
    match target() {
        Target::Major(13) => match given() {
            Some(p) => {
                let new = v13_input_from_v12(p);
                call_raw!(CHOOSE, abi_fns::v13::cudaChooseDevice, (device, &new))
            }
            None => call_raw!(
                CHOOSE,
                abi_fns::v13::cudaChooseDevice,
                (device, core::ptr::null())
            ),
        },
        Target::Major(11) => match given() {
            Some(p) => {
                let old = v11_input_from_v12(p);
                call_raw!(CHOOSE, abi_fns::v11::cudaChooseDevice, (device, &old))
            }
            None => call_raw!(
                CHOOSE,
                abi_fns::v11::cudaChooseDevice,
                (device, core::ptr::null())
            ),
        },
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        _ => unsafe { crate::api::cudaChooseDevice_abi12::Forward::call(device, prop.cast()) },
    }
}
