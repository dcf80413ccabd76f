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
  memset(a, 0, sizeof *a);
  a->type = 2; /* cudaMemoryTypeDevice */
  a->device = MOCK_MAJOR;
  a->devicePointer = (void *)ptr;
  a->hostPointer = (char *)ptr + MOCK_MAJOR;
  return 0;
}
