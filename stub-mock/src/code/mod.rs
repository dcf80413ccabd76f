//! Device code and launches, over the device model (`device/`): the images the driver loads
//! (`image.rs`) and their kernels' parameters (`kernel_params.rs`), the driver's modules and
//! functions (`module.rs`), the kernels' resources and the occupancy they allow
//! (`kernel_attributes.rs`, `occupancy.rs`), the fat binaries and device variables nvcc's code registers with
//! the runtime (`fatbins.rs`, `variables.rs`), and a launch made (a cooperative one's checks and
//! attributes: `cooperative.rs`) (`launch.rs`: its checks and
//! [`launch::run_kernel`]), its PTX run by the kernel executor (`execute.rs` over crate
//! `stub-ptx`: the programs decoded once, `kernels.rs`; device-side `printf`, `printf.rs`; the values kernels give conditional graph
//! nodes, `conditional.rs`). It imports only
//! `device/` (and the C types); never the queue or the API faces.

pub mod conditional;
pub mod cooperative;
pub mod execute;
pub mod fatbins;
pub mod image;
pub mod kernel_attributes;
pub mod kernel_params;
pub mod kernels;
pub mod launch;
pub mod module;
pub mod occupancy;
pub mod printf;
pub mod shape;
pub mod variables;
