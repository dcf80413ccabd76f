/* Resolver of the Implib.so-style trampolines (trampoline.S): on the first call of a symbol,
 * dlopen its real library (path or soname from BENCH_TRAMP_NVRTC / _CUDART / _CUDA, default
 * the CUDA 13 soname) and store the real address in the symbol's slot. Single-threaded use
 * only (a benchmark), unlike Implib.so which takes a lock. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT 4
__attribute__((visibility("hidden"))) void *tramp_table[COUNT];

static const char *const tramp_names[COUNT] = {
    "nvrtcVersion", "cudaRuntimeGetVersion", "cudaGetLastError", "cuDriverGetVersion"};
static const int lib_of[COUNT] = {0, 1, 1, 2};
static const char *const lib_env[3] = {"BENCH_TRAMP_NVRTC", "BENCH_TRAMP_CUDART",
                                       "BENCH_TRAMP_CUDA"};
static const char *const lib_default[3] = {"libnvrtc.so.13", "libcudart.so.13", "libcuda.so.1"};
static void *handles[3];

__attribute__((visibility("hidden"))) void tramp_resolve(long index) {
    int lib = lib_of[index];
    if (!handles[lib]) {
        const char *path = getenv(lib_env[lib]);
        if (!path || !*path) path = lib_default[lib];
        handles[lib] = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
        if (!handles[lib]) {
            fprintf(stderr, "trampoline: dlopen %s: %s\n", path, dlerror());
            abort();
        }
    }
    void *f = dlsym(handles[lib], tramp_names[index]);
    if (!f) {
        fprintf(stderr, "trampoline: dlsym %s failed\n", tramp_names[index]);
        abort();
    }
    __atomic_store_n(&tramp_table[index], f, __ATOMIC_RELEASE);
}
