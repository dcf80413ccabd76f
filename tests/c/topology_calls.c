/* One call into each stub, for the load-topology tests (tests/tests/load_topology.rs).
 *
 * Compiled into the executable itself (executable -> stub) or into a shared library
 * `libmid.so` that links the stubs (executable -> libmid -> stub, and dlopen of libmid).
 * Declares the three prototypes itself: they are the same in every CUDA major. */
#include <stdio.h>

extern int cudaRuntimeGetVersion(int *runtimeVersion);
extern int nvrtcVersion(int *major, int *minor);
extern int cuDriverGetVersion(int *driverVersion);
extern const char *cudaGetErrorName(int error);

int topology_calls(void) {
    int rt = -1, maj = -1, min = -1, drv = -1;
    int rc_rt = cudaRuntimeGetVersion(&rt);
    int rc_nvrtc = nvrtcVersion(&maj, &min);
    int rc_drv = cuDriverGetVersion(&drv);
    printf("cudaRuntimeGetVersion rc=%d (%s) out=%d\n", rc_rt, cudaGetErrorName(rc_rt), rt);
    printf("nvrtcVersion rc=%d out=%d.%d\n", rc_nvrtc, maj, min);
    printf("cuDriverGetVersion rc=%d out=%d\n", rc_drv, drv);
    return 0;
}
