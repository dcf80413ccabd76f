//! `cudaGetDeviceProperties@@CUDA_STUBS_CUDART_13`: the plain name with CUDA 13.0's 1008-byte
//! `cudaDeviceProp` (driver_types.h), what a program built against 13.x headers calls. The
//! layouts, and the fields read from attributes, are described in
//! `../cuda_get_device_properties.rs`, which holds the conversions.

use super::super::cuda_get_device_properties::{V12_GET, query_v11, v13_from_v11, v13_from_v12};
use super::super::{SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::v12;
use crate::types::{cudaDeviceProp, cudaError_t, cudaErrorInvalidValue};
use core::ffi::c_int;

/// `cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)`, CUDA 13.0
/// layout (1008 bytes). 13.x: forwarded. 12.x: the runtime's `cudaGetDeviceProperties_v2`
/// (1032 bytes) converted. 11.x: the runtime's `cudaGetDeviceProperties` (728 bytes)
/// converted. See the module documentation for the fields filled from attributes.
///
/// # Safety
/// `prop` is NULL or points to writable storage for one CUDA 13 `cudaDeviceProp`.
pub(crate) unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    let out = match target() {
        Target::NoLibrary => return refusal(),
        Target::Major(12) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            let mut raw = v12::cudaDeviceProp::default();
            let status = call_raw!(
                V12_GET,
                abi_fns::v12::cudaGetDeviceProperties_v2,
                (&mut raw, device)
            );
            if status != SUCCESS {
                return status;
            }
            v13_from_v12(&raw, device)
        }
        Target::Major(11) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            match query_v11(device) {
                Ok(raw) => v13_from_v11(&raw, device),
                Err(status) => return status,
            }
        }
        // 13.x and anything else: the gated slot (forwards on 13, refuses elsewhere).
        // SAFETY: forwarded contract; same prototype and layout.
        Target::Major(_) => {
            return unsafe {
                crate::api::abi13::cudaGetDeviceProperties::Forward::call(prop, device)
            };
        }
    };
    // SAFETY: `prop` is non-NULL and, by contract, writable for one struct.
    unsafe { prop.write(out) };
    SUCCESS
}
