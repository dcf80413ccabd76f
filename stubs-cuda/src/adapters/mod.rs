//! Hand-written driver adapters: entry points whose struct layout differs between the CUDA 13.x
//! headers the stub exports and an older driver major (`cu_graph_node_params.rs`), and the
//! loads of device code, whose PTX may be newer than the driver (`cu_module_load.rs`,
//! `cu_library_load.rs`, the links of `cu_link.rs`, with `device.rs`). Each adapter forwards to a 13.x (or
//! newer) driver unchanged; on an older driver it checks or converts the arguments to that
//! major's layout and calls the same ABI name, resolved as the generated stubs would
//! ([`RawFn`]: `cuGetProcAddress` at the ABI's version, else `dlsym`), never through the gated
//! slot (the machinery is `stub_loader::adapter`'s, shared with the runtime's adapters). What
//! the older driver cannot express is refused with `CUDA_ERROR_NOT_SUPPORTED` (801) before
//! anything is called or written.
//!
//! Rules every adapter keeps: no panic across the C ABI; a missing entry point is a typed
//! refusal, never a call through NULL.

use crate::types::CUresult;

mod cu_graph_node_params;
mod cu_library_load;
mod cu_link;
mod cu_module_load;
mod device;

// The machinery every stub's adapters share (`stub_loader::adapter`).
pub(crate) use stub_loader::{Target, call_raw};

/// The driver as the adapters see it: [`crate::LIBRARY`] and the spec's typed errors.
pub(crate) enum Driver {}

impl stub_loader::Adapted for Driver {
    fn library() -> &'static stub_loader::Library {
        &crate::LIBRARY
    }
    const ERRORS: stub_spec::TypedErrors = stub_spec::libraries::CUDA.errors;
}

/// One driver entry point, looked up by ABI name on first use, ungated.
pub(crate) type RawFn = stub_loader::RawFn<Driver>;

/// The loaded driver's major, searching for it on the first call.
pub(crate) fn target() -> Target {
    <Driver as stub_loader::Adapted>::target()
}

/// `CUDA_ERROR_STUB_LIBRARY` (34) without a driver, else `CUDA_ERROR_NOT_SUPPORTED` (801).
pub(crate) fn refusal() -> CUresult {
    <Driver as stub_loader::Adapted>::refusal()
}
