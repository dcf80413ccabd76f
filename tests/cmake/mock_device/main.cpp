// The checks a CUDA program's own tests make, on the mock device through the runtime API (and
// NVRTC with the driver API for its kernel, as NVRTC's own samples load one): the profile's
// device, memory round trips, out of memory at the profile's limit, a kernel compiled by
// NVIDIA's NVRTC, loaded and launched. Exits 0 when every check holds; prints each one.
// Arguments: the device's expected name and compute capability (`"NVIDIA H200" 90`); or
// `fault`, the run under CUDA_STUBS_FAULT=cudaMalloc=2@1 (CMakeLists.txt).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) failures++;
}

const char *SOURCE =
    "extern \"C\" __global__ void scale(float *x, float a, unsigned n) {\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n";

// NVRTC's PTX of SOURCE for the device, loaded and launched on `x` through the driver API.
void compile_load_launch(const cudaDeviceProp &prop, void *x, unsigned n) {
  nvrtcProgram prog = nullptr;
  check(nvrtcCreateProgram(&prog, SOURCE, "scale.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS,
        "nvrtcCreateProgram");
  std::string arch = "--gpu-architecture=compute_" + std::to_string(prop.major * 10 + prop.minor);
  const char *options[] = {arch.c_str()};
  nvrtcResult compiled = nvrtcCompileProgram(prog, 1, options);
  check(compiled == NVRTC_SUCCESS, "nvrtcCompileProgram " + arch + ": " + std::to_string(compiled));
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  std::vector<char> ptx(size);
  nvrtcGetPTX(prog, ptx.data());
  nvrtcDestroyProgram(&prog);
  check(std::strstr(ptx.data(), ".entry scale(") != nullptr, "the PTX has .entry scale");

  CUmodule module = nullptr;
  CUfunction scale = nullptr;
  CUresult loaded = cuModuleLoadData(&module, ptx.data());
  check(loaded == CUDA_SUCCESS, "cuModuleLoadData: " + std::to_string(loaded));
  check(loaded == CUDA_SUCCESS && cuModuleGetFunction(&scale, module, "scale") == CUDA_SUCCESS,
        "cuModuleGetFunction scale");
  float a = 2.0f;
  CUdeviceptr dx = reinterpret_cast<CUdeviceptr>(x);
  void *args[] = {&dx, &a, &n};
  CUresult launched = scale ? cuLaunchKernel(scale, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr,
                                             args, nullptr)
                            : CUDA_ERROR_NOT_FOUND;
  check(launched == CUDA_SUCCESS, "cuLaunchKernel: " + std::to_string(launched));
  check(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
  if (module) cuModuleUnload(module);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "fault") == 0) {
    void *p = nullptr;
    cudaError_t first = cudaMalloc(&p, 1024);
    check(first == cudaErrorMemoryAllocation, "injected: cudaMalloc rc=" + std::to_string(first));
    check(cudaGetLastError() == cudaErrorMemoryAllocation, "the fault is the last error");
    check(cudaMalloc(&p, 1024) == cudaSuccess && p != nullptr, "the second cudaMalloc succeeds");
    cudaFree(p);
    return failures == 0 ? 0 : 1;
  }

  int count = 0;
  check(cudaGetDeviceCount(&count) == cudaSuccess && count == 1, "one device: " + std::to_string(count));
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0) == cudaSuccess, "cudaGetDeviceProperties");
  std::printf("device 0: %s, sm_%d%d, %zu bytes\n", prop.name, prop.major, prop.minor,
              prop.totalGlobalMem);
  if (argc > 2) {
    check(std::strcmp(prop.name, argv[1]) == 0, std::string("the name is ") + argv[1]);
    check(prop.major * 10 + prop.minor == std::atoi(argv[2]), std::string("sm_") + argv[2]);
  }

  const unsigned n = 1000;
  std::vector<float> host(n), back(n, -1.0f);
  for (unsigned i = 0; i < n; i++) host[i] = static_cast<float>(i);
  void *x = nullptr;
  check(cudaMalloc(&x, n * sizeof(float)) == cudaSuccess, "cudaMalloc");
  check(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess,
        "cudaMemcpy host to device");
  check(cudaMemcpy(back.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess &&
            back == host,
        "cudaMemcpy device to host: the same values");
  check(cudaMemset(x, 0, n * sizeof(float)) == cudaSuccess &&
            cudaMemcpy(back.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess &&
            back == std::vector<float>(n, 0.0f),
        "cudaMemset: zeros back");

  size_t free_before = 0, total = 0, free_after = 0;
  check(cudaMemGetInfo(&free_before, &total) == cudaSuccess && total == prop.totalGlobalMem,
        "cudaMemGetInfo: the total is the device's");
  void *big = nullptr;
  check(cudaMalloc(&big, 1 << 20) == cudaSuccess, "cudaMalloc 1 MiB");
  cudaMemGetInfo(&free_after, &total);
  check(free_before - free_after >= (1 << 20), "1 MiB less free");
  cudaFree(big);
  void *too_much = nullptr;
  cudaError_t oom = cudaMalloc(&too_much, total + 1);
  check(oom == cudaErrorMemoryAllocation, "past the device's memory: rc=" + std::to_string(oom));
  check(cudaGetLastError() == cudaErrorMemoryAllocation && cudaGetLastError() == cudaSuccess,
        "cudaGetLastError reads and clears it");

  compile_load_launch(prop, x, n);
  check(cudaFree(x) == cudaSuccess, "cudaFree");
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
