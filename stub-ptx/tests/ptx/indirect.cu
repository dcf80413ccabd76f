// Indirect calls for stub-ptx's tests (tests/nvrtc_indirect.rs), compiled by nvrtc.py to
// indirect.ptx: a __device__ table of function pointers (a .global initialized with function
// names), a pointer chosen in registers, and one read from the kernel's arguments.
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }
typedef int (*op_t)(int);
__device__ op_t table[3] = {twice, square, negate};

// Each thread calls table[in[i] % 3]: the lanes of a warp diverge over the three targets.
extern "C" __global__ void through_table(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[in[i] % 3](i);
}

extern "C" __global__ void chosen(int* out, int which) {
    op_t f = which == 0 ? twice : square;
    out[threadIdx.x] = f(threadIdx.x);
}

// The pointer comes from the host: anything but a function of the module is refused at run.
extern "C" __global__ void from_argument(op_t f, int* out) { out[threadIdx.x] = f(threadIdx.x); }
