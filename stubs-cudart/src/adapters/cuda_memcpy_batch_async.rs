//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (and their `_ptsz` twins),
//! cuda_runtime_api.h.
//!
//! - 13.x (13.0 header): `cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream)`
//!   and `cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream)`
//!   — this version's ABI; forwarded.
//! - 12.8+ (12.9 header): the same with a `size_t *failIdx` before `stream` (before `flags` for
//!   the 3D form): `cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, size_t *failIdx, stream)`,
//!   `cudaMemcpy3DBatchAsync(numOps, opList, size_t *failIdx, flags, stream)`. The structs
//!   (`cudaMemcpyAttributes` 24 B, `cudaMemcpy3DBatchOp` 112 B) have the same layout in 12.9 and
//!   13.x (the manifest's difference is `cudaMemLocation`'s anonymous union, same 8 bytes). The
//!   adapter passes a local `failIdx`, which 13.x no longer reports, and drops it.
//! - 11.x: neither exists (12.8+): `cudaErrorNotSupported` (801). Not emulated with one
//!   `cudaMemcpyAsync` per copy: the batch's `srcAccessOrder` (e.g.
//!   `cudaMemcpySrcAccessOrderDuringApiCall` / `Any`, which let the caller reuse or free the
//!   source when the call returns), location hints and its all-or-nothing validation have no
//!   equivalent there, and a failure halfway would leave earlier copies enqueued.
//! - 12.0–12.7: the runtime lacks the symbol: 801 as well.

use super::super::{RawFn, Target, call_raw, refusal, target};
// A 12.x runtime is called with its own prototypes (`abi_fns::v12`).
use crate::abi_fns;
use crate::types::{cudaError_t, cudaMemcpy3DBatchOp, cudaMemcpyAttributes, cudaStream_t};
use core::ffi::{c_ulonglong, c_void};

static BATCH: RawFn = RawFn::new(c"cudaMemcpyBatchAsync");
static BATCH_PTSZ: RawFn = RawFn::new(c"cudaMemcpyBatchAsync_ptsz");
static BATCH_3D: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync");
static BATCH_3D_PTSZ: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync_ptsz");

/// Defines one `cudaMemcpyBatchAsync` export: 12.x with a local `failIdx`, 11.x refused.
macro_rules! batch {
    ($name:ident, $raw:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// The CUDA API contract of `cudaMemcpyBatchAsync`.
        #[allow(clippy::too_many_arguments)]
        pub(crate) unsafe extern "C" fn $name(
            dsts: *const *mut c_void,
            srcs: *const *const c_void,
            sizes: *const usize,
            count: usize,
            attrs: *mut cudaMemcpyAttributes,
            attrsIdxs: *mut usize,
            numAttrs: usize,
            stream: cudaStream_t,
        ) -> cudaError_t {
            match target() {
                Target::Major(11) => refusal(),
                Target::Major(12) => {
                    let mut fail_idx: usize = usize::MAX;
                    call_raw!(
                        $raw,
                        abi_fns::v12::cudaMemcpyBatchAsync,
                        (
                            // 12.9 declares the three arrays without `const` (same ABI).
                            dsts.cast_mut(),
                            srcs.cast_mut().cast(),
                            sizes.cast_mut(),
                            count,
                            attrs,
                            attrsIdxs,
                            numAttrs,
                            &mut fail_idx,
                            stream
                        )
                    )
                }
                // SAFETY: forwarded contract (13.x, or the typed refusal).
                _ => unsafe {
                    crate::api::abi13::$name::Forward::call(
                        dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream,
                    )
                },
            }
        }
    };
}

/// Defines one `cudaMemcpy3DBatchAsync` export: 12.x with a local `failIdx`, 11.x refused.
macro_rules! batch_3d {
    ($name:ident, $raw:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// The CUDA API contract of `cudaMemcpy3DBatchAsync`.
        pub(crate) unsafe extern "C" fn $name(
            numOps: usize,
            opList: *mut cudaMemcpy3DBatchOp,
            flags: c_ulonglong,
            stream: cudaStream_t,
        ) -> cudaError_t {
            match target() {
                Target::Major(11) => refusal(),
                Target::Major(12) => {
                    let mut fail_idx: usize = usize::MAX;
                    call_raw!(
                        $raw,
                        abi_fns::v12::cudaMemcpy3DBatchAsync,
                        (numOps, opList, &mut fail_idx, flags, stream)
                    )
                }
                // SAFETY: forwarded contract (13.x, or the typed refusal).
                _ => unsafe {
                    crate::api::abi13::$name::Forward::call(numOps, opList, flags, stream)
                },
            }
        }
    };
}

batch!(
    cudaMemcpyBatchAsync,
    BATCH,
    "`cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream)` (13.0 ABI)."
);
batch!(
    cudaMemcpyBatchAsync_ptsz,
    BATCH_PTSZ,
    "`cudaMemcpyBatchAsync` with the per-thread default stream."
);
batch_3d!(
    cudaMemcpy3DBatchAsync,
    BATCH_3D,
    "`cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream)` (13.0 ABI)."
);
batch_3d!(
    cudaMemcpy3DBatchAsync_ptsz,
    BATCH_3D_PTSZ,
    "`cudaMemcpy3DBatchAsync` with the per-thread default stream."
);
