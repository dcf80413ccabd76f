//! `cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`
//! (cuda_runtime_api.h): 13.0 appended `long reserved[8]` to driver_types.h's
//! `struct cudaPointerAttributes` (24 → 88 bytes), so the name is exported once per ABI.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! `cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`
//! (cuda_runtime_api.h, driver_types.h `struct cudaPointerAttributes`).
//!
//! - 13.x (13.0 header): 88 bytes — `type`, `device`, `devicePointer`, `hostPointer`, then
//!   `long reserved[8]`; the CUDA 13 version's ABI, forwarded.
//! - 11.x and 12.x (11.8, 12.9 headers): 24 bytes, the same four fields without `reserved`.
//!   The adapter asks into the 24-byte layout and copies the four fields; `reserved` is 0.
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! `cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)` in the
//! CUDA 12 version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h, driver_types.h `struct
//! cudaPointerAttributes`).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), the CUDA 12 version's ABI, forwarded: 24 bytes — `type`,
//!   `device`, `devicePointer`, `hostPointer`.
//! - 13.x (13.0 header): 88 bytes, the same four fields then `long reserved[8]`.
//!
//! On 13.x the adapter asks into a local 88-byte struct and copies the four fields into the
//! caller's 24-byte one, only on success; a NULL `attributes` is `cudaErrorInvalidValue` (1),
//! as every runtime answers. Nothing is refused.

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::v12;
use crate::types::{cudaError_t, cudaErrorInvalidValue, cudaPointerAttributes};
use core::ffi::c_void;

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

static OLD: RawFn = RawFn::new(c"cudaPointerGetAttributes");
/// `cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`,
/// 13.0 layout (88 bytes).
///
/// # Safety
/// `attributes` is NULL or writable for one CUDA 13 `cudaPointerAttributes`.
pub(crate) unsafe extern "C" fn cudaPointerGetAttributes_abi13(
    attributes: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        // 11.8 and 12.9 have the same 24-byte layout (v11 == v12).
        Target::Major(11 | 12) => {
            if attributes.is_null() {
                return cudaErrorInvalidValue;
            }
            let mut raw = v12::cudaPointerAttributes::default();
            let status = call_raw!(OLD, abi_fns::v12::cudaPointerGetAttributes, (&mut raw, ptr));
            if status != SUCCESS {
                return status;
            }
            let out = cudaPointerAttributes {
                type_: raw.type_,
                device: raw.device,
                devicePointer: raw.devicePointer,
                hostPointer: raw.hostPointer,
                ..Default::default()
            };
            // SAFETY: non-NULL and writable by contract.
            unsafe { attributes.write(out) };
            SUCCESS
        }
        // SAFETY: forwarded contract; 13.x has the exported layout.
        Target::Major(_) => unsafe {
            crate::api::cudaPointerGetAttributes_abi13::Forward::call(attributes, ptr)
        },
    }
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

/// `cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`,
/// 12.9 layout (24 bytes).
///
/// # Safety
/// `attributes` is NULL or writable for one CUDA 12 `cudaPointerAttributes`.
pub(crate) unsafe extern "C" fn cudaPointerGetAttributes_abi12(
    attributes: *mut v12::cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => {
            if attributes.is_null() {
                return cudaErrorInvalidValue;
            }
            let mut raw = cudaPointerAttributes::default();
            let status = call_raw!(OLD, abi_fns::v13::cudaPointerGetAttributes, (&mut raw, ptr));
            if status != SUCCESS {
                return status;
            }
            let out = v12::cudaPointerAttributes {
                type_: raw.type_,
                device: raw.device,
                devicePointer: raw.devicePointer,
                hostPointer: raw.hostPointer,
            };
            // SAFETY: non-NULL and writable by contract.
            unsafe { attributes.write(out) };
            SUCCESS
        }
        // SAFETY: forwarded contract; 11.x / 12.x have the exported 24-byte layout.
        Target::Major(_) => unsafe {
            crate::api::cudaPointerGetAttributes_abi12::Forward::call(attributes.cast(), ptr)
        },
    }
}
