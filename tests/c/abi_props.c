/* Compiled against the REAL CUDA headers (13.0 or 12.9), linked only against libstubs_cudart:
 * calls the functions the stub adapts between majors and prints what came back, one
 * `key=value` per line (tests/tests/abi_props.rs checks each against the mock runtimes).
 * cudaDeviceProp: every field the header's layout has. */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  printf("header=%d\n", CUDART_VERSION);
  printf("sizeof=%zu\n", sizeof(struct cudaDeviceProp));

  struct cudaDeviceProp p;
  int bad = cudaGetDeviceProperties(&p, 0);
  printf("bad_device_status=%d\n", bad);
  for (size_t i = 0; i < sizeof p; i++) ((unsigned char *)&p)[i] = 0xAB;
  int status = cudaGetDeviceProperties(&p, 3);
  printf("props_status=%d\n", status);
  if (status == 0) {
  printf("name=%s\n", p.name);
  printf("uuid="); for (int i = 0; i < 16; i++) printf("%02x", (unsigned char)p.uuid.bytes[i]); printf("\n");
  printf("luid="); for (int i = 0; i < 8; i++) printf("%02x", (unsigned char)p.luid[i]); printf("\n");
  printf("luidDeviceNodeMask=%u\n", p.luidDeviceNodeMask);
  printf("totalGlobalMem=%zu\n", p.totalGlobalMem);
  printf("sharedMemPerBlock=%zu\n", p.sharedMemPerBlock);
  printf("regsPerBlock=%d\n", p.regsPerBlock);
  printf("warpSize=%d\n", p.warpSize);
  printf("memPitch=%zu\n", p.memPitch);
  printf("maxThreadsPerBlock=%d\n", p.maxThreadsPerBlock);
  for (int i = 0; i < 3; i++) printf("maxThreadsDim[%d]=%d\n", i, p.maxThreadsDim[i]);
  for (int i = 0; i < 3; i++) printf("maxGridSize[%d]=%d\n", i, p.maxGridSize[i]);
#if CUDART_VERSION < 13000
  printf("clockRate=%d\n", p.clockRate);
#endif
  printf("totalConstMem=%zu\n", p.totalConstMem);
  printf("major=%d\n", p.major);
  printf("minor=%d\n", p.minor);
  printf("textureAlignment=%zu\n", p.textureAlignment);
  printf("texturePitchAlignment=%zu\n", p.texturePitchAlignment);
#if CUDART_VERSION < 13000
  printf("deviceOverlap=%d\n", p.deviceOverlap);
#endif
  printf("multiProcessorCount=%d\n", p.multiProcessorCount);
#if CUDART_VERSION < 13000
  printf("kernelExecTimeoutEnabled=%d\n", p.kernelExecTimeoutEnabled);
#endif
  printf("integrated=%d\n", p.integrated);
  printf("canMapHostMemory=%d\n", p.canMapHostMemory);
#if CUDART_VERSION < 13000
  printf("computeMode=%d\n", p.computeMode);
#endif
  printf("maxTexture1D=%d\n", p.maxTexture1D);
  printf("maxTexture1DMipmap=%d\n", p.maxTexture1DMipmap);
#if CUDART_VERSION < 13000
  printf("maxTexture1DLinear=%d\n", p.maxTexture1DLinear);
#endif
  for (int i = 0; i < 2; i++) printf("maxTexture2D[%d]=%d\n", i, p.maxTexture2D[i]);
  for (int i = 0; i < 2; i++) printf("maxTexture2DMipmap[%d]=%d\n", i, p.maxTexture2DMipmap[i]);
  for (int i = 0; i < 3; i++) printf("maxTexture2DLinear[%d]=%d\n", i, p.maxTexture2DLinear[i]);
  for (int i = 0; i < 2; i++) printf("maxTexture2DGather[%d]=%d\n", i, p.maxTexture2DGather[i]);
  for (int i = 0; i < 3; i++) printf("maxTexture3D[%d]=%d\n", i, p.maxTexture3D[i]);
  for (int i = 0; i < 3; i++) printf("maxTexture3DAlt[%d]=%d\n", i, p.maxTexture3DAlt[i]);
  printf("maxTextureCubemap=%d\n", p.maxTextureCubemap);
  for (int i = 0; i < 2; i++) printf("maxTexture1DLayered[%d]=%d\n", i, p.maxTexture1DLayered[i]);
  for (int i = 0; i < 3; i++) printf("maxTexture2DLayered[%d]=%d\n", i, p.maxTexture2DLayered[i]);
  for (int i = 0; i < 2; i++) printf("maxTextureCubemapLayered[%d]=%d\n", i, p.maxTextureCubemapLayered[i]);
  printf("maxSurface1D=%d\n", p.maxSurface1D);
  for (int i = 0; i < 2; i++) printf("maxSurface2D[%d]=%d\n", i, p.maxSurface2D[i]);
  for (int i = 0; i < 3; i++) printf("maxSurface3D[%d]=%d\n", i, p.maxSurface3D[i]);
  for (int i = 0; i < 2; i++) printf("maxSurface1DLayered[%d]=%d\n", i, p.maxSurface1DLayered[i]);
  for (int i = 0; i < 3; i++) printf("maxSurface2DLayered[%d]=%d\n", i, p.maxSurface2DLayered[i]);
  printf("maxSurfaceCubemap=%d\n", p.maxSurfaceCubemap);
  for (int i = 0; i < 2; i++) printf("maxSurfaceCubemapLayered[%d]=%d\n", i, p.maxSurfaceCubemapLayered[i]);
  printf("surfaceAlignment=%zu\n", p.surfaceAlignment);
  printf("concurrentKernels=%d\n", p.concurrentKernels);
  printf("ECCEnabled=%d\n", p.ECCEnabled);
  printf("pciBusID=%d\n", p.pciBusID);
  printf("pciDeviceID=%d\n", p.pciDeviceID);
  printf("pciDomainID=%d\n", p.pciDomainID);
  printf("tccDriver=%d\n", p.tccDriver);
  printf("asyncEngineCount=%d\n", p.asyncEngineCount);
  printf("unifiedAddressing=%d\n", p.unifiedAddressing);
#if CUDART_VERSION < 13000
  printf("memoryClockRate=%d\n", p.memoryClockRate);
#endif
  printf("memoryBusWidth=%d\n", p.memoryBusWidth);
  printf("l2CacheSize=%d\n", p.l2CacheSize);
  printf("persistingL2CacheMaxSize=%d\n", p.persistingL2CacheMaxSize);
  printf("maxThreadsPerMultiProcessor=%d\n", p.maxThreadsPerMultiProcessor);
  printf("streamPrioritiesSupported=%d\n", p.streamPrioritiesSupported);
  printf("globalL1CacheSupported=%d\n", p.globalL1CacheSupported);
  printf("localL1CacheSupported=%d\n", p.localL1CacheSupported);
  printf("sharedMemPerMultiprocessor=%zu\n", p.sharedMemPerMultiprocessor);
  printf("regsPerMultiprocessor=%d\n", p.regsPerMultiprocessor);
  printf("managedMemory=%d\n", p.managedMemory);
  printf("isMultiGpuBoard=%d\n", p.isMultiGpuBoard);
  printf("multiGpuBoardGroupID=%d\n", p.multiGpuBoardGroupID);
  printf("hostNativeAtomicSupported=%d\n", p.hostNativeAtomicSupported);
#if CUDART_VERSION < 13000
  printf("singleToDoublePrecisionPerfRatio=%d\n", p.singleToDoublePrecisionPerfRatio);
#endif
  printf("pageableMemoryAccess=%d\n", p.pageableMemoryAccess);
  printf("concurrentManagedAccess=%d\n", p.concurrentManagedAccess);
  printf("computePreemptionSupported=%d\n", p.computePreemptionSupported);
  printf("canUseHostPointerForRegisteredMem=%d\n", p.canUseHostPointerForRegisteredMem);
  printf("cooperativeLaunch=%d\n", p.cooperativeLaunch);
#if CUDART_VERSION < 13000
  printf("cooperativeMultiDeviceLaunch=%d\n", p.cooperativeMultiDeviceLaunch);
#endif
  printf("sharedMemPerBlockOptin=%zu\n", p.sharedMemPerBlockOptin);
  printf("pageableMemoryAccessUsesHostPageTables=%d\n", p.pageableMemoryAccessUsesHostPageTables);
  printf("directManagedMemAccessFromHost=%d\n", p.directManagedMemAccessFromHost);
  printf("maxBlocksPerMultiProcessor=%d\n", p.maxBlocksPerMultiProcessor);
  printf("accessPolicyMaxWindowSize=%d\n", p.accessPolicyMaxWindowSize);
  printf("reservedSharedMemPerBlock=%zu\n", p.reservedSharedMemPerBlock);
  printf("hostRegisterSupported=%d\n", p.hostRegisterSupported);
  printf("sparseCudaArraySupported=%d\n", p.sparseCudaArraySupported);
  printf("hostRegisterReadOnlySupported=%d\n", p.hostRegisterReadOnlySupported);
  printf("timelineSemaphoreInteropSupported=%d\n", p.timelineSemaphoreInteropSupported);
  printf("memoryPoolsSupported=%d\n", p.memoryPoolsSupported);
  printf("gpuDirectRDMASupported=%d\n", p.gpuDirectRDMASupported);
  printf("gpuDirectRDMAFlushWritesOptions=%u\n", p.gpuDirectRDMAFlushWritesOptions);
  printf("gpuDirectRDMAWritesOrdering=%d\n", p.gpuDirectRDMAWritesOrdering);
  printf("memoryPoolSupportedHandleTypes=%u\n", p.memoryPoolSupportedHandleTypes);
  printf("deferredMappingCudaArraySupported=%d\n", p.deferredMappingCudaArraySupported);
  printf("ipcEventSupported=%d\n", p.ipcEventSupported);
  printf("clusterLaunch=%d\n", p.clusterLaunch);
  printf("unifiedFunctionPointers=%d\n", p.unifiedFunctionPointers);
#if CUDART_VERSION >= 13000
  printf("deviceNumaConfig=%d\n", p.deviceNumaConfig);
  printf("deviceNumaId=%d\n", p.deviceNumaId);
  printf("mpsEnabled=%d\n", p.mpsEnabled);
  printf("hostNumaId=%d\n", p.hostNumaId);
  printf("gpuPciDeviceID=%u\n", p.gpuPciDeviceID);
  printf("gpuPciSubsystemID=%u\n", p.gpuPciSubsystemID);
  printf("hostNumaMultinodeIpcSupported=%d\n", p.hostNumaMultinodeIpcSupported);
#endif
  }

  cudaGraphExec_t exec = NULL;
  status = cudaGraphInstantiate(&exec, (cudaGraph_t)(uintptr_t)0x100000, 8);
  printf("instantiate_status=%d\n", status);
  printf("instantiate_exec=%llu\n", (unsigned long long)(uintptr_t)exec);

  struct cudaFuncAttributes fa;
  for (size_t i = 0; i < sizeof fa; i++) ((unsigned char *)&fa)[i] = 0xAB;
  status = cudaFuncGetAttributes(&fa, (const void *)(uintptr_t)0x4321);
  printf("funcattr_status=%d\n", status);
  if (status == 0) {
    printf("sharedSizeBytes=%zu\n", fa.sharedSizeBytes);
    printf("constSizeBytes=%zu\n", fa.constSizeBytes);
    printf("localSizeBytes=%zu\n", fa.localSizeBytes);
    printf("maxThreadsPerBlock=%d\n", fa.maxThreadsPerBlock);
    printf("numRegs=%d\n", fa.numRegs);
    printf("ptxVersion=%d\n", fa.ptxVersion);
    printf("binaryVersion=%d\n", fa.binaryVersion);
    printf("cacheModeCA=%d\n", fa.cacheModeCA);
    printf("maxDynamicSharedSizeBytes=%d\n", fa.maxDynamicSharedSizeBytes);
    printf("preferredShmemCarveout=%d\n", fa.preferredShmemCarveout);
    printf("clusterDimMustBeSet=%d\n", fa.clusterDimMustBeSet);
    printf("requiredClusterWidth=%d\n", fa.requiredClusterWidth);
    printf("requiredClusterHeight=%d\n", fa.requiredClusterHeight);
    printf("requiredClusterDepth=%d\n", fa.requiredClusterDepth);
    printf("clusterSchedulingPolicyPreference=%d\n", fa.clusterSchedulingPolicyPreference);
    printf("nonPortableClusterSizeAllowed=%d\n", fa.nonPortableClusterSizeAllowed);
    printf("funcattr_reserved_zero=%d\n", fa.reserved[0] == 0 && fa.reserved[sizeof fa.reserved / sizeof fa.reserved[0] - 1] == 0);
  }

  struct cudaPointerAttributes pa;
  for (size_t i = 0; i < sizeof pa; i++) ((unsigned char *)&pa)[i] = 0xAB;
  status = cudaPointerGetAttributes(&pa, (const void *)(uintptr_t)0x7000);
  printf("ptrattr_status=%d\n", status);
  if (status == 0) {
    printf("ptr_type=%d\n", (int)pa.type);
    printf("ptr_device=%d\n", pa.device);
    printf("ptr_devicePointer=%llu\n", (unsigned long long)(uintptr_t)pa.devicePointer);
    printf("ptr_hostPointer=%llu\n", (unsigned long long)(uintptr_t)pa.hostPointer);
  }
  return 0;
}
