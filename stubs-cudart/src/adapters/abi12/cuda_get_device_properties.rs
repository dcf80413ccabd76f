//! `cudaGetDeviceProperties@CUDA_STUBS_CUDART_12`: the plain name as a real 12.x runtime exports
//! it, with 11.8's 728-byte `cudaDeviceProp` (driver_types.h): what binaries built against 11.x
//! headers call (12.x headers `#define` the call to `cudaGetDeviceProperties_v2`). The conversions
//! are in `../cuda_get_device_properties.rs`.

use super::super::cuda_get_device_properties::{V11_GET, V13_GET, v11_from_v13};
use super::super::{SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::v11;
use crate::types::{cudaDeviceProp, cudaError_t, cudaErrorInvalidValue};
use core::ffi::c_int;

/// `cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)` (12.x ABI):
/// what a real 12.x runtime exports under the plain name (12.x headers `#define` the
/// call to `_v2`; the plain symbol serves binaries built against 11.x), i.e. 11.8's 728-byte
/// layout. 11.x / 12.x: their own plain export, same layout. 13.x: the runtime's
/// `cudaGetDeviceProperties` (1008 bytes) converted, the fields 13.0 removed read from
/// attributes (a failing query leaves 0).
///
/// # Safety
/// `prop` is NULL or points to writable storage for one CUDA 11 `cudaDeviceProp`.
pub(crate) unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut v11::cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    let out = match target() {
        Target::NoLibrary => return refusal(),
        Target::Major(11 | 12) => {
            return call_raw!(
                V11_GET,
                abi_fns::v11::cudaGetDeviceProperties,
                (prop, device)
            );
        }
        Target::Major(13) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            let mut raw = cudaDeviceProp::default();
            let status = call_raw!(
                V13_GET,
                abi_fns::v13::cudaGetDeviceProperties,
                (&mut raw, device)
            );
            if status != SUCCESS {
                return status;
            }
            v11_from_v13(&raw, device)
        }
        // An unknown major: the gated slot's typed refusal.
        // SAFETY: the slot refuses without calling anything on a major it does not know.
        Target::Major(_) => {
            return unsafe {
                crate::api::abi12::cudaGetDeviceProperties::Forward::call(prop.cast(), device)
            };
        }
    };
    // SAFETY: `prop` is non-NULL and, by contract, writable for one struct.
    unsafe { prop.write(out) };
    SUCCESS
}
