/* The benchmarked CUDA functions, declared here (no CUDA headers needed) and selected with
 * -DBENCH_FN_<name>. BENCH_CALL() makes one call and yields an int (the status); BENCH_NAME is
 * the function's name. */
#ifndef BENCH_FN_H
#define BENCH_FN_H

#if defined(BENCH_FN_nvrtcVersion)
int nvrtcVersion(int *major, int *minor);
#define BENCH_NAME "nvrtcVersion"
static inline int bench_call(void) {
    int major, minor;
    return nvrtcVersion(&major, &minor);
}
#elif defined(BENCH_FN_cudaRuntimeGetVersion)
int cudaRuntimeGetVersion(int *version);
#define BENCH_NAME "cudaRuntimeGetVersion"
static inline int bench_call(void) {
    int version;
    return cudaRuntimeGetVersion(&version);
}
#elif defined(BENCH_FN_cudaGetLastError)
int cudaGetLastError(void);
#define BENCH_NAME "cudaGetLastError"
static inline int bench_call(void) { return cudaGetLastError(); }
#elif defined(BENCH_FN_cuDriverGetVersion)
int cuDriverGetVersion(int *version);
#define BENCH_NAME "cuDriverGetVersion"
static inline int bench_call(void) {
    int version;
    return cuDriverGetVersion(&version);
}
#else
#error "define BENCH_FN_<function>"
#endif

#endif
