//! `cudaDeviceProp` (CUDA 13 layout) from a device's attributes, as the real runtime fills it
//! from the driver's: each field is the `CU_DEVICE_ATTRIBUTE_*` named beside it, so
//! `cudaGetDeviceProperties`, `cudaDeviceGetAttribute` and `cuDeviceGetAttribute` agree by
//! construction.

use crate::device::profile::DeviceProfile;
use crate::types::cudart::cudaDeviceProp;

macro_rules! fill {
    ($p:ident, $d:ident; $($field:ident $([$i:literal])? = $attr:literal),* $(,)?) => {
        $( $p.$field $([$i])? = $d.named(concat!("CU_DEVICE_ATTRIBUTE_", $attr)) as _; )*
    };
}

/// Fills `p` for device `d` (zeroing what no attribute gives: `luid`, `reserved`).
pub fn fill(p: &mut cudaDeviceProp, d: &DeviceProfile) {
    // SAFETY: a plain C struct of integers and arrays: all-zero is a valid value.
    *p = unsafe { core::mem::zeroed() };
    for (dst, src) in p.name.iter_mut().zip(d.name.bytes().take(255)) {
        *dst = src as _;
    }
    for (dst, src) in p.uuid.bytes.iter_mut().zip(d.uuid) {
        *dst = src as _;
    }
    p.totalGlobalMem = d.total_memory as usize;
    fill!(p, d;
        sharedMemPerBlock = "MAX_SHARED_MEMORY_PER_BLOCK",
        regsPerBlock = "MAX_REGISTERS_PER_BLOCK",
        warpSize = "WARP_SIZE",
        memPitch = "MAX_PITCH",
        maxThreadsPerBlock = "MAX_THREADS_PER_BLOCK",
        maxThreadsDim[0] = "MAX_BLOCK_DIM_X",
        maxThreadsDim[1] = "MAX_BLOCK_DIM_Y",
        maxThreadsDim[2] = "MAX_BLOCK_DIM_Z",
        maxGridSize[0] = "MAX_GRID_DIM_X",
        maxGridSize[1] = "MAX_GRID_DIM_Y",
        maxGridSize[2] = "MAX_GRID_DIM_Z",
        totalConstMem = "TOTAL_CONSTANT_MEMORY",
        major = "COMPUTE_CAPABILITY_MAJOR",
        minor = "COMPUTE_CAPABILITY_MINOR",
        textureAlignment = "TEXTURE_ALIGNMENT",
        texturePitchAlignment = "TEXTURE_PITCH_ALIGNMENT",
        multiProcessorCount = "MULTIPROCESSOR_COUNT",
        integrated = "INTEGRATED",
        canMapHostMemory = "CAN_MAP_HOST_MEMORY",
        maxTexture1D = "MAXIMUM_TEXTURE1D_WIDTH",
        maxTexture1DMipmap = "MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH",
        maxTexture2D[0] = "MAXIMUM_TEXTURE2D_WIDTH",
        maxTexture2D[1] = "MAXIMUM_TEXTURE2D_HEIGHT",
        maxTexture2DMipmap[0] = "MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH",
        maxTexture2DMipmap[1] = "MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT",
        maxTexture2DLinear[0] = "MAXIMUM_TEXTURE2D_LINEAR_WIDTH",
        maxTexture2DLinear[1] = "MAXIMUM_TEXTURE2D_LINEAR_HEIGHT",
        maxTexture2DLinear[2] = "MAXIMUM_TEXTURE2D_LINEAR_PITCH",
        maxTexture2DGather[0] = "MAXIMUM_TEXTURE2D_GATHER_WIDTH",
        maxTexture2DGather[1] = "MAXIMUM_TEXTURE2D_GATHER_HEIGHT",
        maxTexture3D[0] = "MAXIMUM_TEXTURE3D_WIDTH",
        maxTexture3D[1] = "MAXIMUM_TEXTURE3D_HEIGHT",
        maxTexture3D[2] = "MAXIMUM_TEXTURE3D_DEPTH",
        maxTexture3DAlt[0] = "MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE",
        maxTexture3DAlt[1] = "MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE",
        maxTexture3DAlt[2] = "MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE",
        maxTextureCubemap = "MAXIMUM_TEXTURECUBEMAP_WIDTH",
        maxTexture1DLayered[0] = "MAXIMUM_TEXTURE1D_LAYERED_WIDTH",
        maxTexture1DLayered[1] = "MAXIMUM_TEXTURE1D_LAYERED_LAYERS",
        maxTexture2DLayered[0] = "MAXIMUM_TEXTURE2D_LAYERED_WIDTH",
        maxTexture2DLayered[1] = "MAXIMUM_TEXTURE2D_LAYERED_HEIGHT",
        maxTexture2DLayered[2] = "MAXIMUM_TEXTURE2D_LAYERED_LAYERS",
        maxTextureCubemapLayered[0] = "MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH",
        maxTextureCubemapLayered[1] = "MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS",
        maxSurface1D = "MAXIMUM_SURFACE1D_WIDTH",
        maxSurface2D[0] = "MAXIMUM_SURFACE2D_WIDTH",
        maxSurface2D[1] = "MAXIMUM_SURFACE2D_HEIGHT",
        maxSurface3D[0] = "MAXIMUM_SURFACE3D_WIDTH",
        maxSurface3D[1] = "MAXIMUM_SURFACE3D_HEIGHT",
        maxSurface3D[2] = "MAXIMUM_SURFACE3D_DEPTH",
        maxSurface1DLayered[0] = "MAXIMUM_SURFACE1D_LAYERED_WIDTH",
        maxSurface1DLayered[1] = "MAXIMUM_SURFACE1D_LAYERED_LAYERS",
        maxSurface2DLayered[0] = "MAXIMUM_SURFACE2D_LAYERED_WIDTH",
        maxSurface2DLayered[1] = "MAXIMUM_SURFACE2D_LAYERED_HEIGHT",
        maxSurface2DLayered[2] = "MAXIMUM_SURFACE2D_LAYERED_LAYERS",
        maxSurfaceCubemap = "MAXIMUM_SURFACECUBEMAP_WIDTH",
        maxSurfaceCubemapLayered[0] = "MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH",
        maxSurfaceCubemapLayered[1] = "MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS",
        surfaceAlignment = "SURFACE_ALIGNMENT",
        concurrentKernels = "CONCURRENT_KERNELS",
        ECCEnabled = "ECC_ENABLED",
        pciBusID = "PCI_BUS_ID",
        pciDeviceID = "PCI_DEVICE_ID",
        pciDomainID = "PCI_DOMAIN_ID",
        tccDriver = "TCC_DRIVER",
        asyncEngineCount = "ASYNC_ENGINE_COUNT",
        unifiedAddressing = "UNIFIED_ADDRESSING",
        memoryBusWidth = "GLOBAL_MEMORY_BUS_WIDTH",
        l2CacheSize = "L2_CACHE_SIZE",
        persistingL2CacheMaxSize = "MAX_PERSISTING_L2_CACHE_SIZE",
        maxThreadsPerMultiProcessor = "MAX_THREADS_PER_MULTIPROCESSOR",
        streamPrioritiesSupported = "STREAM_PRIORITIES_SUPPORTED",
        globalL1CacheSupported = "GLOBAL_L1_CACHE_SUPPORTED",
        localL1CacheSupported = "LOCAL_L1_CACHE_SUPPORTED",
        sharedMemPerMultiprocessor = "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR",
        regsPerMultiprocessor = "MAX_REGISTERS_PER_MULTIPROCESSOR",
        managedMemory = "MANAGED_MEMORY",
        isMultiGpuBoard = "MULTI_GPU_BOARD",
        multiGpuBoardGroupID = "MULTI_GPU_BOARD_GROUP_ID",
        hostNativeAtomicSupported = "HOST_NATIVE_ATOMIC_SUPPORTED",
        pageableMemoryAccess = "PAGEABLE_MEMORY_ACCESS",
        concurrentManagedAccess = "CONCURRENT_MANAGED_ACCESS",
        computePreemptionSupported = "COMPUTE_PREEMPTION_SUPPORTED",
        canUseHostPointerForRegisteredMem = "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM",
        cooperativeLaunch = "COOPERATIVE_LAUNCH",
        sharedMemPerBlockOptin = "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
        pageableMemoryAccessUsesHostPageTables = "PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES",
        directManagedMemAccessFromHost = "DIRECT_MANAGED_MEM_ACCESS_FROM_HOST",
        maxBlocksPerMultiProcessor = "MAX_BLOCKS_PER_MULTIPROCESSOR",
        accessPolicyMaxWindowSize = "MAX_ACCESS_POLICY_WINDOW_SIZE",
        reservedSharedMemPerBlock = "RESERVED_SHARED_MEMORY_PER_BLOCK",
        hostRegisterSupported = "HOST_REGISTER_SUPPORTED",
        sparseCudaArraySupported = "SPARSE_CUDA_ARRAY_SUPPORTED",
        hostRegisterReadOnlySupported = "READ_ONLY_HOST_REGISTER_SUPPORTED",
        timelineSemaphoreInteropSupported = "TIMELINE_SEMAPHORE_INTEROP_SUPPORTED",
        memoryPoolsSupported = "MEMORY_POOLS_SUPPORTED",
        gpuDirectRDMASupported = "GPU_DIRECT_RDMA_SUPPORTED",
        gpuDirectRDMAFlushWritesOptions = "GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS",
        gpuDirectRDMAWritesOrdering = "GPU_DIRECT_RDMA_WRITES_ORDERING",
        memoryPoolSupportedHandleTypes = "MEMPOOL_SUPPORTED_HANDLE_TYPES",
        deferredMappingCudaArraySupported = "DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED",
        ipcEventSupported = "IPC_EVENT_SUPPORTED",
        clusterLaunch = "CLUSTER_LAUNCH",
        unifiedFunctionPointers = "UNIFIED_FUNCTION_POINTERS",
        deviceNumaConfig = "NUMA_CONFIG",
        deviceNumaId = "NUMA_ID",
        mpsEnabled = "MPS_ENABLED",
        hostNumaId = "HOST_NUMA_ID",
        gpuPciDeviceID = "GPU_PCI_DEVICE_ID",
        gpuPciSubsystemID = "GPU_PCI_SUBSYSTEM_ID",
        hostNumaMultinodeIpcSupported = "HOST_NUMA_MULTINODE_IPC_SUPPORTED",
    );
}
