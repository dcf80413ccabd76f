//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (and their `_ptsz` twins) in the CUDA 12
//! version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h).
//!
//! - 12.8+ (12.9 header), this version's ABI, forwarded: a `size_t *failIdx` before `stream`
//!   (before `flags` for the 3D form):
//!   `cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, cudaStream_t stream)`,
//!   `cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, size_t *failIdx, unsigned long long flags, cudaStream_t stream)`.
//! - 13.x (13.0 header): the same without `failIdx`. `cudaMemcpyAttributes` (24 B) and
//!   `cudaMemcpy3DBatchOp` (112 B) have the same layout in 12.9 and 13.x.
//! - 11.x, 12.0–12.7: the runtime has neither (refused by the gated slot / missing symbol).
//!
//! On 13.x the call is made without `failIdx`; 13.x no longer says which copy failed, so on an
//! error a non-NULL `*failIdx` is set to `SIZE_MAX`, which 12.8 documents as "the error does
//! not pertain to a specific copy". On success `*failIdx` is left alone.

use super::super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
// A 13.x runtime is called with its own prototypes (`abi_fns::v13`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaMemcpy3DBatchOp, cudaMemcpyAttributes, cudaStream_t};
use core::ffi::{c_ulonglong, c_void};

static BATCH: RawFn = RawFn::new(c"cudaMemcpyBatchAsync");
static BATCH_PTSZ: RawFn = RawFn::new(c"cudaMemcpyBatchAsync_ptsz");
static BATCH_3D: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync");
static BATCH_3D_PTSZ: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync_ptsz");

/// `SIZE_MAX` into a non-NULL `failIdx` when `status` is an error.
fn report_failure(status: cudaError_t, failIdx: *mut usize) -> cudaError_t {
    if status != SUCCESS && !failIdx.is_null() {
        // SAFETY: non-NULL and writable by the 12.8 contract.
        unsafe { failIdx.write(usize::MAX) };
    }
    status
}

/// Defines one `cudaMemcpyBatchAsync` export.
macro_rules! batch {
    ($name:ident, $raw:expr) => {
        /// `cudaMemcpyBatchAsync` (12.9 ABI, with `failIdx`); 13.x: called without it. See the
        /// module documentation.
        ///
        /// # Safety
        /// The CUDA API contract of `cudaMemcpyBatchAsync`.
        #[allow(clippy::too_many_arguments)]
        pub(crate) unsafe extern "C" fn $name(
            dsts: *mut *mut c_void,
            srcs: *mut *mut c_void,
            sizes: *mut usize,
            count: usize,
            attrs: *mut cudaMemcpyAttributes,
            attrsIdxs: *mut usize,
            numAttrs: usize,
            failIdx: *mut usize,
            stream: cudaStream_t,
        ) -> cudaError_t {
            match target() {
                Target::NoLibrary => refusal(),
                Target::Major(13) => {
                    // 13.x declares the three arrays `const` (same ABI).
                    let status = call_raw!(
                        $raw,
                        abi_fns::v13::cudaMemcpyBatchAsync,
                        (
                            dsts.cast_const(),
                            srcs.cast_const().cast(),
                            sizes.cast_const(),
                            count,
                            attrs,
                            attrsIdxs,
                            numAttrs,
                            stream
                        )
                    );
                    report_failure(status, failIdx)
                }
                // SAFETY: forwarded contract (12.x, or the typed refusal).
                Target::Major(_) => unsafe {
                    crate::api::abi12::$name::Forward::call(
                        dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, stream,
                    )
                },
            }
        }
    };
}

/// Defines one `cudaMemcpy3DBatchAsync` export.
macro_rules! batch_3d {
    ($name:ident, $raw:expr) => {
        /// `cudaMemcpy3DBatchAsync` (12.9 ABI, with `failIdx`); 13.x: called without it. See
        /// the module documentation.
        ///
        /// # Safety
        /// The CUDA API contract of `cudaMemcpy3DBatchAsync`.
        pub(crate) unsafe extern "C" fn $name(
            numOps: usize,
            opList: *mut cudaMemcpy3DBatchOp,
            failIdx: *mut usize,
            flags: c_ulonglong,
            stream: cudaStream_t,
        ) -> cudaError_t {
            match target() {
                Target::NoLibrary => refusal(),
                Target::Major(13) => {
                    let status = call_raw!(
                        $raw,
                        abi_fns::v13::cudaMemcpy3DBatchAsync,
                        (numOps, opList, flags, stream)
                    );
                    report_failure(status, failIdx)
                }
                // SAFETY: forwarded contract (12.x, or the typed refusal).
                Target::Major(_) => unsafe {
                    crate::api::abi12::$name::Forward::call(numOps, opList, failIdx, flags, stream)
                },
            }
        }
    };
}

batch!(cudaMemcpyBatchAsync, BATCH);
batch!(cudaMemcpyBatchAsync_ptsz, BATCH_PTSZ);
batch_3d!(cudaMemcpy3DBatchAsync, BATCH_3D);
batch_3d!(cudaMemcpy3DBatchAsync_ptsz, BATCH_3D_PTSZ);
