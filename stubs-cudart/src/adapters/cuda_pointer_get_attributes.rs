//! `cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`
//! (cuda_runtime_api.h, driver_types.h `struct cudaPointerAttributes`).
//!
//! - 13.x (13.0 header): 88 bytes — `type`, `device`, `devicePointer`, `hostPointer`, then
//!   `long reserved[8]`; this version's ABI, forwarded.
//! - 11.x and 12.x (11.8, 12.9 headers): 24 bytes, the same four fields without `reserved`.
//!   The adapter asks into the 24-byte layout and copies the four fields; `reserved` is 0.

use super::super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
// Older runtimes are called with 12.9's prototypes (`abi_fns::v12`); 11.x declares the same
// where it exports the name.
use crate::abi_fns;
use crate::abi_types::v12;
use crate::types::{cudaError_t, cudaPointerAttributes};
use core::ffi::c_void;

static OLD: RawFn = RawFn::new(c"cudaPointerGetAttributes");
/// `cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)`,
/// 13.0 layout (88 bytes).
///
/// # Safety
/// `attributes` is NULL or writable for one CUDA 13 `cudaPointerAttributes`.
pub(crate) unsafe extern "C" fn cudaPointerGetAttributes(
    attributes: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        // 11.8 and 12.9 have the same 24-byte layout (v11 == v12).
        Target::Major(11 | 12) => {
            if attributes.is_null() {
                return 1; // cudaErrorInvalidValue
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
            crate::api::abi13::cudaPointerGetAttributes::Forward::call(attributes, ptr)
        },
    }
}
