// A real CUDA program, compiled by nvcc 13 (tests/tests/nvcc_launch.rs) and linked only against
// libstubs_cudart.so (`-cudart none`): every `<<<…>>>` below becomes nvcc's own host code,
// __cudaPushCallConfiguration, then in the kernel's host stub __cudaGetKernel (once),
// __cudaPopCallConfiguration and __cudaLaunchKernel (__cudaLaunchKernel_ptsz with
// `--default-stream per-thread`). Whatever runtime the stub binds (a mock that records each
// launch, or NVIDIA's without a GPU), the program prints what every launch left as the thread's
// last error, so a launch that silently did nothing cannot pass unnoticed.
//
// Lines (stdout): `<step> peek=<cudaPeekAtLastError> last=<cudaGetLastError> after=<the next
// cudaGetLastError>`: peek and last must agree (the error is the launch's), after must be 0
// (cudaGetLastError cleared it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <cuda_runtime.h>

// Passed by value: the kernel argument array points at a copy of it (12 bytes, padded).
struct Params {
  int count;
  float bias;
  char tag;
};

// Kernels with differently typed parameters. On the mock device their PTX runs (the kernel
// executor); with NVIDIA's libraries and no GPU they are never run.
__global__ void fill(int n, float *out, double scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>(scale * i);
}

__global__ void apply(Params p, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.count) out[i] = in[i] + p.bias + p.tag;
}

__global__ void noargs() {}

static void check(const char *step) {
  int peek = cudaPeekAtLastError();
  int last = cudaGetLastError();
  int after = cudaGetLastError();
  std::printf("%s peek=%d last=%d after=%d\n", step, peek, last, after);
}

int main() {
  // Device memory where there is a device (the mock, whose executor runs the kernels); without
  // one, recognisable fake values (no kernel runs there). A failed cudaMalloc (no driver) sets
  // the last error: cleared by the first check.
  float *out = reinterpret_cast<float *>(uintptr_t{0xd0000100});
  const float *in = reinterpret_cast<const float *>(uintptr_t{0xd0000200});
  // The mock's executor dereferences them: real device memory there (the tests' spy libraries
  // only echo the values).
  void *memory = nullptr;
  bool device = std::getenv("CUDA_STUBS_MOCK") != nullptr &&
                cudaMalloc(&memory, 4096 * sizeof(float)) == cudaSuccess;
  if (device) {
    out = static_cast<float *>(memory);
    in = out + 2048;
  }
  cudaGetLastError();
  check("start");

  cudaStream_t stream = nullptr;
  int rc = cudaStreamCreate(&stream);
  std::printf("stream-create rc=%d\n", rc);
  // A failed cudaStreamCreate (no driver) sets the last error too: cleared here, so that each
  // launch below is judged by its own error only.
  check("stream-create");

  fill<<<dim3(2, 3, 4), dim3(32, 2, 1), 0, 0>>>(1000, out, 2.5);
  check("fill");

  apply<<<dim3(5), dim3(64), 256, stream>>>(Params{3, 1.5f, 'x'}, in, out);
  check("apply");

  noargs<<<1, 1>>>();
  check("noargs");

  // An invalid configuration: the runtime refuses it (cudaErrorInvalidConfiguration, 9).
  fill<<<dim3(0, 1, 1), dim3(1), 0, stream>>>(1, out, 0.5);
  check("fill-zero-grid");

  // The documented API with the host function, not nvcc's handle path.
  int n = 7;
  double scale = -0.25;
  void *args[] = {&n, &out, &scale};
  rc = cudaLaunchKernel(reinterpret_cast<const void *>(fill), dim3(9, 1, 1), dim3(128, 1, 1),
                        args, 64, stream);
  std::printf("cudaLaunchKernel rc=%d\n", rc);
  check("explicit");

  // The last error is per thread: a launch failing on another thread leaves this one's clear.
  std::fflush(stdout);
  std::thread([&] {
    apply<<<dim3(0), dim3(1), 0, stream>>>(Params{1, 0.0f, 't'}, in, out);
    check("thread-zero-grid");
    std::fflush(stdout);
  }).join();
  check("main-after-thread");

  if (stream != nullptr) {
    rc = cudaStreamDestroy(stream);
    std::printf("stream-destroy rc=%d\n", rc);
  }
  if (device) {
    // fill wrote out[i] = 2.5 i for i = blockIdx.x * 32 + threadIdx.x < 64, apply out[0..2] =
    // in[i] + 1.5 + 'x', the explicit fill out[0..6] = -0.25 i, in that order (one device,
    // every stream's work in order).
    float back[1000];
    rc = cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
    std::printf("results rc=%d out[2]=%g out[6]=%g out[7]=%g out[63]=%g out[64]=%g\n", rc,
                back[2], back[6], back[7], back[63], back[64]);
  }
  return 0;
}
