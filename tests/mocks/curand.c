/* Mock libcurand.so.10, the soname every CUDA major's cuRAND shares: only its version call,
 * `curandStatus_t curandGetVersion(int *)`, answering MOCK_CURAND_VERSION (10310: 12.9's cuRAND
 * 10.3.10; 10400: 13.0's 10.4.0), which the stubs map to a CUDA major (the spec's releases). */
#ifndef MOCK_CURAND_VERSION
#error MOCK_CURAND_VERSION must be defined
#endif

__attribute__((visibility("default"))) int curandGetVersion(int *version) {
  *version = MOCK_CURAND_VERSION;
  return 0;
}
