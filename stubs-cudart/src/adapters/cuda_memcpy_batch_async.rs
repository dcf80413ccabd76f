//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (and their `_ptsz` twins),
//! cuda_runtime_api.h: 12.8+ takes a `size_t *failIdx` that 13.0 dropped, so each name is
//! exported once per ABI.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (and their `_ptsz` twins),
//! cuda_runtime_api.h.
//!
//! - 13.x (13.0 header): `cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream)`
//!   and `cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream)`
//!   — the CUDA 13 version's ABI; forwarded.
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
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (and their `_ptsz` twins) in the CUDA 12
//! version, `@CUDA_STUBS_CUDART_12` (cuda_runtime_api.h).
//!
//! - 12.8+ (12.9 header), the CUDA 12 version's ABI, forwarded: a `size_t *failIdx` before `stream`
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

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::types::{cudaError_t, cudaMemcpy3DBatchOp, cudaMemcpyAttributes, cudaStream_t};
use core::ffi::{c_ulonglong, c_void};

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

static BATCH: RawFn = RawFn::new(c"cudaMemcpyBatchAsync");
static BATCH_PTSZ: RawFn = RawFn::new(c"cudaMemcpyBatchAsync_ptsz");
static BATCH_3D: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync");
static BATCH_3D_PTSZ: RawFn = RawFn::new(c"cudaMemcpy3DBatchAsync_ptsz");

/// Defines one `cudaMemcpyBatchAsync` export: 12.x with a local `failIdx`, 11.x refused.
macro_rules! batch_abi13 {
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
                    crate::api::$name::Forward::call(
                        dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream,
                    )
                },
            }
        }
    };
}

/// Defines one `cudaMemcpy3DBatchAsync` export: 12.x with a local `failIdx`, 11.x refused.
macro_rules! batch_3d_abi13 {
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
                _ => unsafe { crate::api::$name::Forward::call(numOps, opList, flags, stream) },
            }
        }
    };
}

batch_abi13!(
    cudaMemcpyBatchAsync_abi13,
    BATCH,
    "`cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream)` (13.0 ABI)."
);
batch_abi13!(
    cudaMemcpyBatchAsync_ptsz_abi13,
    BATCH_PTSZ,
    "`cudaMemcpyBatchAsync` with the per-thread default stream."
);
batch_3d_abi13!(
    cudaMemcpy3DBatchAsync_abi13,
    BATCH_3D,
    "`cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream)` (13.0 ABI)."
);
batch_3d_abi13!(
    cudaMemcpy3DBatchAsync_ptsz_abi13,
    BATCH_3D_PTSZ,
    "`cudaMemcpy3DBatchAsync` with the per-thread default stream."
);

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

/// `SIZE_MAX` into a non-NULL `failIdx` when `status` is an error.
fn report_failure(status: cudaError_t, failIdx: *mut usize) -> cudaError_t {
    if status != SUCCESS && !failIdx.is_null() {
        // SAFETY: non-NULL and writable by the 12.8 contract.
        unsafe { failIdx.write(usize::MAX) };
    }
    status
}

/// Defines one `cudaMemcpyBatchAsync` export.
macro_rules! batch_abi12 {
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
                    crate::api::$name::Forward::call(
                        dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, stream,
                    )
                },
            }
        }
    };
}

/// Defines one `cudaMemcpy3DBatchAsync` export.
macro_rules! batch_3d_abi12 {
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
                    crate::api::$name::Forward::call(numOps, opList, failIdx, flags, stream)
                },
            }
        }
    };
}

batch_abi12!(cudaMemcpyBatchAsync_abi12, BATCH);
batch_abi12!(cudaMemcpyBatchAsync_ptsz_abi12, BATCH_PTSZ);
batch_3d_abi12!(cudaMemcpy3DBatchAsync_abi12, BATCH_3D);
batch_3d_abi12!(cudaMemcpy3DBatchAsync_ptsz_abi12, BATCH_3D_PTSZ);
