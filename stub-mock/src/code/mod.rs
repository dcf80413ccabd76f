//! Device code and launches, over the device model (`device/`): the images the driver loads
//! (`image.rs`) and their kernels' parameters (`kernel_params.rs`), the driver's modules and
//! functions (`module.rs`), the fat binaries and device variables nvcc's code registers with
//! the runtime (`fatbins.rs`, `variables.rs`), and a launch made (`launch.rs`: its checks and
//! [`launch::run_kernel`], where the kernel executor is to be called). It imports only
//! `device/` (and the C types); never the queue or the API faces.

pub mod fatbins;
pub mod image;
pub mod kernel_params;
pub mod launch;
pub mod module;
pub mod variables;
