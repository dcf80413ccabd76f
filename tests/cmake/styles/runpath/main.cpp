// C++: the CUDA code is in the shared library `probe_cuda` (../common/probe.cu).
int cuda_stubs_probe();
int main() { return cuda_stubs_probe(); }
