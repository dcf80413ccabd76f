// Cooperative launches on the mock's kernel executor (issue 47; tests/tests/mock_cooperative.rs):
// a multi-block reduction whose blocks wait for each other at a grid-wide barrier, launched by
// cudaLaunchCooperativeKernel, cudaLaunchKernelExC with the cooperative attribute, and the
// driver's cuLaunchCooperativeKernel and cuLaunchKernelEx (through cudaGetDriverEntryPointByVersion);
// the launches a board refuses (a grid larger than it keeps resident: 720); a launch in
// clusters of two blocks, accepted (its kernel's barrier then finds no grid workspace: the
// case ends before the fault is read); and the barrier in a plain launch, which has no grid
// workspace and traps (719).
//
// The barrier is this file's own, over the driver's ABI that cooperative groups' grid.sync()
// uses (cooperative_groups/details/driver_abi.h): %envreg1:%envreg2 hold the address of the
// launch's grid workspace, `struct { unsigned wsSize; unsigned barrier; }`, zeroed per launch.
// (cooperative_groups.h itself needs CCCL's headers, not among the wheels CI fetches.) Each
// block's thread 0 adds 1 to the barrier word and waits until it reaches the next multiple of
// the grid's block count: a count that only grows, so the same word serves every barrier.
//
// One case per run, named by argv[1]; each prints `<case> ok ...` or `<case> FAIL ...`.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__device__ unsigned *grid_workspace() {
    unsigned lo, hi;
    asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
    asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
    return (unsigned *)(((unsigned long long)hi << 32) | lo);
}

__device__ void grid_barrier() {
    unsigned *ws = grid_workspace();
    if (ws == nullptr) __trap();  // not a cooperative launch
    unsigned *word = ws + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned n = gridDim.x * gridDim.y * gridDim.z;
        unsigned old;
        asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(word) : "memory");
        unsigned target = (old / n + 1) * n;
        unsigned now;
        do {
            asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : "l"(word) : "memory");
        } while (now < target);
    }
    __syncthreads();
}

// Sum of in[0..n) into out[0], then of every value doubled into out[1]: each block sums a
// grid-stride slice into partial[blockIdx.x]; after the barrier block 0 sums the partials;
// a second barrier before the partials are reused.
extern "C" __global__ void grid_sum(const int *in, int *partial, int *out, int n) {
    __shared__ int s[256];
    for (int round = 0; round < 2; ++round) {
        int acc = 0;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            acc += in[i] * (round + 1);
        s[threadIdx.x] = acc;
        __syncthreads();
        for (int k = blockDim.x / 2; k > 0; k /= 2) {
            if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
            __syncthreads();
        }
        if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
        grid_barrier();
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            int t = 0;
            for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
            out[round] = t;
        }
        grid_barrier();
    }
}

#define N (1 << 15)
#define THREADS 256

static int in_host[N];
static int expected;

struct Buffers {
    int *in, *partial, *out;
};

static Buffers setup(int blocks) {
    Buffers b;
    expected = 0;
    for (int i = 0; i < N; ++i) {
        in_host[i] = i % 101 - 50;
        expected += in_host[i];
    }
    cudaMalloc(&b.in, sizeof in_host);
    cudaMalloc(&b.partial, blocks * sizeof(int));
    cudaMalloc(&b.out, 2 * sizeof(int));
    cudaMemcpy(b.in, in_host, sizeof in_host, cudaMemcpyHostToDevice);
    cudaMemset(b.out, 0, 2 * sizeof(int));
    return b;
}

// Checks out[] after a launch answered `rc`, printing the case's line.
static int check(const char *name, int rc, Buffers b, int blocks) {
    int sync = (int)cudaDeviceSynchronize();
    int out[2] = {0, 0};
    cudaMemcpy(out, b.out, sizeof out, cudaMemcpyDeviceToHost);
    int ok = rc == 0 && sync == 0 && out[0] == expected && out[1] == 2 * expected;
    printf("%s %s blocks=%d rc=%d sync=%d sum=%d doubled=%d expected=%d\n", name,
           ok ? "ok" : "FAIL", blocks, rc, sync, out[0], out[1], expected);
    return ok ? 0 : 1;
}

// The grid the board keeps resident: occupancy × SMs (reductionMultiBlockCG's choice).
static int resident_blocks() {
    int per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, THREADS, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    return per_sm * sms;
}

typedef CUresult (*LoadData)(CUmodule *, const void *);
typedef CUresult (*GetFunction)(CUfunction *, CUmodule, const char *);
typedef CUresult (*LaunchCooperative)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, CUstream, void **);
typedef CUresult (*LaunchEx)(const CUlaunchConfig *, CUfunction, void **, void **);
typedef CUresult (*Init)(unsigned);
typedef CUresult (*Retain)(CUcontext *, CUdevice);
typedef CUresult (*SetCurrent)(CUcontext);

static void *entry(const char *name) {
    void *f = nullptr;
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion(name, &f, 13000, cudaEnableDefault, &q);
    return f;
}

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    int n = N;
    if (strcmp(c, "cooperative") == 0) {
        // Small enough a grid that the executor's interleaved blocks finish quickly, larger
        // than one block per SM would give.
        int blocks = resident_blocks() < 48 ? resident_blocks() : 48;
        Buffers b = setup(blocks);
        void *args[] = {&b.in, &b.partial, &b.out, &n};
        int rc = (int)cudaLaunchCooperativeKernel((const void *)grid_sum, dim3(blocks),
                                                  dim3(THREADS), args, 0, 0);
        return check(c, rc, b, blocks);
    }
    if (strcmp(c, "too_large") == 0) {
        int blocks = resident_blocks();
        Buffers b = setup(blocks + 1);
        void *args[] = {&b.in, &b.partial, &b.out, &n};
        int fits = (int)cudaLaunchCooperativeKernel((const void *)grid_sum, dim3(1),
                                                    dim3(THREADS), args, 0, 0);
        cudaDeviceSynchronize();
        int rc = (int)cudaLaunchCooperativeKernel((const void *)grid_sum, dim3(blocks + 1),
                                                  dim3(THREADS), args, 0, 0);
        int last = (int)cudaGetLastError();
        int ok = fits == 0 && rc == 720 && last == 720 && blocks > 0;
        printf("%s %s resident=%d one_block_rc=%d rc=%d last=%d\n", c, ok ? "ok" : "FAIL",
               blocks, fits, rc, last);
        return ok ? 0 : 1;
    }
    if (strcmp(c, "ex") == 0) {
        int blocks = 20;
        Buffers b = setup(blocks);
        void *args[] = {&b.in, &b.partial, &b.out, &n};
        cudaLaunchAttribute attrs[2];
        memset(attrs, 0, sizeof attrs);
        attrs[0].id = cudaLaunchAttributePriority;
        attrs[0].val.priority = 1;
        attrs[1].id = cudaLaunchAttributeCooperative;
        attrs[1].val.cooperative = 1;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(THREADS);
        cfg.attrs = attrs;
        cfg.numAttrs = 2;
        int rc = (int)cudaLaunchKernelExC(&cfg, (const void *)grid_sum, args);
        if (check(c, rc, b, blocks) != 0) return 1;
        // Clusters of two blocks, not cooperative: the launch is accepted.
        cudaLaunchAttribute cluster;
        memset(&cluster, 0, sizeof cluster);
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = 2;
        cluster.val.clusterDim.y = 1;
        cluster.val.clusterDim.z = 1;
        cfg.attrs = &cluster;
        cfg.numAttrs = 1;
        int clustered = (int)cudaLaunchKernelExC(&cfg, (const void *)grid_sum, args);
        cudaGetLastError();
        printf("ex_cluster rc=%d\n", clustered);
        return clustered == 0 ? 0 : 1;
    }
    if (strcmp(c, "driver") == 0) {
        // The same kernel through the driver: its PTX from argv[2].
        FILE *f = argc > 2 ? fopen(argv[2], "rb") : nullptr;
        static char ptx[1 << 20];
        size_t len = f ? fread(ptx, 1, sizeof ptx - 1, f) : 0;
        if (f) fclose(f);
        ptx[len] = 0;
        cudaFree(0);
        // The device's primary context, current on this thread for the driver's calls.
        Init init = (Init)entry("cuInit");
        Retain retain = (Retain)entry("cuDevicePrimaryCtxRetain");
        SetCurrent set = (SetCurrent)entry("cuCtxSetCurrent");
        CUcontext ctx = nullptr;
        if (!init || !retain || !set || init(0) != 0 || retain(&ctx, 0) != 0 || set(ctx) != 0) {
            printf("driver FAIL no primary context\n");
            return 1;
        }
        LoadData load = (LoadData)entry("cuModuleLoadData");
        GetFunction get = (GetFunction)entry("cuModuleGetFunction");
        LaunchCooperative coop = (LaunchCooperative)entry("cuLaunchCooperativeKernel");
        LaunchEx ex = (LaunchEx)entry("cuLaunchKernelEx");
        if (!load || !get || !coop || !ex || len == 0) {
            printf("driver FAIL entry points or PTX missing\n");
            return 1;
        }
        CUmodule mod = nullptr;
        CUfunction fn = nullptr;
        int lrc = (int)load(&mod, ptx);
        int grc = lrc == 0 ? (int)get(&fn, mod, "grid_sum") : -1;
        int blocks = 16;
        Buffers b = setup(blocks);
        void *args[] = {&b.in, &b.partial, &b.out, &n};
        int rc = grc == 0 ? (int)coop(fn, blocks, 1, 1, THREADS, 1, 1, 0, nullptr, args) : -1;
        printf("driver load=%d get=%d\n", lrc, grc);
        if (check("driver cooperative", rc, b, blocks) != 0) return 1;
        cudaMemset(b.out, 0, 2 * sizeof(int));
        CUlaunchAttribute attr;
        memset(&attr, 0, sizeof attr);
        attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attr.value.cooperative = 1;
        CUlaunchConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gridDimX = blocks;
        cfg.gridDimY = cfg.gridDimZ = 1;
        cfg.blockDimX = THREADS;
        cfg.blockDimY = cfg.blockDimZ = 1;
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        rc = (int)ex(&cfg, fn, args, nullptr);
        if (check("driver ex", rc, b, blocks) != 0) return 1;
        int huge = (int)coop(fn, 1 << 20, 1, 1, THREADS, 1, 1, 0, nullptr, args);
        printf("driver too large rc=%d\n", huge);
        return huge == 720 ? 0 : 1;
    }
    if (strcmp(c, "plain") == 0) {
        // Not cooperative: no grid workspace, the barrier traps: 719, sticky.
        Buffers b = setup(4);
        grid_sum<<<4, THREADS>>>(b.in, b.partial, b.out, n);
        int rc = (int)cudaGetLastError();
        int sync = (int)cudaDeviceSynchronize();
        printf("%s %s rc=%d sync=%d\n", c, rc == 0 && sync == 719 ? "ok" : "FAIL", rc, sync);
        return 0;
    }
    printf("unknown case %s\n", c);
    return 2;
}
