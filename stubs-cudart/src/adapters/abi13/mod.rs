//! The CUDA 13 versions of the names exported once per ABI: `name@@CUDA_STUBS_CUDART_13`, the
//! default, what a program compiled against 13.x headers and linked against
//! `libstubs_cudart.so` calls (the `cuda_stubs` macro binds each re-export below). Each takes
//! 13.x's prototype and layouts, forwards to a 13.x runtime unchanged through its gated slot,
//! and on an older runtime calls that major's own entry point and translates arguments and
//! results — the reverse of `../abi12/`. What an older runtime cannot express is refused with
//! `cudaErrorNotSupported` (801), outputs untouched. One file per function family.

mod cuda_choose_device;
mod cuda_create_texture_object;
mod cuda_get_device_properties;
mod cuda_graph_edges;
mod cuda_graph_node_set_params;
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
    cudaGraphAddDependencies, cudaGraphAddNode, cudaGraphGetEdges, cudaGraphNodeGetDependencies,
    cudaGraphNodeGetDependentNodes, cudaGraphRemoveDependencies,
};
pub(crate) use cuda_graph_node_set_params::{cudaGraphExecNodeSetParams, cudaGraphNodeSetParams};
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
