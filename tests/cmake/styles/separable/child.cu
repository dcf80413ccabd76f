// In its own translation unit: main.cu's kernel reaches it only through the device link.
__global__ void child(int *out) { out[threadIdx.x] = threadIdx.x; }
