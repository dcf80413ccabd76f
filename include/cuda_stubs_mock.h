/* cuda_stubs_mock.h: the mock device's own C API (CUDA_STUBS_MOCK; the book's "Testing without a
 * GPU"). Its functions are libcuda_stubs_mock.so's (cuda_stubs_mock.dll's on Windows), which the
 * runtime, driver and NVML stubs load beside themselves under CUDA_STUBS_MOCK; a program never links it (it exports the CUDA names
 * too), it reaches the loaded copy through cuda_stubs_mock_symbol() below, after its first CUDA
 * call. Hand-written: the mock's own API, not NVIDIA's. */
#ifndef CUDA_STUBS_MOCK_H
#define CUDA_STUBS_MOCK_H

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A launch as the host function standing for a kernel sees it. */
typedef struct cuda_stubs_mock_launch {
  unsigned int grid[3];   /* blocks in x, y, z */
  unsigned int block[3];  /* threads per block in x, y, z */
  unsigned int shared_mem; /* dynamic shared memory, bytes */
  int device;             /* the device's index */
  unsigned int cooperative; /* 1 for a cooperative launch (cudaLaunchCooperativeKernel, the
                             cooperative launch attribute), else 0 */
  unsigned int cluster[3]; /* blocks per cluster in x, y, z as the launch named them (the
                             cluster-dimension launch attribute), all 0 when it named none */
} cuda_stubs_mock_launch;

/* A host function run in place of a kernel: `params` is the launch's kernelParams (one pointer
 * per kernel argument, as cuLaunchKernel takes them), `user` the pointer given at registration.
 * Device pointers are host addresses on the mock: it may read and write them. */
typedef void (*cuda_stubs_mock_kernel_fn)(void **params, const cuda_stubs_mock_launch *launch,
                                          void *user);

/* The mock's symbol `name`, or NULL when no stub has loaded the mock (CUDA_STUBS_MOCK unset, or
 * no CUDA call made yet). */
static inline void *cuda_stubs_mock_symbol(const char *name) {
#ifdef _WIN32
  /* The loaded DLL only (no reference taken, nothing loaded). */
  HMODULE mock = GetModuleHandleA("cuda_stubs_mock.dll");
  return mock ? (void *)GetProcAddress(mock, name) : NULL;
#else
  void *mock = dlopen("libcuda_stubs_mock.so", RTLD_LAZY | RTLD_NOLOAD);
  void *sym = mock ? dlsym(mock, name) : NULL;
  if (mock) dlclose(mock);
  return sym;
#endif
}

/* Registers `run` for every later launch of kernel `name` (cuLaunchKernel): 0; -1 for a NULL
 * argument or no mock loaded. A second registration of a name replaces the first. */
static inline int cuda_stubs_mock_register_kernel(const char *name, cuda_stubs_mock_kernel_fn run,
                                                  void *user) {
  typedef int (*register_fn)(const char *, cuda_stubs_mock_kernel_fn, void *);
  register_fn reg = (register_fn)cuda_stubs_mock_symbol("cuda_stubs_mock_register_kernel");
  return reg ? reg(name, run, user) : -1;
}

#ifdef __cplusplus
}
#endif

#endif /* CUDA_STUBS_MOCK_H */
