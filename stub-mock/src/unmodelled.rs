//! Every function of the runtime, the driver and NVML that the mock does not model, with its
//! exact prototype (`build.rs` writes them from the stubs' generated declarations): each answers
//! its library's "not supported" code, never a silent success, and says so in the debug log
//! (`CUDA_STUBS_DEBUG`). The runtime's also set the thread's last error (`last_error.rs`), as
//! every failing runtime call does. A leaf: it imports none of the layers, only the two leaves
//! beside it, the C types and the last error (the per-thread variants of modelled functions,
//! which call those functions, are the faces' own: `runtime/per_thread.rs`,
//! `driver/per_thread.rs`).

use core::ffi::CStr;

/// The debug line of a call the mock does not model (`CUDA_STUBS_DEBUG`, read as the stubs read
/// it: `stub_loader::debug_line`).
fn debug_line(name: &CStr, code: u32) {
    stub_loader::debug_line(
        "mock",
        format_args!(
            "{}: not modelled by the mock device: {code} (not supported)",
            name.to_string_lossy()
        ),
    );
}

/// The runtime's unmodelled functions.
#[allow(non_snake_case, clippy::all)]
pub mod cudart {
    use crate::types::cudart::*;

    fn refuse(name: &core::ffi::CStr, code: u32) -> u32 {
        super::debug_line(name, code);
        crate::last_error::set(code);
        code
    }

    include!(concat!(env!("OUT_DIR"), "/unmodelled_cudart.rs"));
}

/// The driver's unmodelled functions.
#[allow(non_snake_case, clippy::all)]
pub mod cuda {
    use crate::types::cuda::*;

    fn refuse(name: &core::ffi::CStr, code: u32) -> u32 {
        super::debug_line(name, code);
        code
    }

    include!(concat!(env!("OUT_DIR"), "/unmodelled_cuda.rs"));
}

/// NVML's unmodelled functions.
#[allow(non_snake_case, clippy::all)]
pub mod nvml {
    use crate::types::nvml::*;

    fn refuse(name: &core::ffi::CStr, code: u32) -> u32 {
        super::debug_line(name, code);
        code
    }

    include!(concat!(env!("OUT_DIR"), "/unmodelled_nvml.rs"));
}

include!(concat!(env!("OUT_DIR"), "/counts.rs"));
