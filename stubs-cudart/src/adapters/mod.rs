//! Hand-written ABI adapters: exports whose prototype or struct layout differs between CUDA
//! majors. Each forwards to a runtime with its own ABI unchanged (through the gated slot) and,
//! on another runtime, calls that major's own entry point (found by name with [`RawFn`], never
//! through the gated slot; the machinery is `stub_loader::adapter`'s) and translates the
//! arguments and results. What the loaded runtime cannot express is refused with
//! `cudaErrorNotSupported` (801), outputs untouched.
//!
//! One file per CUDA function (or tight family: the graph-edge calls, the external-memory
//! descriptors), named after it in snake case (`cudaMemAdvise` → `cuda_mem_advise.rs`), holding
//! everything the stub does for that function on every runtime: its module documentation gives
//! each major's prototype and layouts, and the conversions sit beside the entry points that use
//! them in both directions.
//!
//! The names whose prototype differs between 12.x and 13.x headers are exported once per ABI
//! (ELF symbol versions, see `stub_loader::versioned_export!`): `NAME_abi13` is the CUDA 13
//! version (`name@@CUDA_STUBS_CUDART_13`: 13.x's prototype, forwarded to 13.x, translated for
//! 11.x / 12.x) and `NAME_abi12` the CUDA 12 version (`name@CUDA_STUBS_CUDART_12`: 12.9's
//! prototype, forwarded to 11.x / 12.x, translated for 13.x), both in the function's file and
//! re-exported here, where the `cuda_stubs` macro binds them (`adapters = crate::adapters` in the
//! generated `api.rs`); each reaches the real function through its own gated slot,
//! `crate::api::NAME_abiNN::Forward`. The other exports here have one definition (their 12.x
//! and 13.x prototypes agree; only 11.x's differ, or 13.x removed the name) and are
//! `#[no_mangle]`.
//!
//! Rules every adapter keeps: no panic and no output across the C ABI; outputs are written
//! only on success (results are built in a local and copied out last); a missing old entry
//! point is a typed refusal, never a call through NULL.

use crate::types::cudaError_t;
use core::sync::atomic::{AtomicPtr, Ordering};

mod cuda_choose_device;
mod cuda_create_texture_object;
mod cuda_func_get_attributes;
mod cuda_get_device_properties;
mod cuda_get_driver_entry_point;
mod cuda_get_texture_object_texture_desc;
mod cuda_graph_edges;
mod cuda_graph_exec_update;
mod cuda_graph_instantiate;
mod cuda_graph_node_set_params;
mod cuda_import_external_memory;
mod cuda_library_load;
mod cuda_mem_advise;
mod cuda_memcpy_batch_async;
mod cuda_pointer_get_attributes;
mod cuda_register_fat_binary;
mod cuda_stream_get_capture_info;
mod cuda_stream_update_capture_dependencies;
// The driver's version and the devices' architectures, for the device-code adapters.
mod device_code;
mod nvcc_launch_kernel;
// Descriptor conversions the texture / surface adapters of both versions and 11.x's
// `cudaGetTextureObjectTextureDesc` share.
mod resource_desc;

// The versioned exports, where the `cuda_stubs` macro binds them (`NAME_abi13`, `NAME_abi12`).
pub(crate) use cuda_choose_device::{cudaChooseDevice_abi12, cudaChooseDevice_abi13};
pub(crate) use cuda_create_texture_object::{
    cudaCreateSurfaceObject_abi12, cudaCreateSurfaceObject_abi13, cudaCreateTextureObject_abi12,
    cudaCreateTextureObject_abi13, cudaGetSurfaceObjectResourceDesc_abi12,
    cudaGetSurfaceObjectResourceDesc_abi13, cudaGetTextureObjectResourceDesc_abi12,
    cudaGetTextureObjectResourceDesc_abi13, cudaGetTextureObjectResourceViewDesc_abi12,
    cudaGetTextureObjectResourceViewDesc_abi13,
};
pub(crate) use cuda_get_device_properties::{
    cudaGetDeviceProperties_abi12, cudaGetDeviceProperties_abi13,
};
pub(crate) use cuda_graph_edges::{
    cudaGraphAddDependencies_abi12, cudaGraphAddDependencies_abi13, cudaGraphGetEdges_abi12,
    cudaGraphGetEdges_abi13, cudaGraphNodeGetDependencies_abi12,
    cudaGraphNodeGetDependencies_abi13, cudaGraphNodeGetDependentNodes_abi12,
    cudaGraphNodeGetDependentNodes_abi13, cudaGraphRemoveDependencies_abi12,
    cudaGraphRemoveDependencies_abi13,
};
pub(crate) use cuda_graph_node_set_params::{
    cudaGraphAddNode_abi12, cudaGraphAddNode_abi13, cudaGraphExecNodeSetParams_abi12,
    cudaGraphExecNodeSetParams_abi13, cudaGraphNodeSetParams_abi12, cudaGraphNodeSetParams_abi13,
};
pub(crate) use cuda_import_external_memory::{
    cudaExternalMemoryGetMappedBuffer_abi12, cudaExternalMemoryGetMappedBuffer_abi13,
    cudaExternalMemoryGetMappedMipmappedArray_abi12,
    cudaExternalMemoryGetMappedMipmappedArray_abi13, cudaImportExternalMemory_abi12,
    cudaImportExternalMemory_abi13, cudaImportExternalSemaphore_abi12,
    cudaImportExternalSemaphore_abi13, cudaSignalExternalSemaphoresAsync_abi12,
    cudaSignalExternalSemaphoresAsync_abi13, cudaSignalExternalSemaphoresAsync_ptsz_abi12,
    cudaSignalExternalSemaphoresAsync_ptsz_abi13, cudaWaitExternalSemaphoresAsync_abi12,
    cudaWaitExternalSemaphoresAsync_abi13, cudaWaitExternalSemaphoresAsync_ptsz_abi12,
    cudaWaitExternalSemaphoresAsync_ptsz_abi13,
};
pub(crate) use cuda_mem_advise::{
    cudaMemAdvise_abi12, cudaMemAdvise_abi13, cudaMemPrefetchAsync_abi12,
    cudaMemPrefetchAsync_abi13, cudaMemPrefetchAsync_ptsz_abi12, cudaMemPrefetchAsync_ptsz_abi13,
};
pub(crate) use cuda_memcpy_batch_async::{
    cudaMemcpy3DBatchAsync_abi12, cudaMemcpy3DBatchAsync_abi13, cudaMemcpy3DBatchAsync_ptsz_abi12,
    cudaMemcpy3DBatchAsync_ptsz_abi13, cudaMemcpyBatchAsync_abi12, cudaMemcpyBatchAsync_abi13,
    cudaMemcpyBatchAsync_ptsz_abi12, cudaMemcpyBatchAsync_ptsz_abi13,
};
pub(crate) use cuda_pointer_get_attributes::{
    cudaPointerGetAttributes_abi12, cudaPointerGetAttributes_abi13,
};
pub(crate) use cuda_stream_get_capture_info::{
    cudaStreamGetCaptureInfo_abi12, cudaStreamGetCaptureInfo_abi13,
    cudaStreamGetCaptureInfo_ptsz_abi12, cudaStreamGetCaptureInfo_ptsz_abi13,
};
pub(crate) use cuda_stream_update_capture_dependencies::{
    cudaStreamUpdateCaptureDependencies_abi12, cudaStreamUpdateCaptureDependencies_abi13,
    cudaStreamUpdateCaptureDependencies_ptsz_abi12, cudaStreamUpdateCaptureDependencies_ptsz_abi13,
};

// The machinery every stub's adapters share (`stub_loader::adapter`).
pub(crate) use stub_loader::{Target, call_raw};

/// The runtime as the adapters see it: [`crate::LIBRARY`] and the spec's typed errors.
pub(crate) enum Runtime {}

impl stub_loader::Adapted for Runtime {
    fn library() -> &'static stub_loader::Library {
        &crate::LIBRARY
    }
    const ERRORS: stub_spec::TypedErrors = stub_spec::libraries::CUDART.errors;
}

/// An entry point of the loaded runtime looked up by name once, ungated.
pub(crate) type RawFn = stub_loader::RawFn<Runtime>;

/// `cudaSuccess`, short for the adapters' many comparisons.
pub(crate) const SUCCESS: cudaError_t = crate::types::cudaSuccess;

/// The loaded runtime's major, searching for it on the first call.
pub(crate) fn target() -> Target {
    <Runtime as stub_loader::Adapted>::target()
}

/// `cudaErrorStubLibrary` (34) without a runtime, else `cudaErrorNotSupported` (801); recorded
/// as the calling thread's last error, as the generated fallbacks do.
pub(crate) fn refusal() -> cudaError_t {
    <Runtime as stub_loader::Adapted>::refusal()
}

/// Defines an export and its `_ptsz` twin from one body: the same call on the per-thread default
/// stream (code built with `--default-stream per-thread` calls the `_ptsz` name). In the body,
/// each `$var` is its first value in the plain export and its second in the `_ptsz` one (what
/// differs: the `RawFn`s and the gated `Forward::call` each variant calls). The docs describe
/// the plain export; `#[unsafe(no_mangle)]`, when given, applies to both.
macro_rules! with_ptsz {
    (
        $(#[doc = $doc:literal])*
        #[unsafe(no_mangle)]
        $($rest:tt)*
    ) => {
        $crate::adapters::with_ptsz!(@emit [#[unsafe(no_mangle)]] $(#[doc = $doc])* $($rest)*);
    };
    (@emit [$($shared:tt)*]
        $(#[doc = $doc:literal])*
        $vis:vis unsafe extern "C" fn $name:ident / $ptsz:ident(
            $($arg:ident: $ty:ty),* $(,)?
        ) -> $ret:ty
        where { $($var:ident = $plain:expr, $per_thread:expr;)* }
        $body:block
    ) => {
        $(#[doc = $doc])*
        $($shared)*
        #[allow(clippy::too_many_arguments)]
        $vis unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            $(let $var = $plain;)*
            $body
        }

        #[doc = concat!(
            "`", stringify!($ptsz), "`: [`", stringify!($name),
            "`] with the per-thread default stream."
        )]
        ///
        /// # Safety
        #[doc = concat!("The CUDA API contract of `", stringify!($name), "`.")]
        $($shared)*
        #[allow(clippy::too_many_arguments)]
        $vis unsafe extern "C" fn $ptsz($($arg: $ty),*) -> $ret {
            $(let $var = $per_thread;)*
            $body
        }
    };
    ($($rest:tt)*) => {
        $crate::adapters::with_ptsz!(@emit [] $($rest)*);
    };
}
pub(crate) use with_ptsz;

/// A zeroed (default) `cudaGraphEdgeData` array of at least `n` entries, read-only and valid
/// for the life of the process: what older runtimes, which only have default edges, would
/// describe. `None` only if `n` is absurd or memory is exhausted.
///
/// One shared buffer that only grows: a larger request installs a larger zeroed block (its
/// capacity in a header before the entries) and leaks the old one, which callers may still be
/// reading (at most twice the largest request).
pub(crate) fn default_edges(n: usize) -> Option<*const crate::types::cudaGraphEdgeData> {
    use crate::types::cudaGraphEdgeData;
    /// Capacity word, padded so that the entries keep a 16-byte alignment.
    const HEADER: usize = 16;
    static EDGES: AtomicPtr<usize> = AtomicPtr::new(core::ptr::null_mut());
    if n > (1 << 24) {
        return None;
    }
    let n = n.max(1);
    let size = core::mem::size_of::<cudaGraphEdgeData>();
    loop {
        let have = EDGES.load(Ordering::Acquire);
        // SAFETY: a published block starts with its capacity, never written again.
        let capacity = if have.is_null() { 0 } else { unsafe { *have } };
        if capacity >= n {
            // SAFETY: the entries follow the header inside the same allocation.
            return Some(unsafe { have.cast::<u8>().add(HEADER) }.cast());
        }
        let want = n.max(64).next_power_of_two();
        // SAFETY: calloc of the header and `want` zeroed entries (the default
        // cudaGraphEdgeData is all zero bytes).
        let fresh: *mut usize = unsafe { libc::calloc(1, HEADER + want * size) }.cast();
        if fresh.is_null() {
            return None;
        }
        // SAFETY: fresh is a new, private, suitably aligned block.
        unsafe { fresh.write(want) };
        // Replaces exactly the block seen too small, so the installed block only grows.
        if EDGES
            .compare_exchange(have, fresh, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // SAFETY: fresh came from calloc above and was never shared.
            unsafe { libc::free(fresh.cast()) };
        }
    }
}
