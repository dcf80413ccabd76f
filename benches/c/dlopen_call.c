/* What any lazy loader must pay on a first call: dlopen the real library by soname (found
 * through LD_LIBRARY_PATH), dlsym the function, call it. Linked against no CUDA library.
 * Usage: dlopen_call <soname>
 * Prints "first_call_ns=<ns> status=<s>", like first_call. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <soname> <nvrtcVersion|cudaRuntimeGetVersion>\n", argv[0]);
        return 2;
    }
    long long t0 = now_ns();
    void *h = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    void *f = dlsym(h, argv[2]);
    if (!f) return 1;
    int a, b, status;
    if (strcmp(argv[2], "nvrtcVersion") == 0)
        status = ((int (*)(int *, int *))f)(&a, &b);
    else
        status = ((int (*)(int *))f)(&a);
    long long t1 = now_ns();
    printf("first_call_ns=%lld status=%d\n", t1 - t0, status);
    return 0;
}
