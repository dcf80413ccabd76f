//! The CUDA 12 versions of the names exported once per ABI: `name@CUDA_STUBS_CUDART_12`, what a
//! program compiled against 12.x headers and linked against the link-time stub
//! `libstubs_cudart_abi12.so` calls (the `cuda_stubs` macro binds each re-export below). Each takes
//! 12.9's prototype and layouts and translates the call for a 13.x runtime — the reverse of
//! `../abi13/`, which translates CUDA 13's for 11.x / 12.x runtimes. On 12.x (and on 11.x where
//! 11.8 has the same prototype) each forwards unchanged through its gated slot; `cudaChooseDevice`,
//! the texture calls and `cudaGetDeviceProperties` (11.8's 728-byte layout, as a real 12.x exports
//! the plain name) also convert for 11.x. What 13.x cannot express is refused with
//! `cudaErrorNotSupported` (801), outputs untouched. One file per function family.

mod cuda_choose_device;
mod cuda_create_texture_object;
mod cuda_get_device_properties;
mod cuda_graph_edges;
mod cuda_graph_node_params;
mod cuda_import_external_memory;
mod cuda_mem_advise;
mod cuda_memcpy_batch_async;
mod cuda_pointer_get_attributes;
mod cuda_stream_get_capture_info;
mod cuda_stream_update_capture_dependencies;

pub(crate) use cuda_choose_device::cudaChooseDevice;
pub(crate) use cuda_create_texture_object::{
    cudaCreateSurfaceObject, cudaCreateTextureObject, cudaGetSurfaceObjectResourceDesc,
    cudaGetTextureObjectResourceDesc, cudaGetTextureObjectResourceViewDesc,
};
pub(crate) use cuda_get_device_properties::cudaGetDeviceProperties;
pub(crate) use cuda_graph_edges::{
    cudaGraphAddDependencies, cudaGraphGetEdges, cudaGraphNodeGetDependencies,
    cudaGraphNodeGetDependentNodes, cudaGraphRemoveDependencies,
};
pub(crate) use cuda_graph_node_params::{
    cudaGraphAddNode, cudaGraphExecNodeSetParams, cudaGraphNodeSetParams,
};
pub(crate) use cuda_import_external_memory::{
    cudaExternalMemoryGetMappedBuffer, cudaExternalMemoryGetMappedMipmappedArray,
    cudaImportExternalMemory, cudaImportExternalSemaphore, cudaSignalExternalSemaphoresAsync,
    cudaSignalExternalSemaphoresAsync_ptsz, cudaWaitExternalSemaphoresAsync,
    cudaWaitExternalSemaphoresAsync_ptsz,
};
pub(crate) use cuda_mem_advise::{cudaMemAdvise, cudaMemPrefetchAsync, cudaMemPrefetchAsync_ptsz};
pub(crate) use cuda_memcpy_batch_async::{
    cudaMemcpy3DBatchAsync, cudaMemcpy3DBatchAsync_ptsz, cudaMemcpyBatchAsync,
    cudaMemcpyBatchAsync_ptsz,
};
pub(crate) use cuda_pointer_get_attributes::cudaPointerGetAttributes;
pub(crate) use cuda_stream_get_capture_info::{
    cudaStreamGetCaptureInfo, cudaStreamGetCaptureInfo_ptsz,
};
pub(crate) use cuda_stream_update_capture_dependencies::{
    cudaStreamUpdateCaptureDependencies, cudaStreamUpdateCaptureDependencies_ptsz,
};
