//! Adapters of the `abi-12` build: the stub exports CUDA 12.9's prototypes and layouts (for
//! programs compiled against 12.x headers) and translates the calls whose 12.x ABI differs on a
//! 13.x runtime — the reverse of the sibling adapters, which translate CUDA 13's ABI for 11.x /
//! 12.x runtimes. On 12.x (and on 11.x where 11.8 has the same prototype) each forwards
//! unchanged through the gated slot; `cudaChooseDevice` and the texture calls also convert
//! for 11.x. What 13.x cannot express is refused with `cudaErrorNotSupported` (801), outputs
//! untouched. One file per function family; the plain `cudaGetDeviceProperties` of this build
//! is in `../cuda_get_device_properties.rs`, and the calls whose 12.x and 13.x prototypes agree
//! (`cudaGraphInstantiate` …) use the default build's adapters.

mod cuda_choose_device;
mod cuda_create_texture_object;
mod cuda_graph_edges;
mod cuda_graph_node_params;
mod cuda_import_external_memory;
mod cuda_mem_advise;
mod cuda_memcpy_batch_async;
mod cuda_pointer_get_attributes;
mod cuda_stream_get_capture_info;
mod cuda_stream_update_capture_dependencies;
