// nvrtc: --gpu-architecture=compute_90
// Thread-block clusters (issue 47): run by tests/cluster.rs in clusters
// (stub_ptx::Prepared::run_cluster). Cooperative groups' cluster_group (map_shared_rank,
// sync) and the sm_90 intrinsics beneath it; NVRTC 13.5, compute_90, CCCL's headers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each block fills its shared array, the cluster syncs, each block reads the next rank's array
// through a generic pointer (mapa.u64) and adds one to it atomically; after a second sync each
// block reads its own array back. ids[block*8..]: the cluster registers as the block sees them.
extern "C" __global__ void ring(int *out, unsigned *ids) {
    __shared__ int s[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned n = cluster.num_blocks();
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    s[threadIdx.x] = int(b * 1000 + threadIdx.x);
    cluster.sync();
    int *peer = cluster.map_shared_rank(s, (rank + 1) % n);
    int seen = peer[threadIdx.x];
    atomicAdd(&peer[threadIdx.x], 1);
    cluster.sync();
    out[b * blockDim.x + threadIdx.x] = seen * 10 + (s[threadIdx.x] - int(b * 1000 + threadIdx.x));
    if (threadIdx.x == 0) {
        dim3 ci = cluster.block_index(), cd = cluster.dim_blocks();
        ids[b * 8 + 0] = rank;
        ids[b * 8 + 1] = n;
        ids[b * 8 + 2] = ci.x + 100 * ci.y + 10000 * ci.z;
        ids[b * 8 + 3] = cd.x + 100 * cd.y + 10000 * cd.z;
        ids[b * 8 + 4] = __clusterIdx().x + 100 * __clusterIdx().y + 10000 * __clusterIdx().z;
        ids[b * 8 + 5] = __clusterGridDimInClusters().x + 100 * __clusterGridDimInClusters().y;
        ids[b * 8 + 6] = cluster.query_shared_rank(peer);
        ids[b * 8 + 7] = __isCtaShared(peer) * 10 + __isClusterShared(peer);
    }
}

// The Programming Guide's distributed-shared-memory histogram: the cluster's blocks split
// nbins bins, each block counts its slice of the input into the owning block's shared bins.
extern "C" __global__ void histogram(int *bins, const int *input, int n, int nbins) {
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    int bins_per_block = nbins / int(cluster.num_blocks());
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int binid = input[i];
        binid = binid < 0 ? 0 : (binid >= nbins ? nbins - 1 : binid);
        int dst_block_rank = binid / bins_per_block;
        int dst_offset = binid % bins_per_block;
        int *dst_smem = cluster.map_shared_rank(smem, dst_block_rank);
        atomicAdd(dst_smem + dst_offset, 1);
    }
    cluster.sync();
    int *lbins = bins + cluster.block_rank() * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

// A compile-time cluster (__cluster_dims__): split arrive and wait with work between them, and
// the shared::cluster loads nvcc emits for a mapped array.
extern "C" __global__ void __cluster_dims__(2, 1, 1) pairs(int *out) {
    __shared__ int s[64];
    unsigned rank = __clusterRelativeBlockRank();
    s[threadIdx.x] = int(rank * 100 + threadIdx.x);
    __cluster_barrier_arrive();
    int mine = int(threadIdx.x) * 3;
    __cluster_barrier_wait();
    int *other = (int *)__cluster_map_shared_rank(s, rank ^ 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = other[threadIdx.x] + mine;
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
}
