/* Compiled against the CUDA 12.9 headers and linked against libstubs_cudart.so built with the
 * `abi-12` feature (CUDA 12's exported ABI). cudaGraphAddDependencies has 4 arguments here
 * (13.x added edge data): the stub must hand exactly those to a 12.x runtime, and refuse on
 * 13.x, where the same name takes 5. Prints `key=value` lines, including what the mock runtime
 * received (mock_take_calls of tests/mocks/cudart_abi.c). */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void calls(void) {
  static const char *sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};
  void (*take)(char *, size_t) = NULL;
  for (size_t i = 0; i < sizeof sonames / sizeof *sonames && take == NULL; i++) {
    void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (lib != NULL) *(void **)&take = dlsym(lib, "mock_take_calls");
  }
  char buf[4096] = "no-mock";
  if (take != NULL) take(buf, sizeof buf);
  printf("calls=%s\n", buf);
}

int main(void) {
  printf("header=%d\n", CUDART_VERSION);
  int version = 0;
  cudaRuntimeGetVersion(&version);
  printf("runtime=%d\n", version);
  calls();
  cudaGraphNode_t from[2] = {(cudaGraphNode_t)0x101, (cudaGraphNode_t)0x102};
  cudaGraphNode_t to[2] = {(cudaGraphNode_t)0x201, (cudaGraphNode_t)0x202};
  cudaError_t r = cudaGraphAddDependencies((cudaGraph_t)0x77, from, to, 2);
  printf("deps=%d\n", (int)r);
  calls();
  return 0;
}
