// nvrtc: --gpu-architecture=compute_90
// mbarrier and cp.async.bulk for stub-ptx's tests (tests/nvrtc_mbarrier.rs), compiled by
// nvrtc.py to mbarrier.ptx. Blocks of 64 threads: warp 0 waits on what warp 1 does, so the
// executor must let the waiting warp yield (its warps run one after another).

__device__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// Warp 1's first thread copies 256 ints into shared memory with cp.async.bulk, completing
// the barrier's transaction count; every thread waits on phase 0's parity and then writes
// its element doubled; finally thread 0 copies the doubled block back out with a bulk store.
extern "C" __global__ void bulk_copy(const int* src, int* out, int* copy) {
    __shared__ __align__(16) int buf[256];
    __shared__ __align__(16) int twice[256];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)));
    __syncthreads();
    if (t == 32) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(&bar)));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     :: "r"(smem(buf)), "l"(src + 256 * blockIdx.x), "r"(smem(&bar)) : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&bar)) : "memory");
    for (int i = t; i < 256; i += 64) twice[i] = 2 * buf[i];
    for (int i = t; i < 256; i += 64) out[256 * blockIdx.x + i] = buf[i];
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;"
                     :: "l"(copy + 256 * blockIdx.x), "r"(smem(twice)) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// Arrive and wait with state tokens, over two phases: every thread arrives (count 64); warp 1
// first fills its half of the shared array, so warp 0's test_wait fails until warp 1 arrives.
extern "C" __global__ void arrive_wait(const int* in, int* out) {
    __shared__ int data[64];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" :: "r"(smem(&bar)));
    __syncthreads();
    for (int phase = 0; phase < 2; ++phase) {
        if (t >= 32) data[t] = in[t] * (phase + 1);
        else data[t] = in[t] + phase;
        unsigned long long token;
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(smem(&bar)) : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem(&bar)), "l"(token) : "memory");
        out[phase * 64 + t] = data[t ^ 32];
        __syncthreads();
    }
}
