//! Every function of the runtime, the driver and NVML that the mock does not model, with its
//! exact prototype (`build.rs` writes them from the stubs' generated declarations): each answers
//! its library's "not supported" code, never a silent success, and says so in the debug log
//! (`CUDA_STUBS_DEBUG`). The runtime's also set the thread's last error, as every failing
//! runtime call does.

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
        crate::runtime::set_last_error(code);
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

/// The debug line of a launch: its kernel and shape, and whether a registered host function ran
/// in its place (kernels never run on the mock).
pub fn launch_line(kernel: &str, launch: &crate::module::Launch, ran: bool) {
    let [gx, gy, gz] = launch.grid;
    let [bx, by, bz] = launch.block;
    let what = if ran {
        "ran its registered host function"
    } else {
        "recorded, not run (kernels do not run on the mock device)"
    };
    stub_loader::debug_line(
        "mock",
        format_args!(
            "launch {kernel}<<<({gx},{gy},{gz}),({bx},{by},{bz}),{}>>> on device {}: {what}",
            launch.shared_mem, launch.device
        ),
    );
}

/// The debug line of a graph's replay of a captured launch whose kernel has a registered host
/// function: not run, since the capture kept no arguments to give it.
pub fn kept_launch_line(kernel: &str, launch: &crate::module::Launch) {
    stub_loader::debug_line(
        "mock",
        format_args!(
            "graph launch of {kernel} on device {}: not supported (a captured launch keeps no \
             arguments for its registered host function)",
            launch.device
        ),
    );
}
