// GPU hot-path bench (run by benches/gpu/run.sh on a GPU machine, built twice with nvcc: linked
// against NVIDIA's libcudart/libcuda, and with -cudart=none against the stubs).
// Measures, each as N operations then one stream synchronize, median of REPEATS, after a warm-up
// of 1000 of the same operation, repeated until WARMUP seconds have passed (default 0: once):
//   cudaLaunchKernel  of an empty kernel (runtime API)
//   cuLaunchKernel    of the same kernel (driver API; CUfunction from cudaGetFuncBySymbol)
//   cudaMemcpyAsync   of 4 bytes, pinned host to device
// Usage: launch_rate [N=100000] [REPEATS=5] [WARMUP=0]
// Prints "info gpu=... driver=... runtime=..." and
// "<op> ops_per_s=<median> ns_per_op=<median> min_ops_per_s=<slowest> max_ops_per_s=<fastest>".
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <time.h>

__global__ void empty() {}

static void check_rt(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s (%d)\n", what, cudaGetErrorString(e), (int)e);
        std::exit(1);
    }
}
static void check_dr(CUresult e, const char *what) {
    if (e != CUDA_SUCCESS) {
        std::fprintf(stderr, "%s: CUresult %d\n", what, (int)e);
        std::exit(1);
    }
}
#define RT(x) check_rt((x), #x)
#define DR(x) check_dr((x), #x)

static double now_s() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

template <typename F>
static void bench(const char *name, int n, int repeats, double warmup, cudaStream_t s, F op) {
    double secs[64];
    double w0 = now_s();
    do {
        for (int i = 0; i < 1000; i++) op();
        RT(cudaStreamSynchronize(s));
    } while (now_s() - w0 < warmup);
    for (int r = 0; r < repeats; r++) {
        double t0 = now_s();
        for (int i = 0; i < n; i++) op();
        RT(cudaStreamSynchronize(s));
        secs[r] = now_s() - t0;
    }
    std::sort(secs, secs + repeats);
    double med = secs[repeats / 2];
    std::printf("%s ops_per_s=%.0f ns_per_op=%.1f min_ops_per_s=%.0f max_ops_per_s=%.0f\n", name,
                n / med, med * 1e9 / n, n / secs[repeats - 1], n / secs[0]);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 100000;
    int repeats = std::max(1, std::min(argc > 2 ? std::atoi(argv[2]) : 5, 64));
    double warmup = argc > 3 ? std::atof(argv[3]) : 0.0;

    RT(cudaFree(nullptr)); // creates the primary context, current for the driver calls too
    int runtime = 0, driver = 0;
    RT(cudaRuntimeGetVersion(&runtime));
    DR(cuDriverGetVersion(&driver));
    CUdevice dev;
    char gpu[256] = {0};
    DR(cuInit(0));
    DR(cuDeviceGet(&dev, 0));
    DR(cuDeviceGetName(gpu, sizeof gpu, dev));
    std::printf("info gpu=\"%s\" driver=%d runtime=%d n=%d repeats=%d warmup=%g\n", gpu, driver,
                runtime, n, repeats, warmup);

    cudaStream_t stream;
    RT(cudaStreamCreate(&stream));

    dim3 one(1);
    bench("cudaLaunchKernel", n, repeats, warmup, stream, [&] {
        RT(cudaLaunchKernel((const void *)empty, one, one, nullptr, 0, stream));
    });

    cudaFunction_t rf;
    RT(cudaGetFuncBySymbol(&rf, (const void *)empty));
    CUfunction f = (CUfunction)rf;
    bench("cuLaunchKernel", n, repeats, warmup, stream, [&] {
        DR(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, (CUstream)stream, nullptr, nullptr));
    });

    int *host, *dev_buf;
    RT(cudaMallocHost((void **)&host, sizeof(int)));
    RT(cudaMalloc((void **)&dev_buf, sizeof(int)));
    *host = 42;
    bench("cudaMemcpyAsync", n, repeats, warmup, stream, [&] {
        RT(cudaMemcpyAsync(dev_buf, host, sizeof(int), cudaMemcpyHostToDevice, stream));
    });

    RT(cudaFree(dev_buf));
    RT(cudaFreeHost(host));
    RT(cudaStreamDestroy(stream));
    return 0;
}
