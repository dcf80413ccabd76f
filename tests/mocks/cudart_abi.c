/* ABI mock of libcudart, compiled into the mock-11 / mock-12 / mock-13 cudart variants next to
 * cudart.c (same MOCK_MAJOR). Each major exports the REAL prototype and struct layout it has
 * for the functions the stub adapts (stubs-cudart/src/adapters/), so a call through the wrong
 * ABI shows up as wrong values, never as a match by accident.
 *
 * Values are recognisable per field and per major (tests/tests/abi_props.rs recomputes them):
 *   int / unsigned field f   (fnv1a(f) % 100000) * 100 + MOCK_MAJOR   (+ 10000000 * (i+1) for element i)
 *   size_t field f           (MOCK_MAJOR << 32) | (fnv1a(f) % 100000)
 *   name "mock-<major>", uuid bytes 16*major + i, luid bytes major + 100 + i
 *   cudaDeviceGetAttribute(attr) 5000000 + 100 * attr + major; attributes 96 and 133 fail.
 * Only device 3 exists (others: cudaErrorInvalidDevice, 101). Struct layouts below are those of
 * driver_types.h 11.8, 12.9 and 13.0 (sizes checked). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef MOCK_MAJOR
#error MOCK_MAJOR must be defined
#endif

#define EXPORT __attribute__((visibility("default")))
#define MOCK_DEVICE 3
#define INVALID_DEVICE 101
#define INVALID_VALUE 1
/* Calls the stub must never make (the wrong ABI for this major). */
#define NEVER_CALLED 4242

typedef struct CUuuid_st {
  char bytes[16];
} cudaUUID_t;

static uint32_t mock_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 16777619u;
  }
  return h;
}

static int mock_int(const char *field) {
  return (int)(mock_hash(field) % 100000u) * 100 + MOCK_MAJOR;
}

static size_t mock_size(const char *field) {
  return ((size_t)MOCK_MAJOR << 32) | (mock_hash(field) % 100000u);
}

/* CUDA 11.8 layout (728 bytes): 11.x's cudaGetDeviceProperties, 12.x's legacy plain export. */
struct prop11 {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

/* CUDA 12.9 layout (1032 bytes): 12.x's cudaGetDeviceProperties_v2. */
struct prop12 {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
};

/* CUDA 13.0 layout (1008 bytes): 13.x's cudaGetDeviceProperties. */
struct prop13 {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

_Static_assert(sizeof(struct prop11) == 728, "11.8 layout");
_Static_assert(sizeof(struct prop12) == 1032, "12.9 layout");
_Static_assert(sizeof(struct prop13) == 1008, "13.0 layout");

__attribute__((unused)) static void fill_prop11(struct prop11 *p) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "mock-%d", MOCK_MAJOR);
  for (int i = 0; i < 16; i++) p->uuid.bytes[i] = (char)(MOCK_MAJOR * 16 + i);
  for (int i = 0; i < 8; i++) p->luid[i] = (char)(MOCK_MAJOR + 100 + i);
  p->luidDeviceNodeMask = (unsigned int)mock_int("luidDeviceNodeMask");
  p->totalGlobalMem = mock_size("totalGlobalMem");
  p->sharedMemPerBlock = mock_size("sharedMemPerBlock");
  p->regsPerBlock = (int)mock_int("regsPerBlock");
  p->warpSize = (int)mock_int("warpSize");
  p->memPitch = mock_size("memPitch");
  p->maxThreadsPerBlock = (int)mock_int("maxThreadsPerBlock");
  for (int i = 0; i < 3; i++) p->maxThreadsDim[i] = mock_int("maxThreadsDim") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxGridSize[i] = mock_int("maxGridSize") + 10000000 * (i + 1);
  p->clockRate = (int)mock_int("clockRate");
  p->totalConstMem = mock_size("totalConstMem");
  p->major = (int)mock_int("major");
  p->minor = (int)mock_int("minor");
  p->textureAlignment = mock_size("textureAlignment");
  p->texturePitchAlignment = mock_size("texturePitchAlignment");
  p->deviceOverlap = (int)mock_int("deviceOverlap");
  p->multiProcessorCount = (int)mock_int("multiProcessorCount");
  p->kernelExecTimeoutEnabled = (int)mock_int("kernelExecTimeoutEnabled");
  p->integrated = (int)mock_int("integrated");
  p->canMapHostMemory = (int)mock_int("canMapHostMemory");
  p->computeMode = (int)mock_int("computeMode");
  p->maxTexture1D = (int)mock_int("maxTexture1D");
  p->maxTexture1DMipmap = (int)mock_int("maxTexture1DMipmap");
  p->maxTexture1DLinear = (int)mock_int("maxTexture1DLinear");
  for (int i = 0; i < 2; i++) p->maxTexture2D[i] = mock_int("maxTexture2D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DMipmap[i] = mock_int("maxTexture2DMipmap") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLinear[i] = mock_int("maxTexture2DLinear") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DGather[i] = mock_int("maxTexture2DGather") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3D[i] = mock_int("maxTexture3D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3DAlt[i] = mock_int("maxTexture3DAlt") + 10000000 * (i + 1);
  p->maxTextureCubemap = (int)mock_int("maxTextureCubemap");
  for (int i = 0; i < 2; i++) p->maxTexture1DLayered[i] = mock_int("maxTexture1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLayered[i] = mock_int("maxTexture2DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTextureCubemapLayered[i] = mock_int("maxTextureCubemapLayered") + 10000000 * (i + 1);
  p->maxSurface1D = (int)mock_int("maxSurface1D");
  for (int i = 0; i < 2; i++) p->maxSurface2D[i] = mock_int("maxSurface2D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface3D[i] = mock_int("maxSurface3D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxSurface1DLayered[i] = mock_int("maxSurface1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface2DLayered[i] = mock_int("maxSurface2DLayered") + 10000000 * (i + 1);
  p->maxSurfaceCubemap = (int)mock_int("maxSurfaceCubemap");
  for (int i = 0; i < 2; i++) p->maxSurfaceCubemapLayered[i] = mock_int("maxSurfaceCubemapLayered") + 10000000 * (i + 1);
  p->surfaceAlignment = mock_size("surfaceAlignment");
  p->concurrentKernels = (int)mock_int("concurrentKernels");
  p->ECCEnabled = (int)mock_int("ECCEnabled");
  p->pciBusID = (int)mock_int("pciBusID");
  p->pciDeviceID = (int)mock_int("pciDeviceID");
  p->pciDomainID = (int)mock_int("pciDomainID");
  p->tccDriver = (int)mock_int("tccDriver");
  p->asyncEngineCount = (int)mock_int("asyncEngineCount");
  p->unifiedAddressing = (int)mock_int("unifiedAddressing");
  p->memoryClockRate = (int)mock_int("memoryClockRate");
  p->memoryBusWidth = (int)mock_int("memoryBusWidth");
  p->l2CacheSize = (int)mock_int("l2CacheSize");
  p->persistingL2CacheMaxSize = (int)mock_int("persistingL2CacheMaxSize");
  p->maxThreadsPerMultiProcessor = (int)mock_int("maxThreadsPerMultiProcessor");
  p->streamPrioritiesSupported = (int)mock_int("streamPrioritiesSupported");
  p->globalL1CacheSupported = (int)mock_int("globalL1CacheSupported");
  p->localL1CacheSupported = (int)mock_int("localL1CacheSupported");
  p->sharedMemPerMultiprocessor = mock_size("sharedMemPerMultiprocessor");
  p->regsPerMultiprocessor = (int)mock_int("regsPerMultiprocessor");
  p->managedMemory = (int)mock_int("managedMemory");
  p->isMultiGpuBoard = (int)mock_int("isMultiGpuBoard");
  p->multiGpuBoardGroupID = (int)mock_int("multiGpuBoardGroupID");
  p->hostNativeAtomicSupported = (int)mock_int("hostNativeAtomicSupported");
  p->singleToDoublePrecisionPerfRatio = (int)mock_int("singleToDoublePrecisionPerfRatio");
  p->pageableMemoryAccess = (int)mock_int("pageableMemoryAccess");
  p->concurrentManagedAccess = (int)mock_int("concurrentManagedAccess");
  p->computePreemptionSupported = (int)mock_int("computePreemptionSupported");
  p->canUseHostPointerForRegisteredMem = (int)mock_int("canUseHostPointerForRegisteredMem");
  p->cooperativeLaunch = (int)mock_int("cooperativeLaunch");
  p->cooperativeMultiDeviceLaunch = (int)mock_int("cooperativeMultiDeviceLaunch");
  p->sharedMemPerBlockOptin = mock_size("sharedMemPerBlockOptin");
  p->pageableMemoryAccessUsesHostPageTables = (int)mock_int("pageableMemoryAccessUsesHostPageTables");
  p->directManagedMemAccessFromHost = (int)mock_int("directManagedMemAccessFromHost");
  p->maxBlocksPerMultiProcessor = (int)mock_int("maxBlocksPerMultiProcessor");
  p->accessPolicyMaxWindowSize = (int)mock_int("accessPolicyMaxWindowSize");
  p->reservedSharedMemPerBlock = mock_size("reservedSharedMemPerBlock");
}

__attribute__((unused)) static void fill_prop12(struct prop12 *p) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "mock-%d", MOCK_MAJOR);
  for (int i = 0; i < 16; i++) p->uuid.bytes[i] = (char)(MOCK_MAJOR * 16 + i);
  for (int i = 0; i < 8; i++) p->luid[i] = (char)(MOCK_MAJOR + 100 + i);
  p->luidDeviceNodeMask = (unsigned int)mock_int("luidDeviceNodeMask");
  p->totalGlobalMem = mock_size("totalGlobalMem");
  p->sharedMemPerBlock = mock_size("sharedMemPerBlock");
  p->regsPerBlock = (int)mock_int("regsPerBlock");
  p->warpSize = (int)mock_int("warpSize");
  p->memPitch = mock_size("memPitch");
  p->maxThreadsPerBlock = (int)mock_int("maxThreadsPerBlock");
  for (int i = 0; i < 3; i++) p->maxThreadsDim[i] = mock_int("maxThreadsDim") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxGridSize[i] = mock_int("maxGridSize") + 10000000 * (i + 1);
  p->clockRate = (int)mock_int("clockRate");
  p->totalConstMem = mock_size("totalConstMem");
  p->major = (int)mock_int("major");
  p->minor = (int)mock_int("minor");
  p->textureAlignment = mock_size("textureAlignment");
  p->texturePitchAlignment = mock_size("texturePitchAlignment");
  p->deviceOverlap = (int)mock_int("deviceOverlap");
  p->multiProcessorCount = (int)mock_int("multiProcessorCount");
  p->kernelExecTimeoutEnabled = (int)mock_int("kernelExecTimeoutEnabled");
  p->integrated = (int)mock_int("integrated");
  p->canMapHostMemory = (int)mock_int("canMapHostMemory");
  p->computeMode = (int)mock_int("computeMode");
  p->maxTexture1D = (int)mock_int("maxTexture1D");
  p->maxTexture1DMipmap = (int)mock_int("maxTexture1DMipmap");
  p->maxTexture1DLinear = (int)mock_int("maxTexture1DLinear");
  for (int i = 0; i < 2; i++) p->maxTexture2D[i] = mock_int("maxTexture2D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DMipmap[i] = mock_int("maxTexture2DMipmap") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLinear[i] = mock_int("maxTexture2DLinear") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DGather[i] = mock_int("maxTexture2DGather") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3D[i] = mock_int("maxTexture3D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3DAlt[i] = mock_int("maxTexture3DAlt") + 10000000 * (i + 1);
  p->maxTextureCubemap = (int)mock_int("maxTextureCubemap");
  for (int i = 0; i < 2; i++) p->maxTexture1DLayered[i] = mock_int("maxTexture1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLayered[i] = mock_int("maxTexture2DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTextureCubemapLayered[i] = mock_int("maxTextureCubemapLayered") + 10000000 * (i + 1);
  p->maxSurface1D = (int)mock_int("maxSurface1D");
  for (int i = 0; i < 2; i++) p->maxSurface2D[i] = mock_int("maxSurface2D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface3D[i] = mock_int("maxSurface3D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxSurface1DLayered[i] = mock_int("maxSurface1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface2DLayered[i] = mock_int("maxSurface2DLayered") + 10000000 * (i + 1);
  p->maxSurfaceCubemap = (int)mock_int("maxSurfaceCubemap");
  for (int i = 0; i < 2; i++) p->maxSurfaceCubemapLayered[i] = mock_int("maxSurfaceCubemapLayered") + 10000000 * (i + 1);
  p->surfaceAlignment = mock_size("surfaceAlignment");
  p->concurrentKernels = (int)mock_int("concurrentKernels");
  p->ECCEnabled = (int)mock_int("ECCEnabled");
  p->pciBusID = (int)mock_int("pciBusID");
  p->pciDeviceID = (int)mock_int("pciDeviceID");
  p->pciDomainID = (int)mock_int("pciDomainID");
  p->tccDriver = (int)mock_int("tccDriver");
  p->asyncEngineCount = (int)mock_int("asyncEngineCount");
  p->unifiedAddressing = (int)mock_int("unifiedAddressing");
  p->memoryClockRate = (int)mock_int("memoryClockRate");
  p->memoryBusWidth = (int)mock_int("memoryBusWidth");
  p->l2CacheSize = (int)mock_int("l2CacheSize");
  p->persistingL2CacheMaxSize = (int)mock_int("persistingL2CacheMaxSize");
  p->maxThreadsPerMultiProcessor = (int)mock_int("maxThreadsPerMultiProcessor");
  p->streamPrioritiesSupported = (int)mock_int("streamPrioritiesSupported");
  p->globalL1CacheSupported = (int)mock_int("globalL1CacheSupported");
  p->localL1CacheSupported = (int)mock_int("localL1CacheSupported");
  p->sharedMemPerMultiprocessor = mock_size("sharedMemPerMultiprocessor");
  p->regsPerMultiprocessor = (int)mock_int("regsPerMultiprocessor");
  p->managedMemory = (int)mock_int("managedMemory");
  p->isMultiGpuBoard = (int)mock_int("isMultiGpuBoard");
  p->multiGpuBoardGroupID = (int)mock_int("multiGpuBoardGroupID");
  p->hostNativeAtomicSupported = (int)mock_int("hostNativeAtomicSupported");
  p->singleToDoublePrecisionPerfRatio = (int)mock_int("singleToDoublePrecisionPerfRatio");
  p->pageableMemoryAccess = (int)mock_int("pageableMemoryAccess");
  p->concurrentManagedAccess = (int)mock_int("concurrentManagedAccess");
  p->computePreemptionSupported = (int)mock_int("computePreemptionSupported");
  p->canUseHostPointerForRegisteredMem = (int)mock_int("canUseHostPointerForRegisteredMem");
  p->cooperativeLaunch = (int)mock_int("cooperativeLaunch");
  p->cooperativeMultiDeviceLaunch = (int)mock_int("cooperativeMultiDeviceLaunch");
  p->sharedMemPerBlockOptin = mock_size("sharedMemPerBlockOptin");
  p->pageableMemoryAccessUsesHostPageTables = (int)mock_int("pageableMemoryAccessUsesHostPageTables");
  p->directManagedMemAccessFromHost = (int)mock_int("directManagedMemAccessFromHost");
  p->maxBlocksPerMultiProcessor = (int)mock_int("maxBlocksPerMultiProcessor");
  p->accessPolicyMaxWindowSize = (int)mock_int("accessPolicyMaxWindowSize");
  p->reservedSharedMemPerBlock = mock_size("reservedSharedMemPerBlock");
  p->hostRegisterSupported = (int)mock_int("hostRegisterSupported");
  p->sparseCudaArraySupported = (int)mock_int("sparseCudaArraySupported");
  p->hostRegisterReadOnlySupported = (int)mock_int("hostRegisterReadOnlySupported");
  p->timelineSemaphoreInteropSupported = (int)mock_int("timelineSemaphoreInteropSupported");
  p->memoryPoolsSupported = (int)mock_int("memoryPoolsSupported");
  p->gpuDirectRDMASupported = (int)mock_int("gpuDirectRDMASupported");
  p->gpuDirectRDMAFlushWritesOptions = (unsigned int)mock_int("gpuDirectRDMAFlushWritesOptions");
  p->gpuDirectRDMAWritesOrdering = (int)mock_int("gpuDirectRDMAWritesOrdering");
  p->memoryPoolSupportedHandleTypes = (unsigned int)mock_int("memoryPoolSupportedHandleTypes");
  p->deferredMappingCudaArraySupported = (int)mock_int("deferredMappingCudaArraySupported");
  p->ipcEventSupported = (int)mock_int("ipcEventSupported");
  p->clusterLaunch = (int)mock_int("clusterLaunch");
  p->unifiedFunctionPointers = (int)mock_int("unifiedFunctionPointers");
}

__attribute__((unused)) static void fill_prop13(struct prop13 *p) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "mock-%d", MOCK_MAJOR);
  for (int i = 0; i < 16; i++) p->uuid.bytes[i] = (char)(MOCK_MAJOR * 16 + i);
  for (int i = 0; i < 8; i++) p->luid[i] = (char)(MOCK_MAJOR + 100 + i);
  p->luidDeviceNodeMask = (unsigned int)mock_int("luidDeviceNodeMask");
  p->totalGlobalMem = mock_size("totalGlobalMem");
  p->sharedMemPerBlock = mock_size("sharedMemPerBlock");
  p->regsPerBlock = (int)mock_int("regsPerBlock");
  p->warpSize = (int)mock_int("warpSize");
  p->memPitch = mock_size("memPitch");
  p->maxThreadsPerBlock = (int)mock_int("maxThreadsPerBlock");
  for (int i = 0; i < 3; i++) p->maxThreadsDim[i] = mock_int("maxThreadsDim") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxGridSize[i] = mock_int("maxGridSize") + 10000000 * (i + 1);
  p->totalConstMem = mock_size("totalConstMem");
  p->major = (int)mock_int("major");
  p->minor = (int)mock_int("minor");
  p->textureAlignment = mock_size("textureAlignment");
  p->texturePitchAlignment = mock_size("texturePitchAlignment");
  p->multiProcessorCount = (int)mock_int("multiProcessorCount");
  p->integrated = (int)mock_int("integrated");
  p->canMapHostMemory = (int)mock_int("canMapHostMemory");
  p->maxTexture1D = (int)mock_int("maxTexture1D");
  p->maxTexture1DMipmap = (int)mock_int("maxTexture1DMipmap");
  for (int i = 0; i < 2; i++) p->maxTexture2D[i] = mock_int("maxTexture2D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DMipmap[i] = mock_int("maxTexture2DMipmap") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLinear[i] = mock_int("maxTexture2DLinear") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTexture2DGather[i] = mock_int("maxTexture2DGather") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3D[i] = mock_int("maxTexture3D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture3DAlt[i] = mock_int("maxTexture3DAlt") + 10000000 * (i + 1);
  p->maxTextureCubemap = (int)mock_int("maxTextureCubemap");
  for (int i = 0; i < 2; i++) p->maxTexture1DLayered[i] = mock_int("maxTexture1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxTexture2DLayered[i] = mock_int("maxTexture2DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxTextureCubemapLayered[i] = mock_int("maxTextureCubemapLayered") + 10000000 * (i + 1);
  p->maxSurface1D = (int)mock_int("maxSurface1D");
  for (int i = 0; i < 2; i++) p->maxSurface2D[i] = mock_int("maxSurface2D") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface3D[i] = mock_int("maxSurface3D") + 10000000 * (i + 1);
  for (int i = 0; i < 2; i++) p->maxSurface1DLayered[i] = mock_int("maxSurface1DLayered") + 10000000 * (i + 1);
  for (int i = 0; i < 3; i++) p->maxSurface2DLayered[i] = mock_int("maxSurface2DLayered") + 10000000 * (i + 1);
  p->maxSurfaceCubemap = (int)mock_int("maxSurfaceCubemap");
  for (int i = 0; i < 2; i++) p->maxSurfaceCubemapLayered[i] = mock_int("maxSurfaceCubemapLayered") + 10000000 * (i + 1);
  p->surfaceAlignment = mock_size("surfaceAlignment");
  p->concurrentKernels = (int)mock_int("concurrentKernels");
  p->ECCEnabled = (int)mock_int("ECCEnabled");
  p->pciBusID = (int)mock_int("pciBusID");
  p->pciDeviceID = (int)mock_int("pciDeviceID");
  p->pciDomainID = (int)mock_int("pciDomainID");
  p->tccDriver = (int)mock_int("tccDriver");
  p->asyncEngineCount = (int)mock_int("asyncEngineCount");
  p->unifiedAddressing = (int)mock_int("unifiedAddressing");
  p->memoryBusWidth = (int)mock_int("memoryBusWidth");
  p->l2CacheSize = (int)mock_int("l2CacheSize");
  p->persistingL2CacheMaxSize = (int)mock_int("persistingL2CacheMaxSize");
  p->maxThreadsPerMultiProcessor = (int)mock_int("maxThreadsPerMultiProcessor");
  p->streamPrioritiesSupported = (int)mock_int("streamPrioritiesSupported");
  p->globalL1CacheSupported = (int)mock_int("globalL1CacheSupported");
  p->localL1CacheSupported = (int)mock_int("localL1CacheSupported");
  p->sharedMemPerMultiprocessor = mock_size("sharedMemPerMultiprocessor");
  p->regsPerMultiprocessor = (int)mock_int("regsPerMultiprocessor");
  p->managedMemory = (int)mock_int("managedMemory");
  p->isMultiGpuBoard = (int)mock_int("isMultiGpuBoard");
  p->multiGpuBoardGroupID = (int)mock_int("multiGpuBoardGroupID");
  p->hostNativeAtomicSupported = (int)mock_int("hostNativeAtomicSupported");
  p->pageableMemoryAccess = (int)mock_int("pageableMemoryAccess");
  p->concurrentManagedAccess = (int)mock_int("concurrentManagedAccess");
  p->computePreemptionSupported = (int)mock_int("computePreemptionSupported");
  p->canUseHostPointerForRegisteredMem = (int)mock_int("canUseHostPointerForRegisteredMem");
  p->cooperativeLaunch = (int)mock_int("cooperativeLaunch");
  p->sharedMemPerBlockOptin = mock_size("sharedMemPerBlockOptin");
  p->pageableMemoryAccessUsesHostPageTables = (int)mock_int("pageableMemoryAccessUsesHostPageTables");
  p->directManagedMemAccessFromHost = (int)mock_int("directManagedMemAccessFromHost");
  p->maxBlocksPerMultiProcessor = (int)mock_int("maxBlocksPerMultiProcessor");
  p->accessPolicyMaxWindowSize = (int)mock_int("accessPolicyMaxWindowSize");
  p->reservedSharedMemPerBlock = mock_size("reservedSharedMemPerBlock");
  p->hostRegisterSupported = (int)mock_int("hostRegisterSupported");
  p->sparseCudaArraySupported = (int)mock_int("sparseCudaArraySupported");
  p->hostRegisterReadOnlySupported = (int)mock_int("hostRegisterReadOnlySupported");
  p->timelineSemaphoreInteropSupported = (int)mock_int("timelineSemaphoreInteropSupported");
  p->memoryPoolsSupported = (int)mock_int("memoryPoolsSupported");
  p->gpuDirectRDMASupported = (int)mock_int("gpuDirectRDMASupported");
  p->gpuDirectRDMAFlushWritesOptions = (unsigned int)mock_int("gpuDirectRDMAFlushWritesOptions");
  p->gpuDirectRDMAWritesOrdering = (int)mock_int("gpuDirectRDMAWritesOrdering");
  p->memoryPoolSupportedHandleTypes = (unsigned int)mock_int("memoryPoolSupportedHandleTypes");
  p->deferredMappingCudaArraySupported = (int)mock_int("deferredMappingCudaArraySupported");
  p->ipcEventSupported = (int)mock_int("ipcEventSupported");
  p->clusterLaunch = (int)mock_int("clusterLaunch");
  p->unifiedFunctionPointers = (int)mock_int("unifiedFunctionPointers");
  p->deviceNumaConfig = (int)mock_int("deviceNumaConfig");
  p->deviceNumaId = (int)mock_int("deviceNumaId");
  p->mpsEnabled = (int)mock_int("mpsEnabled");
  p->hostNumaId = (int)mock_int("hostNumaId");
  p->gpuPciDeviceID = (unsigned int)mock_int("gpuPciDeviceID");
  p->gpuPciSubsystemID = (unsigned int)mock_int("gpuPciSubsystemID");
  p->hostNumaMultinodeIpcSupported = (int)mock_int("hostNumaMultinodeIpcSupported");
}

#if MOCK_MAJOR == 11
EXPORT int cudaGetDeviceProperties(struct prop11 *p, int device) {
  if (device != MOCK_DEVICE) return INVALID_DEVICE;
  fill_prop11(p);
  return 0;
}
#elif MOCK_MAJOR == 12
/* 12.x keeps the plain name with 11.x's layout for binaries built against 11. */
EXPORT int cudaGetDeviceProperties(struct prop11 *p, int device) {
  if (device != MOCK_DEVICE) return INVALID_DEVICE;
  fill_prop11(p);
  p->multiProcessorCount = NEVER_CALLED;
  return 0;
}
EXPORT int cudaGetDeviceProperties_v2(struct prop12 *p, int device) {
  if (device != MOCK_DEVICE) return INVALID_DEVICE;
  fill_prop12(p);
  return 0;
}
#else
EXPORT int cudaGetDeviceProperties(struct prop13 *p, int device) {
  if (device != MOCK_DEVICE) return INVALID_DEVICE;
  fill_prop13(p);
  return 0;
}
#endif

EXPORT int cudaDeviceGetAttribute(int *value, int attr, int device) {
  if (device != MOCK_DEVICE) return INVALID_DEVICE;
  if (attr == 96 || attr == 133) return INVALID_VALUE;
  *value = 5000000 + 100 * attr + MOCK_MAJOR;
  return 0;
}

/* cudaGraphInstantiate: 12.0+ takes flags; 11.x has the 5-argument form and (11.4+)
 * cudaGraphInstantiateWithFlags. The exec handle encodes graph, flags and major. */
static void *mock_exec(void *graph, unsigned long long flags) {
  return (void *)((uintptr_t)graph + (uintptr_t)flags * 16u + MOCK_MAJOR);
}
#if MOCK_MAJOR == 11
EXPORT int cudaGraphInstantiate(void **exec, void *graph, void **errorNode, char *log, size_t size) {
  (void)exec, (void)graph, (void)errorNode, (void)log, (void)size;
  return NEVER_CALLED;
}
EXPORT int cudaGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
  *exec = mock_exec(graph, flags);
  return 0;
}
#else
EXPORT int cudaGraphInstantiate(void **exec, void *graph, unsigned long long flags) {
  *exec = mock_exec(graph, flags);
  return 0;
}
#endif

/* cudaFuncGetAttributes: 56 bytes in 11.8, 144 since 12.0. Only function 0x4321 exists. */
#define FUNCATTR11_FIELDS                                                                          \
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;                                          \
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;                         \
  int maxDynamicSharedSizeBytes, preferredShmemCarveout;
struct funcattr11 {
  FUNCATTR11_FIELDS
};
struct funcattr12 {
  FUNCATTR11_FIELDS
  int clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
  int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
  int reserved[16];
};
_Static_assert(sizeof(struct funcattr11) == 56, "11.8 layout");
_Static_assert(sizeof(struct funcattr12) == 144, "12.9 / 13.0 layout");

#define FILL_FUNCATTR11(a)                                                                         \
  do {                                                                                             \
  a->sharedSizeBytes = mock_size("sharedSizeBytes");                                               \
  a->constSizeBytes = mock_size("constSizeBytes");                                                 \
  a->localSizeBytes = mock_size("localSizeBytes");                                                 \
  a->maxThreadsPerBlock = mock_int("maxThreadsPerBlock");                                          \
  a->numRegs = mock_int("numRegs");                                                                \
  a->ptxVersion = mock_int("ptxVersion");                                                          \
  a->binaryVersion = mock_int("binaryVersion");                                                    \
  a->cacheModeCA = mock_int("cacheModeCA");                                                        \
  a->maxDynamicSharedSizeBytes = mock_int("maxDynamicSharedSizeBytes");                            \
  a->preferredShmemCarveout = mock_int("preferredShmemCarveout");                                  \
  } while (0)

#if MOCK_MAJOR == 11
EXPORT int cudaFuncGetAttributes(struct funcattr11 *a, const void *func) {
  if ((uintptr_t)func != 0x4321) return 98; /* cudaErrorInvalidDeviceFunction */
  FILL_FUNCATTR11(a);
  return 0;
}
#else
EXPORT int cudaFuncGetAttributes(struct funcattr12 *a, const void *func) {
  if ((uintptr_t)func != 0x4321) return 98;
  memset(a, 0, sizeof *a);
  FILL_FUNCATTR11(a);
  a->clusterDimMustBeSet = mock_int("clusterDimMustBeSet");
  a->requiredClusterWidth = mock_int("requiredClusterWidth");
  a->requiredClusterHeight = mock_int("requiredClusterHeight");
  a->requiredClusterDepth = mock_int("requiredClusterDepth");
  a->clusterSchedulingPolicyPreference = mock_int("clusterSchedulingPolicyPreference");
  a->nonPortableClusterSizeAllowed = mock_int("nonPortableClusterSizeAllowed");
  return 0;
}
#endif

/* cudaPointerGetAttributes: 24 bytes in 11.8 and 12.9; 13.0 appends long reserved[8]. */
struct ptrattr {
  int type, device;
  void *devicePointer, *hostPointer;
#if MOCK_MAJOR >= 13
  long reserved[8];
#endif
};
EXPORT int cudaPointerGetAttributes(struct ptrattr *a, const void *ptr) {
  if (a == NULL) return INVALID_VALUE;
  memset(a, 0, sizeof *a);
  a->type = 2; /* cudaMemoryTypeDevice */
  a->device = MOCK_MAJOR;
  a->devicePointer = (void *)ptr;
  a->hostPointer = (char *)ptr + MOCK_MAJOR;
  return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Calls whose prototype changed (tests/c/abi_calls.c, tests/tests/abi_calls.rs): capture info,
 * mem advise / prefetch, the graph-edge family, exec update, driver entry point. Each mock has
 * its major's REAL prototype (11.8, 12.9 or 13.x header) and appends "<name> <arguments>" to a
 * log that mock_take_calls() hands out (and clears), so the test sees which entry point the stub
 * called and with what. Outputs are recognisable per major; handle 0xBAD fails with 400
 * (cudaErrorInvalidResourceHandle) before anything is written.
 * --------------------------------------------------------------------------------------------- */
#include <stdarg.h>

#define BAD_HANDLE ((void *)(uintptr_t)0xBAD)
#define INVALID_HANDLE 400
#define M ((uintptr_t)MOCK_MAJOR)
#define HEX(p) ((unsigned long long)(uintptr_t)(p))
#define NZ(p) ((p) != NULL)

static char mock_log[4096];

__attribute__((format(printf, 1, 2))) static void mock_record(const char *fmt, ...) {
  size_t used = strlen(mock_log);
  if (used > 0 && used + 2 < sizeof mock_log) {
    memcpy(mock_log + used, "; ", 3);
    used += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(mock_log + used, sizeof mock_log - used, fmt, ap);
  va_end(ap);
}

/* Mock-only: copies the calls logged since the last take into buf ("" when none), clears it. */
EXPORT void mock_take_calls(char *buf, size_t n) {
  snprintf(buf, n, "%s", mock_log);
  mock_log[0] = '\0';
}

/* cudaGraphEdgeData (8 bytes, 12.3+). */
typedef struct {
  unsigned char from_port, to_port, type, reserved[5];
} edge_t;
_Static_assert(sizeof(edge_t) == 8, "cudaGraphEdgeData");

/* "0x101,0x102" for n handles, "null" for NULL. */
static const char *fmt_nodes(char *buf, size_t size, void *const *nodes, size_t n) {
  if (nodes == NULL) return "null";
  buf[0] = '\0';
  for (size_t i = 0; i < n && strlen(buf) + 24 < size; i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%#llx", i ? "," : "", HEX(nodes[i]));
  return buf;
}

/* Each edge as 16 hex digits (its 8 bytes), comma-separated; "null" for NULL. */
static const char *fmt_edges(char *buf, size_t size, const edge_t *edges, size_t n) {
  if (edges == NULL) return "null";
  buf[0] = '\0';
  for (size_t i = 0; i < n && strlen(buf) + 20 < size; i++) {
    const unsigned char *b = (const unsigned char *)&edges[i];
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%02x%02x%02x%02x%02x%02x%02x%02x",
             i ? "," : "", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
  }
  return buf;
}

/* The edge data a 12.3+ runtime reports: non-default, distinct per entry and major. */
static edge_t mock_edge(size_t i) {
  edge_t e = {(unsigned char)(i + 1), 0, 1, {(unsigned char)MOCK_MAJOR, 0, 0, 0, 0}};
  return e;
}

/* cudaStreamGetCaptureInfo: 3-argument legacy form (11.x, 12.x plain name), _v2 (11.3+, 6
 * arguments), _v3 (12.3+) and 13.x's plain name (7 arguments). A capture has 3 dependencies. */
static void *const capture_deps[3] = {(void *)(0x1100 + M), (void *)(0x1200 + M),
                                      (void *)(0x1300 + M)};
static edge_t capture_edges[3];

static int capture_info(const char *name, void *stream, int *status, unsigned long long *id,
                        void **graph, void *const **deps, const edge_t **edges, int has_edges,
                        size_t *num) {
  mock_record("%s stream=%#llx status=%d id=%d graph=%d deps=%d edges=%s num=%d", name,
              HEX(stream), NZ(status), NZ(id), NZ(graph), NZ(deps),
              has_edges ? (edges ? "1" : "0") : "-", NZ(num));
  if (stream == BAD_HANDLE) return INVALID_HANDLE;
  if (status == NULL) return INVALID_VALUE;
  for (size_t i = 0; i < 3; i++) capture_edges[i] = mock_edge(i);
  *status = 1; /* cudaStreamCaptureStatusActive */
  if (id) *id = 7000 + MOCK_MAJOR;
  if (graph) *graph = (void *)(0x6100 + M);
  if (deps) *deps = capture_deps;
  if (edges) *edges = capture_edges;
  if (num) *num = 3;
  return 0;
}

#define CAPTURE_V2(fn)                                                                             \
  EXPORT int fn(void *s, int *st, unsigned long long *id, void **g, void *const **d, size_t *n) { \
    return capture_info(#fn, s, st, id, g, d, NULL, 0, n);                                         \
  }
#define CAPTURE_V3(fn)                                                                             \
  EXPORT int fn(void *s, int *st, unsigned long long *id, void **g, void *const **d,               \
                const edge_t **e, size_t *n) {                                                     \
    return capture_info(#fn, s, st, id, g, d, e, 1, n);                                            \
  }
/* The legacy 3-argument form (11.x / 12.x plain names): what binaries built against 11.x call
 * and the stub exports as its CUDA 12 version; the 13 version never calls it. */
#define CAPTURE_LEGACY(fn)                                                                         \
  EXPORT int fn(void *s, int *st, unsigned long long *id) {                                        \
    return capture_info(#fn, s, st, id, NULL, NULL, NULL, 0, NULL);                                \
  }

#if MOCK_MAJOR < 13
CAPTURE_LEGACY(cudaStreamGetCaptureInfo)
CAPTURE_LEGACY(cudaStreamGetCaptureInfo_ptsz)
CAPTURE_V2(cudaStreamGetCaptureInfo_v2)
CAPTURE_V2(cudaStreamGetCaptureInfo_v2_ptsz)
#endif
#if MOCK_MAJOR == 12
CAPTURE_V3(cudaStreamGetCaptureInfo_v3)
CAPTURE_V3(cudaStreamGetCaptureInfo_v3_ptsz)
#endif
#if MOCK_MAJOR >= 13
CAPTURE_V3(cudaStreamGetCaptureInfo)
CAPTURE_V3(cudaStreamGetCaptureInfo_ptsz)
#endif

/* cudaMemAdvise / cudaMemPrefetchAsync: `int device` forms (11.x, 12.x plain names), struct
 * cudaMemLocation forms (12.2+ _v2, 13.x plain names). count 0 fails with cudaErrorInvalidValue. */
struct mem_location {
  int type, id;
};
_Static_assert(sizeof(struct mem_location) == 8, "cudaMemLocation");

#define ADVISE_INT(fn)                                                                             \
  EXPORT int fn(const void *p, size_t count, int advice, int device) {                            \
    mock_record("%s ptr=%#llx count=%zu advice=%d device=%d", #fn, HEX(p), count, advice, device); \
    return count ? 0 : INVALID_VALUE;                                                              \
  }
#define ADVISE_LOC(fn)                                                                             \
  EXPORT int fn(const void *p, size_t count, int advice, struct mem_location loc) {               \
    mock_record("%s ptr=%#llx count=%zu advice=%d location=%d:%d", #fn, HEX(p), count, advice,     \
                loc.type, loc.id);                                                                 \
    return count ? 0 : INVALID_VALUE;                                                              \
  }
#define PREFETCH_INT(fn)                                                                           \
  EXPORT int fn(const void *p, size_t count, int device, void *stream) {                          \
    mock_record("%s ptr=%#llx count=%zu device=%d stream=%#llx", #fn, HEX(p), count, device,       \
                HEX(stream));                                                                      \
    return count ? 0 : INVALID_VALUE;                                                              \
  }
#define PREFETCH_LOC(fn)                                                                           \
  EXPORT int fn(const void *p, size_t count, struct mem_location loc, unsigned flags, void *s) {  \
    mock_record("%s ptr=%#llx count=%zu location=%d:%d flags=%u stream=%#llx", #fn, HEX(p), count, \
                loc.type, loc.id, flags, HEX(s));                                                  \
    return count ? 0 : INVALID_VALUE;                                                              \
  }

#if MOCK_MAJOR < 13
ADVISE_INT(cudaMemAdvise)
PREFETCH_INT(cudaMemPrefetchAsync)
PREFETCH_INT(cudaMemPrefetchAsync_ptsz)
#endif
#if MOCK_MAJOR == 12
ADVISE_LOC(cudaMemAdvise_v2)
PREFETCH_LOC(cudaMemPrefetchAsync_v2)
PREFETCH_LOC(cudaMemPrefetchAsync_v2_ptsz)
#endif
#if MOCK_MAJOR >= 13
ADVISE_LOC(cudaMemAdvise)
PREFETCH_LOC(cudaMemPrefetchAsync)
PREFETCH_LOC(cudaMemPrefetchAsync_ptsz)
#endif

/* The graph-edge family: forms without edge data (11.x, 12.x plain names), with it (12.3+ _v2,
 * 13.x plain names). A graph has 3 edges and a node 3 dependencies / dependents; returned edge
 * data is mock_edge(i). */
static int deps_call(const char *name, void *graph, void *const *from, void *const *to,
                     const edge_t *edges, int has_edges, size_t n) {
  char f[256], t[256], e[256];
  mock_record("%s graph=%#llx from=%s to=%s edges=%s n=%zu", name, HEX(graph),
              fmt_nodes(f, sizeof f, from, n), fmt_nodes(t, sizeof t, to, n),
              has_edges ? fmt_edges(e, sizeof e, edges, n) : "-", n);
  return graph == BAD_HANDLE ? INVALID_HANDLE : 0;
}

/* Fills up to *num of a 3-entry list (from/to, or only `to` as node lists), NULLs the rest,
 * writes the count returned; count only when the arrays are NULL. */
static int get_list(const char *name, void *handle, void **from, void **to, edge_t *edges,
                    int has_edges, size_t *num, uintptr_t base) {
  char count[32];
  if (num) snprintf(count, sizeof count, "%zu", *num);
  mock_record("%s handle=%#llx from=%d to=%d edges=%s num=%s", name, HEX(handle), NZ(from),
              NZ(to), has_edges ? (edges ? "1" : "0") : "-", num ? count : "null");
  if (handle == BAD_HANDLE) return INVALID_HANDLE;
  if (num == NULL) return INVALID_VALUE;
  if (to == NULL) {
    *num = 3;
    return 0;
  }
  for (size_t i = 0; i < *num; i++) {
    int real = i < 3;
    if (from) from[i] = real ? (void *)(base + 0x10 * i + M) : NULL;
    to[i] = real ? (void *)(base + 0x1000 + 0x10 * i + M) : NULL;
    if (edges && real) edges[i] = mock_edge(i);
  }
  if (*num > 3) *num = 3;
  return 0;
}

#define DEPS_PLAIN(fn)                                                                             \
  EXPORT int fn(void *g, void *const *from, void *const *to, size_t n) {                          \
    return deps_call(#fn, g, from, to, NULL, 0, n);                                                \
  }
#define DEPS_EDGES(fn)                                                                             \
  EXPORT int fn(void *g, void *const *from, void *const *to, const edge_t *e, size_t n) {         \
    return deps_call(#fn, g, from, to, e, 1, n);                                                   \
  }
#define EDGES_PLAIN(fn)                                                                            \
  EXPORT int fn(void *g, void **from, void **to, size_t *num) {                                   \
    return get_list(#fn, g, from, to, NULL, 0, num, 0x2000);                                       \
  }
#define EDGES_EDGES(fn)                                                                            \
  EXPORT int fn(void *g, void **from, void **to, edge_t *e, size_t *num) {                        \
    return get_list(#fn, g, from, to, e, 1, num, 0x2000);                                          \
  }
#define NODES_PLAIN(fn, base)                                                                      \
  EXPORT int fn(void *node, void **nodes, size_t *num) {                                          \
    return get_list(#fn, node, NULL, nodes, NULL, 0, num, base);                                   \
  }
#define NODES_EDGES(fn, base)                                                                      \
  EXPORT int fn(void *node, void **nodes, edge_t *e, size_t *num) {                               \
    return get_list(#fn, node, NULL, nodes, e, 1, num, base);                                      \
  }

/* struct cudaGraphNodeParams (256 bytes in 12.9 and 13.x) with the members the tests use, in
 * this major's layout: 13.0 appended ctx / functionType to the kernel member and syncMode / ctx
 * to the host member. A memory-allocation node gets alloc.dptr = 0xA110 + major back. */
struct kernel_params_v2 {
  void *func;
  unsigned gridDim[3], blockDim[3], sharedMemBytes;
  void **kernelParams, **extra;
#if MOCK_MAJOR >= 13
  void *ctx;
  int functionType;
#endif
};
_Static_assert(sizeof(struct kernel_params_v2) == (MOCK_MAJOR >= 13 ? 72 : 56), "kernel node");
struct host_params_v2 {
  void *fn, *userData;
#if MOCK_MAJOR >= 13
  unsigned syncMode;
  void *ctx;
#endif
};
_Static_assert(sizeof(struct host_params_v2) == (MOCK_MAJOR >= 13 ? 32 : 16), "host node");
struct alloc_params_v2 {
  char poolProps[88];
  const void *accessDescs;
  size_t accessDescCount, bytesize;
  void *dptr;
};
_Static_assert(sizeof(struct alloc_params_v2) == 120, "alloc node");
struct node_params {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct kernel_params_v2 kernel;
    struct host_params_v2 host;
    struct alloc_params_v2 alloc;
  } u;
  long long reserved2;
};
_Static_assert(sizeof(struct node_params) == 256, "cudaGraphNodeParams");

/* "type=<t> <fields>" as this major reads them; a memory-allocation node gets its dptr. */
__attribute__((unused)) static const char *node_params(char *buf, size_t size,
                                                       struct node_params *p) {
  if (p == NULL) return "null";
  int n = snprintf(buf, size, "type=%d", p->type);
  if (p->type == 0) {
    const struct kernel_params_v2 *k = &p->u.kernel;
    n += snprintf(buf + n, size - n, " func=%#llx grid=%u,%u,%u block=%u,%u,%u shmem=%u args=%#llx",
                  HEX(k->func), k->gridDim[0], k->gridDim[1], k->gridDim[2], k->blockDim[0],
                  k->blockDim[1], k->blockDim[2], k->sharedMemBytes, HEX(k->kernelParams));
#if MOCK_MAJOR >= 13
    snprintf(buf + n, size - n, " ctx=%#llx ftype=%d", HEX(k->ctx), k->functionType);
#endif
  } else if (p->type == 3) {
    n += snprintf(buf + n, size - n, " fn=%#llx data=%#llx", HEX(p->u.host.fn),
                  HEX(p->u.host.userData));
#if MOCK_MAJOR >= 13
    snprintf(buf + n, size - n, " sync=%u ctx=%#llx", p->u.host.syncMode, HEX(p->u.host.ctx));
#endif
  } else if (p->type == 10) {
    snprintf(buf + n, size - n, " bytes=%zu", p->u.alloc.bytesize);
    p->u.alloc.dptr = (void *)(0xA110 + M);
  }
  return buf;
}

/* Used by 12.x and 13.x only. */
__attribute__((unused)) static int add_node(const char *name, void **out, void *graph,
                                            void *const *deps, const edge_t *edges, int has_edges,
                                            size_t n, struct node_params *params) {
  char d[256], e[256], p[256];
  mock_record("%s out=%d graph=%#llx deps=%s edges=%s n=%zu params={%s}", name, NZ(out),
              HEX(graph), fmt_nodes(d, sizeof d, deps, n),
              has_edges ? fmt_edges(e, sizeof e, edges, n) : "-", n,
              node_params(p, sizeof p, params));
  if (graph == BAD_HANDLE) return INVALID_HANDLE;
  *out = (void *)(0x9000 + M);
  return 0;
}

/* cudaGraphNodeSetParams / cudaGraphExecNodeSetParams (12.2+ / 12.4+, same prototype since). */
#if MOCK_MAJOR >= 12
EXPORT int cudaGraphNodeSetParams(void *node, struct node_params *params) {
  char p[256];
  mock_record("cudaGraphNodeSetParams node=%#llx params={%s}", HEX(node),
              node_params(p, sizeof p, params));
  return node == BAD_HANDLE ? INVALID_HANDLE : 0;
}
EXPORT int cudaGraphExecNodeSetParams(void *exec, void *node, struct node_params *params) {
  char p[256];
  mock_record("cudaGraphExecNodeSetParams exec=%#llx node=%#llx params={%s}", HEX(exec),
              HEX(node), node_params(p, sizeof p, params));
  return node == BAD_HANDLE ? INVALID_HANDLE : 0;
}
#endif

#if MOCK_MAJOR < 13
DEPS_PLAIN(cudaGraphAddDependencies)
DEPS_PLAIN(cudaGraphRemoveDependencies)
EDGES_PLAIN(cudaGraphGetEdges)
NODES_PLAIN(cudaGraphNodeGetDependencies, 0x3000)
NODES_PLAIN(cudaGraphNodeGetDependentNodes, 0x4000)
#endif
#if MOCK_MAJOR == 12
DEPS_EDGES(cudaGraphAddDependencies_v2)
DEPS_EDGES(cudaGraphRemoveDependencies_v2)
EDGES_EDGES(cudaGraphGetEdges_v2)
NODES_EDGES(cudaGraphNodeGetDependencies_v2, 0x3000)
NODES_EDGES(cudaGraphNodeGetDependentNodes_v2, 0x4000)
/* 12.2+: 5 arguments; 12.3+ _v2 with edge data. 11.x has neither. */
EXPORT int cudaGraphAddNode(void **out, void *g, void *const *deps, size_t n,
                            struct node_params *params) {
  return add_node("cudaGraphAddNode", out, g, deps, NULL, 0, n, params);
}
EXPORT int cudaGraphAddNode_v2(void **out, void *g, void *const *deps, const edge_t *e, size_t n,
                               struct node_params *params) {
  return add_node("cudaGraphAddNode_v2", out, g, deps, e, 1, n, params);
}
#endif
#if MOCK_MAJOR >= 13
DEPS_EDGES(cudaGraphAddDependencies)
DEPS_EDGES(cudaGraphRemoveDependencies)
EDGES_EDGES(cudaGraphGetEdges)
NODES_EDGES(cudaGraphNodeGetDependencies, 0x3000)
NODES_EDGES(cudaGraphNodeGetDependentNodes, 0x4000)
EXPORT int cudaGraphAddNode(void **out, void *g, void *const *deps, const edge_t *e, size_t n,
                            struct node_params *params) {
  return add_node("cudaGraphAddNode", out, g, deps, e, 1, n, params);
}
#endif

/* cudaGraphExecUpdate: 11.x reports through two out parameters, 12.0+ through
 * cudaGraphExecUpdateResultInfo. Exec 0xE000 updates; 0xE001 is refused (910,
 * cudaErrorGraphExecUpdateFailure, result TopologyChanged with error nodes). */
#define UPDATE_FAILURE 910
struct update_info {
  int result;
  void *errorNode, *errorFromNode;
};
_Static_assert(sizeof(struct update_info) == 24, "cudaGraphExecUpdateResultInfo");
#if MOCK_MAJOR == 11
EXPORT int cudaGraphExecUpdate(void *exec, void *graph, void **errorNode, int *result) {
  mock_record("cudaGraphExecUpdate exec=%#llx graph=%#llx errorNode=%d result=%d", HEX(exec),
              HEX(graph), NZ(errorNode), NZ(result));
  if (exec == BAD_HANDLE) return INVALID_HANDLE;
  if (errorNode == NULL || result == NULL) return INVALID_VALUE;
  int refused = exec == (void *)0xE001;
  *errorNode = refused ? (void *)(0x8100 + M) : NULL;
  *result = refused ? 2 : 0;
  return refused ? UPDATE_FAILURE : 0;
}
#else
EXPORT int cudaGraphExecUpdate(void *exec, void *graph, struct update_info *info) {
  mock_record("cudaGraphExecUpdate exec=%#llx graph=%#llx info=%d", HEX(exec), HEX(graph),
              NZ(info));
  if (exec == BAD_HANDLE) return INVALID_HANDLE;
  if (info == NULL) return INVALID_VALUE;
  int refused = exec == (void *)0xE001;
  info->result = refused ? 2 : 0;
  info->errorNode = refused ? (void *)(0x8100 + M) : NULL;
  info->errorFromNode = refused ? (void *)(0x8200 + M) : NULL;
  return refused ? UPDATE_FAILURE : 0;
}
#endif

/* cudaGetDriverEntryPoint: 11.x has 3 arguments and fails a missing symbol with 500
 * (cudaErrorSymbolNotFound, *funcPtr left alone); 12.0+ has driverStatus and reports a missing
 * symbol as success with a NULL *funcPtr. "cuInit" exists (0xF000 + major); NULL symbol: 1. */
#define SYMBOL_NOT_FOUND 500
#if MOCK_MAJOR == 11
#define ENTRY_POINT(fn)                                                                            \
  EXPORT int fn(const char *symbol, void **funcPtr, unsigned long long flags) {                   \
    mock_record("%s symbol=%s funcPtr=%d flags=%llu", #fn, symbol ? symbol : "null",               \
                NZ(funcPtr), flags);                                                               \
    if (symbol == NULL || funcPtr == NULL) return INVALID_VALUE;                                   \
    if (strcmp(symbol, "cuInit") != 0) return SYMBOL_NOT_FOUND;                                    \
    *funcPtr = (void *)(0xF000 + M);                                                               \
    return 0;                                                                                      \
  }
#else
#define ENTRY_POINT(fn)                                                                            \
  EXPORT int fn(const char *symbol, void **funcPtr, unsigned long long flags, int *driverStatus) {\
    mock_record("%s symbol=%s funcPtr=%d flags=%llu driverStatus=%d", #fn,                         \
                symbol ? symbol : "null", NZ(funcPtr), flags, NZ(driverStatus));                   \
    if (symbol == NULL || funcPtr == NULL) return INVALID_VALUE;                                   \
    int found = strcmp(symbol, "cuInit") == 0;                                                     \
    *funcPtr = found ? (void *)(0xF000 + M) : NULL;                                                \
    if (driverStatus) *driverStatus = found ? 0 : 1;                                               \
    return 0;                                                                                      \
  }
#endif
ENTRY_POINT(cudaGetDriverEntryPoint)
ENTRY_POINT(cudaGetDriverEntryPoint_ptsz)

/* ---- cudaChooseDevice: the major's own cudaDeviceProp (728 / 1032 / 1008 bytes). Logs a field
 * of each kind (shared, removed in 13.0, added in 12.x / 13.0) at that layout's offsets;
 * writes *device = 10 + major. NULL prop: cudaErrorInvalidValue. */
#if MOCK_MAJOR == 11
#define CHOOSE_PROP struct prop11
#define CHOOSE_EXTRA(p) "clockRate=%d", (p)->clockRate
#elif MOCK_MAJOR == 12
#define CHOOSE_PROP struct prop12
#define CHOOSE_EXTRA(p) "clockRate=%d clusterLaunch=%d", (p)->clockRate, (p)->clusterLaunch
#else
#define CHOOSE_PROP struct prop13
#define CHOOSE_EXTRA(p) "clusterLaunch=%d deviceNumaId=%d", (p)->clusterLaunch, (p)->deviceNumaId
#endif
EXPORT int cudaChooseDevice(int *device, const CHOOSE_PROP *p) {
  if (p == NULL) {
    mock_record("cudaChooseDevice prop=null");
    return INVALID_VALUE;
  }
  char extra[128];
  snprintf(extra, sizeof extra, CHOOSE_EXTRA(p));
  mock_record("cudaChooseDevice size=%zu name=%s major=%d minor=%d totalGlobalMem=%zu sms=%d %s",
              sizeof *p, p->name, p->major, p->minor, p->totalGlobalMem, p->multiProcessorCount,
              extra);
  *device = 10 + MOCK_MAJOR;
  return 0;
}

/* ---- cudaStreamUpdateCaptureDependencies: 4 arguments (11.x, 12.x plain names), edge data in
 * 12.3+'s _v2 and 13.x's plain names. */
static int update_deps(const char *name, void *stream, void *const *deps, const edge_t *edges,
                       int has_edges, size_t n, unsigned flags) {
  char d[256], e[256];
  mock_record("%s stream=%#llx deps=%s edges=%s n=%zu flags=%u", name, HEX(stream),
              fmt_nodes(d, sizeof d, deps, n), has_edges ? fmt_edges(e, sizeof e, edges, n) : "-",
              n, flags);
  return stream == BAD_HANDLE ? INVALID_HANDLE : 0;
}
#define UPDATE_PLAIN(fn)                                                                           \
  EXPORT int fn(void *s, void *const *d, size_t n, unsigned flags) {                              \
    return update_deps(#fn, s, d, NULL, 0, n, flags);                                              \
  }
#define UPDATE_EDGES(fn)                                                                           \
  EXPORT int fn(void *s, void *const *d, const edge_t *e, size_t n, unsigned flags) {             \
    return update_deps(#fn, s, d, e, 1, n, flags);                                                 \
  }
#if MOCK_MAJOR < 13
UPDATE_PLAIN(cudaStreamUpdateCaptureDependencies)
UPDATE_PLAIN(cudaStreamUpdateCaptureDependencies_ptsz)
#endif
#if MOCK_MAJOR == 12
UPDATE_EDGES(cudaStreamUpdateCaptureDependencies_v2)
UPDATE_EDGES(cudaStreamUpdateCaptureDependencies_v2_ptsz)
#endif
#if MOCK_MAJOR >= 13
UPDATE_EDGES(cudaStreamUpdateCaptureDependencies)
UPDATE_EDGES(cudaStreamUpdateCaptureDependencies_ptsz)
#endif

/* ---- External memory and semaphores: 11.8 / 12.9 descriptors end at `flags`; 13.0 appends
 * unsigned int reserved[16] (logged as the count of non-zero words). Outputs 0xE100.. + major;
 * external memory / semaphore handle 0xBAD fails with 400. */
#if MOCK_MAJOR >= 13
#define DESC_RESERVED unsigned int reserved[16];
#define LOG_RESERVED(d) " reserved=%d", count_nonzero((d)->reserved, 16)
#else
#define DESC_RESERVED
#define LOG_RESERVED(d) "%s", ""
#endif
__attribute__((unused)) static int count_nonzero(const unsigned *w, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) c += w[i] != 0;
  return c;
}
struct ext_mem_handle_desc {
  int type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  DESC_RESERVED
};
_Static_assert(sizeof(struct ext_mem_handle_desc) == (MOCK_MAJOR >= 13 ? 104 : 40), "handle desc");
struct ext_mem_buffer_desc {
  unsigned long long offset, size;
  unsigned int flags;
  DESC_RESERVED
};
_Static_assert(sizeof(struct ext_mem_buffer_desc) == (MOCK_MAJOR >= 13 ? 88 : 24), "buffer desc");
struct channel_desc {
  int x, y, z, w, f;
};
struct extent {
  size_t width, height, depth;
};
struct ext_mem_mipmap_desc {
  unsigned long long offset;
  struct channel_desc formatDesc;
  struct extent extent;
  unsigned int flags, numLevels;
  DESC_RESERVED
};
_Static_assert(sizeof(struct ext_mem_mipmap_desc) == (MOCK_MAJOR >= 13 ? 128 : 64), "mipmap desc");
struct ext_sem_handle_desc {
  int type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciSyncObj;
  } handle;
  unsigned int flags;
  DESC_RESERVED
};
_Static_assert(sizeof(struct ext_sem_handle_desc) == (MOCK_MAJOR >= 13 ? 96 : 32), "sem desc");

EXPORT int cudaImportExternalMemory(void **out, const struct ext_mem_handle_desc *d) {
  if (d == NULL) {
    mock_record("cudaImportExternalMemory desc=null");
    return INVALID_VALUE;
  }
  char r[32];
  snprintf(r, sizeof r, LOG_RESERVED(d));
  mock_record("cudaImportExternalMemory type=%d handle=%#llx name=%#llx size=%llu flags=%u%s",
              d->type, HEX(d->handle.win32.handle), HEX(d->handle.win32.name), d->size, d->flags,
              r);
  *out = (void *)(0xE100 + M);
  return 0;
}
EXPORT int cudaExternalMemoryGetMappedBuffer(void **devPtr, void *mem,
                                             const struct ext_mem_buffer_desc *d) {
  char r[32];
  snprintf(r, sizeof r, LOG_RESERVED(d));
  mock_record("cudaExternalMemoryGetMappedBuffer mem=%#llx offset=%llu size=%llu flags=%u%s",
              HEX(mem), d->offset, d->size, d->flags, r);
  if (mem == BAD_HANDLE) return INVALID_HANDLE;
  *devPtr = (void *)(0xE200 + M);
  return 0;
}
EXPORT int cudaExternalMemoryGetMappedMipmappedArray(void **mipmap, void *mem,
                                                     const struct ext_mem_mipmap_desc *d) {
  char r[32];
  snprintf(r, sizeof r, LOG_RESERVED(d));
  mock_record("cudaExternalMemoryGetMappedMipmappedArray mem=%#llx offset=%llu format=%d,%d,%d,%d,%d "
              "extent=%zu,%zu,%zu flags=%u numLevels=%u%s",
              HEX(mem), d->offset, d->formatDesc.x, d->formatDesc.y, d->formatDesc.z,
              d->formatDesc.w, d->formatDesc.f, d->extent.width, d->extent.height,
              d->extent.depth, d->flags, d->numLevels, r);
  if (mem == BAD_HANDLE) return INVALID_HANDLE;
  *mipmap = (void *)(0xE300 + M);
  return 0;
}
EXPORT int cudaImportExternalSemaphore(void **out, const struct ext_sem_handle_desc *d) {
  char r[32];
  snprintf(r, sizeof r, LOG_RESERVED(d));
  mock_record("cudaImportExternalSemaphore type=%d fd=%d flags=%u%s", d->type, d->handle.fd,
              d->flags, r);
  *out = (void *)(0xE400 + M);
  return 0;
}

/* Signal / wait parameters (72 bytes of params, then flags, then reserved[16]: 144 bytes, the
 * same in 11.2+, 12.x and 13.x); the 11.1-era _v1 structs, which 11.x's and 12.x's plain names
 * take (what binaries built against 11.0/11.1 call, and the stub exports as their CUDA 12 version), are smaller:
 * 32 bytes (signal) / 40 (wait, keyedMutex.timeoutMs before flags). Each call logs entry 0 and,
 * for several entries, the last one's fence,key,timeout,flags. */
struct sem_params {
  unsigned long long fence;
  unsigned long long nvSciSync;
  unsigned long long key;
  unsigned int rest[12]; /* rest[0]: keyedMutex.timeoutMs of a wait */
  unsigned int flags;
  unsigned int reserved[16];
};
_Static_assert(sizeof(struct sem_params) == 144, "cudaExternalSemaphoreSignalParams");
struct sem_signal_v1 {
  unsigned long long fence, nvSciSync, key;
  unsigned int flags;
};
_Static_assert(sizeof(struct sem_signal_v1) == 32, "cudaExternalSemaphoreSignalParams_v1");
struct sem_wait_v1 {
  unsigned long long fence, nvSciSync, key;
  unsigned int timeoutMs, pad, flags;
};
_Static_assert(sizeof(struct sem_wait_v1) == 40, "cudaExternalSemaphoreWaitParams_v1");
#define SEM_LOG(fn, type, timeout)                                                                 \
  EXPORT int fn(void *const *sems, const type *p, unsigned n, void *stream) {                     \
    char last[96] = "";                                                                            \
    if (n > 1)                                                                                     \
      snprintf(last, sizeof last, " last=%llu,%llu,%u,%u", p[n - 1].fence, p[n - 1].key,           \
               timeout(p[n - 1]), p[n - 1].flags);                                                 \
    mock_record("%s sem=%#llx fence=%llu key=%llu flags=%u n=%u stream=%#llx%s", #fn,              \
                HEX(sems[0]), p[0].fence, p[0].key, p[0].flags, n, HEX(stream), last);             \
    return sems[0] == BAD_HANDLE ? INVALID_HANDLE : 0;                                             \
  }
#define V2_TIMEOUT(e) ((e).rest[0])
#define V1_TIMEOUT(e) ((e).timeoutMs)
#define NO_TIMEOUT(e) 0u
#define SEM_ASYNC(fn) SEM_LOG(fn, struct sem_params, V2_TIMEOUT)
#if MOCK_MAJOR < 13
SEM_LOG(cudaSignalExternalSemaphoresAsync, struct sem_signal_v1, NO_TIMEOUT)
SEM_LOG(cudaSignalExternalSemaphoresAsync_ptsz, struct sem_signal_v1, NO_TIMEOUT)
SEM_LOG(cudaWaitExternalSemaphoresAsync, struct sem_wait_v1, V1_TIMEOUT)
SEM_LOG(cudaWaitExternalSemaphoresAsync_ptsz, struct sem_wait_v1, V1_TIMEOUT)
SEM_ASYNC(cudaSignalExternalSemaphoresAsync_v2)
SEM_ASYNC(cudaSignalExternalSemaphoresAsync_v2_ptsz)
SEM_ASYNC(cudaWaitExternalSemaphoresAsync_v2)
SEM_ASYNC(cudaWaitExternalSemaphoresAsync_v2_ptsz)
#else
SEM_ASYNC(cudaSignalExternalSemaphoresAsync)
SEM_ASYNC(cudaSignalExternalSemaphoresAsync_ptsz)
SEM_ASYNC(cudaWaitExternalSemaphoresAsync)
SEM_ASYNC(cudaWaitExternalSemaphoresAsync_ptsz)
#endif

/* ---- Texture and surface objects. cudaResourceDesc: 11.8 / 12.9 a 56-byte union; 13.0 a
 * 128-byte one and a trailing flags. cudaResourceViewDesc: 13.0 appends reserved[16].
 * cudaTextureDesc: 68 bytes in 11.8's plain form, 72 (seamlessCubemap) in 11.8's _v2 and 12.x /
 * 13.x. Queries return a pitch-2D resource / a view / a texture descriptor with per-major
 * values; object 0xBAD fails with 400. Created objects: 0x7E00 / 0x5F00 + major. */
#define RES_UNION_BYTES (MOCK_MAJOR >= 13 ? 128 : 56)
struct res_desc {
  int resType;
  union {
    struct {
      void *array;
    } array;
    struct {
      void *devPtr;
      struct channel_desc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct channel_desc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[RES_UNION_BYTES / 4];
  } res;
#if MOCK_MAJOR >= 13
  unsigned int flags;
#endif
};
_Static_assert(sizeof(struct res_desc) == (MOCK_MAJOR >= 13 ? 144 : 64), "cudaResourceDesc");
struct view_desc {
  int format;
  size_t width, height, depth;
  unsigned firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  DESC_RESERVED
};
_Static_assert(sizeof(struct view_desc) == (MOCK_MAJOR >= 13 ? 112 : 48), "cudaResourceViewDesc");
struct tex_desc_68 {
  int addressMode[3], filterMode, readMode, sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
};
_Static_assert(sizeof(struct tex_desc_68) == 68, "11.8 cudaTextureDesc");
struct tex_desc {
  struct tex_desc_68 base;
  int seamlessCubemap;
};
_Static_assert(sizeof(struct tex_desc) == 72, "cudaTextureDesc");

static const char *fmt_res(char *buf, size_t size, const struct res_desc *r) {
  if (r == NULL) return "null";
  int n = snprintf(buf, size, "type=%d", r->resType);
  if (r->resType == 0)
    n += snprintf(buf + n, size - n, " array=%#llx", HEX(r->res.array.array));
  else if (r->resType == 2)
    n += snprintf(buf + n, size - n, " ptr=%#llx desc=%d,%d,%d,%d,%d bytes=%zu",
                  HEX(r->res.linear.devPtr), r->res.linear.desc.x, r->res.linear.desc.y,
                  r->res.linear.desc.z, r->res.linear.desc.w, r->res.linear.desc.f,
                  r->res.linear.sizeInBytes);
  else if (r->resType == 3)
    n += snprintf(buf + n, size - n, " ptr=%#llx desc=%d,%d,%d,%d,%d w=%zu h=%zu pitch=%zu",
                  HEX(r->res.pitch2D.devPtr), r->res.pitch2D.desc.x, r->res.pitch2D.desc.y,
                  r->res.pitch2D.desc.z, r->res.pitch2D.desc.w, r->res.pitch2D.desc.f,
                  r->res.pitch2D.width, r->res.pitch2D.height, r->res.pitch2D.pitchInBytes);
#if MOCK_MAJOR >= 13
  snprintf(buf + n, size - n, " flags=%u", r->flags);
#endif
  return buf;
}
static const char *fmt_view(char *buf, size_t size, const struct view_desc *v) {
  if (v == NULL) return "null";
  char r[32];
  snprintf(r, sizeof r, LOG_RESERVED(v));
  snprintf(buf, size, "format=%d w=%zu h=%zu d=%zu mip=%u-%u layer=%u-%u%s", v->format, v->width,
           v->height, v->depth, v->firstMipmapLevel, v->lastMipmapLevel, v->firstLayer,
           v->lastLayer, r);
  return buf;
}
static const char *fmt_tex(char *buf, size_t size, const struct tex_desc_68 *t, int seamless) {
  if (t == NULL) return "null";
  int n = snprintf(buf, size,
                   "addr=%d,%d,%d filter=%d read=%d srgb=%d border=%g,%g,%g,%g norm=%d aniso=%u "
                   "mipfilter=%d bias=%g min=%g max=%g notrilinear=%d",
                   t->addressMode[0], t->addressMode[1], t->addressMode[2], t->filterMode,
                   t->readMode, t->sRGB, t->borderColor[0], t->borderColor[1], t->borderColor[2],
                   t->borderColor[3], t->normalizedCoords, t->maxAnisotropy, t->mipmapFilterMode,
                   t->mipmapLevelBias, t->minMipmapLevelClamp, t->maxMipmapLevelClamp,
                   t->disableTrilinearOptimization);
  if (seamless >= 0) snprintf(buf + n, size - n, " seamless=%d", seamless);
  return buf;
}

static int create_tex(const char *name, unsigned long long *out, const struct res_desc *r,
                      const struct tex_desc_68 *t, int seamless, const struct view_desc *v) {
  char rb[256], tb[256], vb[256];
  mock_record("%s res={%s} tex={%s} view={%s}", name, fmt_res(rb, sizeof rb, r),
              fmt_tex(tb, sizeof tb, t, seamless), fmt_view(vb, sizeof vb, v));
  if (r == NULL || t == NULL) return INVALID_VALUE;
  *out = 0x7E00 + M;
  return 0;
}
#if MOCK_MAJOR == 11
EXPORT int cudaCreateTextureObject(unsigned long long *out, const struct res_desc *r,
                                   const struct tex_desc_68 *t, const struct view_desc *v) {
  return create_tex("cudaCreateTextureObject", out, r, t, -1, v);
}
EXPORT int cudaCreateTextureObject_v2(unsigned long long *out, const struct res_desc *r,
                                      const struct tex_desc *t, const struct view_desc *v) {
  return create_tex("cudaCreateTextureObject_v2", out, r, t ? &t->base : NULL,
                    t ? t->seamlessCubemap : -1, v);
}
#else
EXPORT int cudaCreateTextureObject(unsigned long long *out, const struct res_desc *r,
                                   const struct tex_desc *t, const struct view_desc *v) {
  return create_tex("cudaCreateTextureObject", out, r, t ? &t->base : NULL,
                    t ? t->seamlessCubemap : -1, v);
}
#endif
EXPORT int cudaCreateSurfaceObject(unsigned long long *out, const struct res_desc *r) {
  char rb[256];
  mock_record("cudaCreateSurfaceObject res={%s}", fmt_res(rb, sizeof rb, r));
  if (r == NULL) return INVALID_VALUE;
  *out = 0x5F00 + M;
  return 0;
}

static int get_res(const char *name, struct res_desc *r, unsigned long long object) {
  mock_record("%s object=%#llx", name, object);
  if (object == 0xBAD) return INVALID_HANDLE;
  memset(r, 0, sizeof *r);
  r->resType = 3;
  r->res.pitch2D.devPtr = (void *)(0xD000 + M);
  struct channel_desc desc = {8, 16, 0, 0, (int)M};
  r->res.pitch2D.desc = desc;
  r->res.pitch2D.width = 100 + M;
  r->res.pitch2D.height = 200 + M;
  r->res.pitch2D.pitchInBytes = 512 + M;
  return 0;
}
EXPORT int cudaGetTextureObjectResourceDesc(struct res_desc *r, unsigned long long tex) {
  return get_res("cudaGetTextureObjectResourceDesc", r, tex);
}
EXPORT int cudaGetSurfaceObjectResourceDesc(struct res_desc *r, unsigned long long surf) {
  return get_res("cudaGetSurfaceObjectResourceDesc", r, surf);
}
EXPORT int cudaGetTextureObjectResourceViewDesc(struct view_desc *v, unsigned long long tex) {
  mock_record("cudaGetTextureObjectResourceViewDesc object=%#llx", tex);
  if (tex == 0xBAD) return INVALID_HANDLE;
  memset(v, 0, sizeof *v);
  v->format = 1;
  v->width = 10 + M;
  v->height = 20 + M;
  v->depth = 30 + M;
  v->firstMipmapLevel = 1;
  v->lastMipmapLevel = 2 + M;
  v->firstLayer = 3;
  v->lastLayer = 4 + M;
  return 0;
}
static void fill_tex(struct tex_desc_68 *t) {
  for (int i = 0; i < 3; i++) t->addressMode[i] = i + 1;
  t->filterMode = 1;
  t->readMode = 1;
  t->sRGB = 1;
  for (int i = 0; i < 4; i++) t->borderColor[i] = 0.5f * (float)i + (float)M;
  t->normalizedCoords = 1;
  t->maxAnisotropy = 4 + M;
  t->mipmapFilterMode = 1;
  t->mipmapLevelBias = 0.25f;
  t->minMipmapLevelClamp = 1.5f;
  t->maxMipmapLevelClamp = (float)M;
  t->disableTrilinearOptimization = 1;
}
#if MOCK_MAJOR == 11
EXPORT int cudaGetTextureObjectTextureDesc(struct tex_desc_68 *t, unsigned long long tex) {
  mock_record("cudaGetTextureObjectTextureDesc object=%#llx", tex);
  if (tex == 0xBAD) return INVALID_HANDLE;
  fill_tex(t);
  return 0;
}
#define GET_TEX_72 cudaGetTextureObjectTextureDesc_v2
#else
#define GET_TEX_72 cudaGetTextureObjectTextureDesc
#endif
EXPORT int GET_TEX_72(struct tex_desc *t, unsigned long long tex) {
  mock_record("%s object=%#llx", MOCK_MAJOR == 11 ? "cudaGetTextureObjectTextureDesc_v2"
                                                  : "cudaGetTextureObjectTextureDesc",
              tex);
  if (tex == 0xBAD) return INVALID_HANDLE;
  fill_tex(&t->base);
  t->seamlessCubemap = MOCK_MAJOR;
  return 0;
}

/* ---- cudaMemcpyBatchAsync / cudaMemcpy3DBatchAsync (12.8+): 12.x has size_t *failIdx, 13.x
 * not. count / numOps 0 fails with cudaErrorInvalidValue (failIdx SIZE_MAX). */
#if MOCK_MAJOR >= 12
static int batch(const char *name, void *const *dsts, const void *const *srcs,
                 const size_t *sizes, size_t count, void *attrs, size_t *idxs, size_t numAttrs,
                 int has_fail, size_t *failIdx, void *stream) {
  mock_record("%s dsts=%#llx,%#llx srcs=%#llx,%#llx sizes=%zu,%zu count=%zu attrs=%#llx "
              "idxs=%#llx numAttrs=%zu failIdx=%s stream=%#llx",
              name, HEX(dsts[0]), HEX(dsts[1]), HEX(srcs[0]), HEX(srcs[1]), sizes[0], sizes[1],
              count, HEX(attrs), HEX(idxs), numAttrs,
              has_fail ? (failIdx ? "1" : "0") : "-", HEX(stream));
  if (failIdx) *failIdx = count ? 0 : (size_t)-1;
  return count ? 0 : INVALID_VALUE;
}
static int batch_3d(const char *name, size_t numOps, void *ops, int has_fail, size_t *failIdx,
                    unsigned long long flags, void *stream) {
  mock_record("%s numOps=%zu ops=%#llx failIdx=%s flags=%llu stream=%#llx", name, numOps,
              HEX(ops), has_fail ? (failIdx ? "1" : "0") : "-", flags, HEX(stream));
  if (failIdx) *failIdx = numOps ? 0 : (size_t)-1;
  return numOps ? 0 : INVALID_VALUE;
}
#endif
#if MOCK_MAJOR == 12
#define BATCH(fn)                                                                                  \
  EXPORT int fn(void *const *d, const void *const *s, const size_t *z, size_t c, void *a,          \
                size_t *i, size_t n, size_t *f, void *st) {                                        \
    return batch(#fn, d, s, z, c, a, i, n, 1, f, st);                                              \
  }
#define BATCH_3D(fn)                                                                               \
  EXPORT int fn(size_t n, void *ops, size_t *f, unsigned long long flags, void *st) {             \
    return batch_3d(#fn, n, ops, 1, f, flags, st);                                                 \
  }
#elif MOCK_MAJOR >= 13
#define BATCH(fn)                                                                                  \
  EXPORT int fn(void *const *d, const void *const *s, const size_t *z, size_t c, void *a,          \
                size_t *i, size_t n, void *st) {                                                   \
    return batch(#fn, d, s, z, c, a, i, n, 0, NULL, st);                                           \
  }
#define BATCH_3D(fn)                                                                               \
  EXPORT int fn(size_t n, void *ops, unsigned long long flags, void *st) {                        \
    return batch_3d(#fn, n, ops, 0, NULL, flags, st);                                              \
  }
#endif
#if MOCK_MAJOR >= 12
BATCH(cudaMemcpyBatchAsync)
BATCH(cudaMemcpyBatchAsync_ptsz)
BATCH_3D(cudaMemcpy3DBatchAsync)
BATCH_3D(cudaMemcpy3DBatchAsync_ptsz)
#endif


/* Memory pools: cudaMemLocation is {int type; int id;} in 11.8 and 12.9 and
 * {int type; union {int id; struct {unsigned char deviceId, localityDomainId;} localized;};}
 * in 13.5 — the same 8 bytes, so the stub forwards these calls to every major unchanged (the
 * codegen widened-field rule). The mocks declare each major's own layout and log every field
 * they read, so a call that reached them with other bytes shows. cudaMemPoolProps is 88 bytes
 * in every major (12.0 carved maxSize and usage out of 11.8's reserved[64]). */
struct pool_location {
  int type;
#if MOCK_MAJOR >= 13
  union {
    int id;
    struct {
      unsigned char deviceId, localityDomainId;
    } localized;
  };
#else
  int id;
#endif
};
_Static_assert(sizeof(struct pool_location) == 8, "cudaMemLocation (this major's own spelling)");

struct mem_pool_props {
  int allocType;
  int handleTypes;
  struct pool_location location;
  void *win32SecurityAttributes;
#if MOCK_MAJOR >= 12
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
#else
  unsigned char reserved[64];
#endif
};
_Static_assert(sizeof(struct mem_pool_props) == 88, "cudaMemPoolProps");
_Static_assert(offsetof(struct mem_pool_props, location) == 8, "cudaMemPoolProps.location");

struct mem_access_desc {
  struct pool_location location;
  int flags;
};
_Static_assert(sizeof(struct mem_access_desc) == 12, "cudaMemAccessDesc");

/* Writes pool 0x9000 + 16 * location.id + major. */
EXPORT int cudaMemPoolCreate(void **pool, const struct mem_pool_props *props) {
  if (props == NULL) {
    mock_record("cudaMemPoolCreate props=0");
    return INVALID_VALUE;
  }
  mock_record("cudaMemPoolCreate allocType=%d handleTypes=%d location=%d/%d win32=%#llx",
              props->allocType, props->handleTypes, props->location.type, props->location.id,
              HEX(props->win32SecurityAttributes));
  *pool = (void *)(0x9000 + 16 * (uintptr_t)props->location.id + M);
  return 0;
}

EXPORT int cudaMemPoolSetAccess(void *pool, const struct mem_access_desc *descs, size_t count) {
  char list[256] = "";
  for (size_t i = 0; i < count && i < 8; i++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%d/%d:%d", i ? "," : "", descs[i].location.type,
             descs[i].location.id, descs[i].flags);
  }
  mock_record("cudaMemPoolSetAccess pool=%#llx descs=%s", HEX(pool), list);
  return pool == BAD_HANDLE ? INVALID_HANDLE : 0;
}

/* Writes flags 100 + 10 * location.id + major. */
EXPORT int cudaMemPoolGetAccess(int *flags, void *pool, const struct pool_location *location) {
  mock_record("cudaMemPoolGetAccess pool=%#llx location=%d/%d", HEX(pool), location->type,
              location->id);
  if (pool == BAD_HANDLE) return INVALID_HANDLE;
  *flags = 100 + 10 * location->id + (int)M;
  return 0;
}
