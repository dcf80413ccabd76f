// C++: the CUDA code is in the static library `kernels` (../common/probe.cu).
int cuda_stubs_probe();
int main() { return cuda_stubs_probe(); }
