// Function attributes and occupancy (issue 48 item 5): cudaFuncGetAttributes and the occupancy
// API of the runtime, and cuFuncGetAttribute and cuOccupancy* of the driver on the same kernels
// loaded from their CUBIN (argv[1], this file built with `nvcc -cubin`), each beside what
// NVIDIA's own calculator (cuda_occupancy.h) says for the attributes and properties the API gave.
// One `key=value` line per fact: on a board (tests/gpu/occupancy.sh) and on the mock
// (tests/tests/mock_api.rs), compared line by line.
#include <cuda.h>
#include <cuda_occupancy.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__constant__ float coef[64];

// 40-odd registers, local memory, 4 KiB of static shared memory, one barrier.
extern "C" __global__ void heavy(float *x, int n) {
  __shared__ float tile[1024];
  float local[40];
  int i = threadIdx.x;
  for (int j = 0; j < 40; j++) local[j] = x[(i + j * 7) % n] * coef[j];
  tile[i % 1024] = local[i % 40] + local[(i * 3) % 40];
  __syncthreads();
  x[i] = tile[(i + 1) % 1024];
}

// Few registers, nothing else.
extern "C" __global__ void light(float *x) { x[threadIdx.x] += 1.0f; }

// __launch_bounds__, 100 bytes of static shared memory.
extern "C" __global__ void __launch_bounds__(256) bounded(float *x) {
  __shared__ float t[25];
  t[threadIdx.x % 25] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = t[(threadIdx.x + 1) % 25];
}

// Dynamic shared memory only.
extern "C" __global__ void dyn(float *x) {
  extern __shared__ float d[];
  d[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = d[threadIdx.x ^ 1];
}

static size_t quarter(int block) { return (size_t)block * 64; }

static void runtime_side(const char *name, const void *f) {
  cudaFuncAttributes a;
  int rc = (int)cudaFuncGetAttributes(&a, f);
  printf("%s cudaFuncGetAttributes rc=%d regs=%d shared=%zu const=%zu local=%zu "
         "maxThreads=%d ptx=%d binary=%d maxDynShared=%d carveout=%d\n",
         name, rc, a.numRegs, a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes,
         a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion, a.maxDynamicSharedSizeBytes,
         a.preferredShmemCarveout);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  cudaOccDeviceProp occ_p(p);
  cudaOccFuncAttributes occ_a(a);
  cudaOccDeviceState state;
  const int blocks[] = {32, 96, 128, 256, 512, 640, 1024};
  const size_t dyns[] = {0, 1000, 16384, 40000};
  for (int b : blocks)
    for (size_t d : dyns) {
      int n = -1;
      rc = (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, b, d);
      cudaOccResult r;
      cudaOccMaxActiveBlocksPerMultiprocessor(&r, &occ_p, &occ_a, &state, b, d);
      printf("%s occupancy block=%d dyn=%zu rc=%d blocks=%d calculator=%d\n", name, b, d, rc, n,
             r.activeBlocksPerMultiprocessor);
    }
  int grid = -1, block = -1;
  rc = (int)cudaOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0);
  printf("%s potential rc=%d grid=%d block=%d\n", name, rc, grid, block);
  rc = (int)cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, f, quarter, 0);
  printf("%s potential variable rc=%d grid=%d block=%d\n", name, rc, grid, block);
  size_t avail = 0;
  rc = (int)cudaOccupancyAvailableDynamicSMemPerBlock(&avail, f, 2, 256);
  printf("%s available(2x256) rc=%d bytes=%zu\n", name, rc, avail);
  rc = (int)cudaOccupancyAvailableDynamicSMemPerBlock(&avail, f, 1, 128);
  printf("%s available(1x128) rc=%d bytes=%zu\n", name, rc, avail);
}

static void driver_side(CUmodule m, const char *name) {
  CUfunction f = NULL;
  int rc = (int)cuModuleGetFunction(&f, m, name);
  int v[10];
  for (int i = 0; i < 10; i++) {
    v[i] = -7;
    cuFuncGetAttribute(&v[i], (CUfunction_attribute)i, f);
  }
  printf("%s cuFuncGetAttribute rc=%d maxThreads=%d shared=%d const=%d local=%d regs=%d ptx=%d "
         "binary=%d ca=%d maxDynShared=%d carveout=%d\n",
         name, rc, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
  for (int b : {64, 256, 1024}) {
    int n = -1;
    rc = (int)cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, b, 2048);
    printf("%s cuOccupancy block=%d dyn=2048 rc=%d blocks=%d\n", name, b, rc, n);
  }
  int grid = -1, block = -1;
  rc = (int)cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0);
  printf("%s cuPotential rc=%d grid=%d block=%d\n", name, rc, grid, block);
  rc = (int)cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 200);
  printf("%s cuPotential(limit 200) rc=%d grid=%d block=%d\n", name, rc, grid, block);
  // Opting in to more dynamic shared memory than the default 48 KiB.
  rc = (int)cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000);
  int n = -1, after = -1;
  cuFuncGetAttribute(&after, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 100000);
  printf("%s opt-in rc=%d maxDynShared=%d blocks_128_100000=%d\n", name, rc, after, n);
  rc = (int)cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1 << 30);
  printf("%s opt-in too much rc=%d\n", name, rc);
  rc = (int)cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 25);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 8192);
  printf("%s carveout 25 rc=%d blocks_128_8192=%d\n", name, rc, n);
  rc = (int)cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 8);
  printf("%s set NUM_REGS rc=%d\n", name, rc);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: occupancy CUBIN\n");
    return 2;
  }
  runtime_side("heavy", (const void *)heavy);
  runtime_side("light", (const void *)light);
  runtime_side("bounded", (const void *)bounded);
  runtime_side("dyn", (const void *)dyn);
  cudaFuncAttributes none;
  printf("not a kernel rc=%d\n", (int)cudaFuncGetAttributes(&none, (const void *)main));
  int rc = (int)cudaFuncSetAttribute((const void *)dyn,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  int n = -1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)dyn, 128, 100000);
  printf("dyn runtime opt-in rc=%d blocks_128_100000=%d\n", rc, n);

  // The driver, on the CUBIN of the same source.
  FILE *file = fopen(argv[1], "rb");
  if (!file) {
    perror(argv[1]);
    return 2;
  }
  static char image[1 << 20];
  size_t size = fread(image, 1, sizeof image, file);
  fclose(file);
  printf("cubin read=%d\n", size > 0);
  cuInit(0);
  CUmodule m = NULL;
  rc = (int)cuModuleLoadData(&m, image);
  printf("cuModuleLoadData rc=%d\n", rc);
  for (const char *k : {"heavy", "light", "bounded", "dyn"}) driver_side(m, k);
  CUmodule owner = NULL;
  CUfunction f = NULL;
  cuModuleGetFunction(&f, m, "light");
  rc = (int)cuFuncGetModule(&owner, f);
  printf("cuFuncGetModule rc=%d same=%d\n", rc, owner == m);
  cuModuleUnload(m);
  return 0;
}
