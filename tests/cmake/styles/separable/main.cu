// Launches `parent`, which launches `child` from the device (needs libcudadevrt.a at device
// link): ../common/probe.cu with this launch. Without a GPU the launch fails cleanly.
__global__ void child(int *out);
__global__ void parent(int *out) { child<<<1, 4>>>(out); }
#define CUDA_STUBS_PROBE_LAUNCH(out) parent<<<1, 1>>>(out)
#include "../common/probe.cu"
