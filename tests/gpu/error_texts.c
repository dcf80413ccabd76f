/* Every error text the CUDA runtime and driver give, one line each (issue 48: the mock answers
 * cudaGetErrorString / cudaGetErrorName / cuGetErrorString / cuGetErrorName as the board does).
 *
 *   runtime<TAB>code<TAB>name<TAB>string        (cudaGetErrorName, cudaGetErrorString)
 *   driver<TAB>code<TAB>rc<TAB>name<TAB>rc<TAB>string   (cuGetErrorName, cuGetErrorString; (null))
 *   nvml<TAB>code<TAB>string                    (nvmlErrorString, codes 0 to 1099 and -1 .. -3)
 *
 * Codes 0 to 1099 of each: every code the CUDA 13 headers define, and the unknown ones between
 * them. Built against the toolkit's headers on the GPU machine (tests/gpu/error_texts.sh) and
 * against the wheels' headers for the mock (tests/tests/mock_error_texts.rs), the same source. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvml.h>
#include <stdio.h>

static const char *or_null(const char *s) { return s ? s : "(null)"; }

int main(void) {
    for (int code = 0; code < 1100; code++) {
        const char *name = cudaGetErrorName((cudaError_t)code);
        const char *text = cudaGetErrorString((cudaError_t)code);
        printf("runtime\t%d\t%s\t%s\n", code, or_null(name), or_null(text));
    }
    for (int code = 0; code < 1100; code++) {
        const char *name = NULL, *text = NULL;
        CUresult rn = cuGetErrorName((CUresult)code, &name);
        CUresult rs = cuGetErrorString((CUresult)code, &text);
        printf("driver\t%d\t%d\t%s\t%d\t%s\n", code, (int)rn, or_null(name), (int)rs, or_null(text));
    }
    for (int code = -3; code < 1100; code++)
        printf("nvml\t%d\t%s\n", code, or_null(nvmlErrorString((nvmlReturn_t)code)));
    return 0;
}
