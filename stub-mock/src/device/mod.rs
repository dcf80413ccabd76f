//! The device model, the mock's bottom layer: the profile (`profile.rs`, with the driver's
//! attribute names, `attributes.rs`) and the model made from it (`model.rs`: devices, their
//! memory and its accounting, sticky faults), the runtime's `cudaDeviceProp` of a device
//! (`device_prop.rs`), contexts and the driver's initialization (`context.rs`), and the handles
//! of streams, events and the rest (`handles.rs`), CUDA arrays and texture and surface
//! objects (`arrays.rs`), and the heap of kernels' `malloc` (`heap.rs`). It imports no other
//! layer.

pub mod arrays;
pub mod attributes;
pub mod context;
pub mod device_prop;
pub mod handles;
pub mod heap;
pub mod model;
pub mod profile;
