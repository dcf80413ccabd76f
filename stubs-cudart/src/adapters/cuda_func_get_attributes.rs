//! `cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)`
//! (cuda_runtime_api.h, driver_types.h `struct cudaFuncAttributes`).
//!
//! - 12.x and 13.x (12.9, 13.0 headers): 144 bytes (cluster fields and `reserved[16]`) —
//!   the exported ABI; forwarded.
//! - 11.x (11.8 header): 56 bytes, ending at `maxDynamicSharedSizeBytes` and
//!   `preferredShmemCarveout`. The adapter asks 11.x into its own layout and copies the
//!   shared fields; the cluster fields 11.8 lacks (`clusterDimMustBeSet`,
//!   `requiredClusterWidth/Height/Depth`, `clusterSchedulingPolicyPreference`,
//!   `nonPortableClusterSizeAllowed`) are 0: no cluster launch before 12.0.

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::types::{cudaError_t, cudaFuncAttributes};
use crate::{abi_fns, abi_types::v11};
use core::ffi::c_void;

static V11: RawFn = RawFn::new(c"cudaFuncGetAttributes");

/// `cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)`,
/// 12.0+ layout (144 bytes).
///
/// # Safety
/// `attr` is NULL or writable for one CUDA 13 `cudaFuncAttributes`; `func` as the CUDA API says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncGetAttributes(
    attr: *mut cudaFuncAttributes,
    func: *const c_void,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(11) => {
            if attr.is_null() {
                return 1; // cudaErrorInvalidValue
            }
            let mut raw = v11::cudaFuncAttributes::default();
            let status = call_raw!(V11, abi_fns::v11::cudaFuncGetAttributes, (&mut raw, func));
            if status != SUCCESS {
                return status;
            }
            let out = cudaFuncAttributes {
                sharedSizeBytes: raw.sharedSizeBytes,
                constSizeBytes: raw.constSizeBytes,
                localSizeBytes: raw.localSizeBytes,
                maxThreadsPerBlock: raw.maxThreadsPerBlock,
                numRegs: raw.numRegs,
                ptxVersion: raw.ptxVersion,
                binaryVersion: raw.binaryVersion,
                cacheModeCA: raw.cacheModeCA,
                maxDynamicSharedSizeBytes: raw.maxDynamicSharedSizeBytes,
                preferredShmemCarveout: raw.preferredShmemCarveout,
                ..Default::default()
            };
            // SAFETY: non-NULL and writable by contract.
            unsafe { attr.write(out) };
            SUCCESS
        }
        // SAFETY: forwarded contract; same layout on 12.x and 13.x.
        Target::Major(_) => unsafe { crate::api::cudaFuncGetAttributes::Forward::call(attr, func) },
    }
}
