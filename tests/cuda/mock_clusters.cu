// Thread-block clusters on the mock's kernel executor (issue 47; tests/tests/mock_clusters.rs,
// and tests/gpu/clusters.sh on a board): clusters of 2 and 4 blocks launched with
// cudaLaunchKernelEx's cluster-dimension attribute, whose blocks read and add to their peers'
// shared arrays (distributed shared memory, cluster.map_shared_rank) between cluster.sync()s;
// the CUDA C++ Programming Guide's histogram over distributed shared memory; a kernel whose
// __cluster_dims__ fixes its clusters, launched with <<<>>>; and the launches a board refuses
// (a grid the clusters do not divide, more than 8 blocks without the non-portable attribute);
// and the driver's cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION on the module
// of the program's PTX (argv[2]).
//
// Cooperative groups' cluster_group when CCCL's headers are at hand (cooperative_groups.h
// needs <nv/target>, not among the wheels CI fetches), else the sm_90 intrinsics it wraps
// (crt/sm_90_rt.h): the same PTX instructions either way.
//
// One case per run, named by argv[1]; each prints `<case> ok ...` or `<case> FAIL ...` lines
// computed on the host.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#if __has_include(<nv/target>)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ unsigned cluster_rank() { return cg::this_cluster().block_rank(); }
__device__ unsigned cluster_blocks() { return cg::this_cluster().num_blocks(); }
__device__ void cluster_sync() { cg::this_cluster().sync(); }
template <typename T> __device__ T *map_rank(T *p, unsigned rank) {
    return cg::this_cluster().map_shared_rank(p, rank);
}
#else
__device__ unsigned cluster_rank() { return __clusterRelativeBlockRank(); }
__device__ unsigned cluster_blocks() { return __clusterSizeInBlocks(); }
__device__ void cluster_sync() {
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
}
template <typename T> __device__ T *map_rank(T *p, unsigned rank) {
    return (T *)__cluster_map_shared_rank(p, rank);
}
#endif

#define THREADS 128

// Each block fills its shared array, reads the next rank's through distributed shared memory,
// adds one to it; after the cluster's sync it reads its own back (raised by its previous rank).
// ids[block * 4..]: its rank, the cluster's blocks, %clusterid.x, its own rank's peer.
extern "C" __global__ void ring(int *out, unsigned *ids) {
    __shared__ int s[THREADS];
    unsigned rank = cluster_rank(), n = cluster_blocks();
    s[threadIdx.x] = int(blockIdx.x * 1000 + threadIdx.x);
    cluster_sync();
    int *peer = map_rank(s, (rank + 1) % n);
    int seen = peer[threadIdx.x];
    atomicAdd(&peer[threadIdx.x], 1);
    cluster_sync();
    out[blockIdx.x * THREADS + threadIdx.x] =
        seen * 10 + (s[threadIdx.x] - int(blockIdx.x * 1000 + threadIdx.x));
    if (threadIdx.x == 0) {
        ids[blockIdx.x * 4 + 0] = rank;
        ids[blockIdx.x * 4 + 1] = n;
        ids[blockIdx.x * 4 + 2] = __clusterIdx().x;
        ids[blockIdx.x * 4 + 3] = __cluster_query_shared_rank(peer);
    }
}

// The Programming Guide's histogram: the cluster's blocks split nbins bins in their shared
// memory; each thread counts its input elements into the owning block's bins.
__global__ void histogram(int *bins, const int *input, int n, int nbins) {
    extern __shared__ int smem[];
    int bins_per_block = nbins / int(cluster_blocks());
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
    cluster_sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int binid = input[i];
        binid = binid < 0 ? 0 : (binid >= nbins ? nbins - 1 : binid);
        int *dst = map_rank(smem, unsigned(binid / bins_per_block));
        atomicAdd(dst + binid % bins_per_block, 1);
    }
    // Every block's counting is done before any block's shared memory is read and ends.
    cluster_sync();
    int *lbins = bins + cluster_rank() * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

// A compile-time cluster of two: each block reads its partner's array.
__global__ void __cluster_dims__(2, 1, 1) pairs(int *out) {
    __shared__ int s[THREADS];
    unsigned rank = cluster_rank();
    s[threadIdx.x] = int(rank * 100 + threadIdx.x);
    cluster_sync();
    out[blockIdx.x * THREADS + threadIdx.x] = map_rank(s, rank ^ 1)[threadIdx.x];
    cluster_sync();
}

static int launch_ex(const void *f, unsigned grid, unsigned cluster, size_t smem, void **args) {
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int rc = (int)cudaLaunchKernelExC(&cfg, f, args);
    cudaGetLastError();
    return rc;
}

typedef int (*Launcher)(unsigned grid, unsigned cluster, void **args);

static int runtime_ring(unsigned grid, unsigned cluster, void **args) {
    return launch_ex((const void *)ring, grid, cluster, 0, args);
}

static int ring_case(const char *name, unsigned grid, unsigned cluster,
                     Launcher launch = runtime_ring) {
    int *out;
    unsigned *ids;
    cudaMalloc(&out, grid * THREADS * sizeof(int));
    cudaMalloc(&ids, grid * 4 * sizeof(unsigned));
    void *args[] = {&out, &ids};
    int rc = launch(grid, cluster, args);
    int sync = (int)cudaDeviceSynchronize();
    static int h[64 * THREADS];
    static unsigned hi[64 * 4];
    cudaMemcpy(h, out, grid * THREADS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, ids, grid * 4 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned b = 0; b < grid && !bad; ++b) {
        unsigned rank = b % cluster, next = b - rank + (rank + 1) % cluster;
        for (unsigned t = 0; t < THREADS; ++t) {
            int want = int(next * 1000 + t) * 10 + 1;
            if (h[b * THREADS + t] != want) {
                printf("%s FAIL block %u thread %u: %d, expected %d\n", name, b, t,
                       h[b * THREADS + t], want);
                bad = 1;
                break;
            }
        }
        unsigned want_ids[4] = {rank, cluster, b / cluster, (rank + 1) % cluster};
        if (!bad && memcmp(&hi[b * 4], want_ids, sizeof want_ids) != 0) {
            printf("%s FAIL block %u ids %u %u %u %u\n", name, b, hi[b * 4], hi[b * 4 + 1],
                   hi[b * 4 + 2], hi[b * 4 + 3]);
            bad = 1;
        }
    }
    printf("%s %s grid=%u cluster=%u rc=%d sync=%d\n", name, bad || rc || sync ? "FAIL" : "ok",
           grid, cluster, rc, sync);
    cudaFree(out);
    cudaFree(ids);
    return bad || rc || sync;
}

static int histogram_case(const char *name, unsigned cluster, int nbins) {
    const int n = 50000;
    static int in[n];
    static int want[1024], got[1024];
    memset(want, 0, sizeof want);
    for (int i = 0; i < n; ++i) {
        in[i] = (i * 7919 + i / 13) % (nbins + 6) - 3;
        int b = in[i] < 0 ? 0 : (in[i] >= nbins ? nbins - 1 : in[i]);
        want[b] += 1;
    }
    int *din, *bins;
    cudaMalloc(&din, sizeof in);
    cudaMalloc(&bins, nbins * sizeof(int));
    cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
    cudaMemset(bins, 0, nbins * sizeof(int));
    int nn = n, nb = nbins;
    void *args[] = {&bins, &din, &nn, &nb};
    unsigned grid = 8 * cluster;
    int rc = launch_ex((const void *)histogram, grid, cluster, nbins / cluster * sizeof(int), args);
    int sync = (int)cudaDeviceSynchronize();
    cudaMemcpy(got, bins, nbins * sizeof(int), cudaMemcpyDeviceToHost);
    int differ = 0, total = 0;
    for (int i = 0; i < nbins; ++i) {
        differ += got[i] != want[i];
        total += got[i];
    }
    printf("%s %s cluster=%u bins=%d total=%d differ=%d rc=%d sync=%d\n", name,
           differ || rc || sync ? "FAIL" : "ok", cluster, nbins, total, differ, rc, sync);
    cudaFree(din);
    cudaFree(bins);
    return differ || rc || sync;
}

typedef CUresult (*Init)(unsigned);
typedef CUresult (*Retain)(CUcontext *, CUdevice);
typedef CUresult (*SetCurrent)(CUcontext);
typedef CUresult (*LoadData)(CUmodule *, const void *);
typedef CUresult (*GetFunction)(CUfunction *, CUmodule, const char *);
typedef CUresult (*LaunchEx)(const CUlaunchConfig *, CUfunction, void **, void **);

static void *entry(const char *name) {
    void *f = nullptr;
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion(name, &f, 13000, cudaEnableDefault, &q);
    return f;
}

static CUfunction driver_ring;
static LaunchEx driver_launch;

static int driver_ex(unsigned grid, unsigned cluster, void **args) {
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = cluster;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = grid;
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = THREADS;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return (int)driver_launch(&cfg, driver_ring, args, nullptr);
}

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "ring") == 0) {
        int r2 = ring_case("ring2", 16, 2);
        int r4 = ring_case("ring4", 24, 4);
        return r2 || r4;
    }
    if (strcmp(c, "histogram") == 0) {
        int h2 = histogram_case("histogram2", 2, 256);
        int h4 = histogram_case("histogram4", 4, 1024);
        return h2 || h4;
    }
    if (strcmp(c, "dims") == 0) {
        int *out;
        cudaMalloc(&out, 8 * THREADS * sizeof(int));
        pairs<<<8, THREADS>>>(out);
        int rc = (int)cudaGetLastError();
        int sync = (int)cudaDeviceSynchronize();
        static int h[8 * THREADS];
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        int differ = 0;
        for (int b = 0; b < 8; ++b)
            for (int t = 0; t < THREADS; ++t) differ += h[b * THREADS + t] != ((b % 2) ^ 1) * 100 + t;
        printf("dims %s differ=%d rc=%d sync=%d\n", differ || rc || sync ? "FAIL" : "ok", differ,
               rc, sync);
        // Three blocks in clusters of two: the launch is refused.
        pairs<<<3, THREADS>>>(out);
        int odd = (int)cudaGetLastError();
        printf("dims odd grid rc=%d\n", odd);
        cudaFree(out);
        return differ || rc || sync;
    }
    if (strcmp(c, "limits") == 0) {
        int *out;
        unsigned *ids;
        cudaMalloc(&out, 64 * THREADS * sizeof(int));
        cudaMalloc(&ids, 64 * 4 * sizeof(unsigned));
        void *args[] = {&out, &ids};
        int odd = launch_ex((const void *)ring, 6, 4, 0, args);
        int sixteen = launch_ex((const void *)ring, 32, 16, 0, args);
        int set = (int)cudaFuncSetAttribute((const void *)ring,
                                            cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        int allowed = launch_ex((const void *)ring, 32, 16, 0, args);
        int sync = (int)cudaDeviceSynchronize();
        printf("limits odd grid rc=%d\n", odd);
        printf("limits 16 blocks rc=%d\n", sixteen);
        printf("limits non-portable set=%d rc=%d sync=%d\n", set, allowed, sync);
        cudaFree(out);
        cudaFree(ids);
        return 0;
    }
    if (strcmp(c, "driver") == 0) {
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
        LoadData load = (LoadData)entry("cuModuleLoadData");
        GetFunction get = (GetFunction)entry("cuModuleGetFunction");
        driver_launch = (LaunchEx)entry("cuLaunchKernelEx");
        CUcontext ctx = nullptr;
        CUmodule mod = nullptr;
        if (!init || !retain || !set || !load || !get || !driver_launch || len == 0 ||
            init(0) != 0 || retain(&ctx, 0) != 0 || set(ctx) != 0) {
            printf("driver FAIL entry points, context or PTX missing\n");
            return 1;
        }
        int lrc = (int)load(&mod, ptx);
        int grc = lrc == 0 ? (int)get(&driver_ring, mod, "ring") : -1;
        printf("driver load=%d get=%d\n", lrc, grc);
        if (grc != 0) return 1;
        int r4 = ring_case("driver ring4", 16, 4, driver_ex);
        int *out;
        cudaMalloc(&out, 64 * THREADS * sizeof(int));
        void *args[] = {&out, &out};
        printf("driver odd grid rc=%d\n", driver_ex(6, 4, args));
        cudaFree(out);
        return r4;
    }
    printf("unknown case %s\n", c);
    return 2;
}
