//! `cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)` in the
//! CUDA 12 version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h, driver_types.h `struct
//! cudaPointerAttributes`).
//!
//! - 11.x / 12.x (11.8, 12.9 headers), this version's ABI, forwarded: 24 bytes — `type`,
//!   `device`, `devicePointer`, `hostPointer`.
//! - 13.x (13.0 header): 88 bytes, the same four fields then `long reserved[8]`.
//!
//! On 13.x the adapter asks into a local 88-byte struct and copies the four fields into the
//! caller's 24-byte one, only on success; a NULL `attributes` is `cudaErrorInvalidValue` (1),
//! as every runtime answers. Nothing is refused.

use super::super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::abi_types::v12;
use crate::types::{cudaError_t, cudaPointerAttributes};
use core::ffi::c_void;

static GET: RawFn = RawFn::new(c"cudaPointerGetAttributes");
/// `cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`,
/// 12.9 layout (24 bytes).
///
/// # Safety
/// `attributes` is NULL or writable for one CUDA 12 `cudaPointerAttributes`.
pub(crate) unsafe extern "C" fn cudaPointerGetAttributes(
    attributes: *mut v12::cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => {
            if attributes.is_null() {
                return 1; // cudaErrorInvalidValue
            }
            let mut raw = cudaPointerAttributes::default();
            let status = call_raw!(GET, abi_fns::v13::cudaPointerGetAttributes, (&mut raw, ptr));
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
            crate::api::abi12::cudaPointerGetAttributes::Forward::call(attributes.cast(), ptr)
        },
    }
}
