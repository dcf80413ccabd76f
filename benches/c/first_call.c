/* First call through whatever the program is linked against (the stub, or the real library).
 * Usage: first_call [preload-path]
 * Prints "first_call_ns=<ns from the start of main to the first call's return> status=<s>".
 * With preload-path, that file is dlopen'ed before the clock starts: the stub then finds it
 * already loaded (RTLD_NOLOAD), so the time is the stub's own work without the real dlopen.
 * Under LD_PRELOAD=dlopen_timer.so it also prints dlopen_ns=<ns spent inside dlopen during the
 * first call>. */
#define _GNU_SOURCE
#include "bench_fn.h"
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc > 1 && !dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL)) {
        fprintf(stderr, "preload %s: %s\n", argv[1], dlerror());
        return 1;
    }
    long long (*in_dlopen)(void) = (long long (*)(void))dlsym(RTLD_DEFAULT, "dlopen_timer_ns");
    long long d0 = in_dlopen ? in_dlopen() : 0;
    long long t0 = now_ns();
    int status = bench_call();
    long long t1 = now_ns();
    if (in_dlopen)
        printf("first_call_ns=%lld status=%d dlopen_ns=%lld\n", t1 - t0, status, in_dlopen() - d0);
    else
        printf("first_call_ns=%lld status=%d\n", t1 - t0, status);
    return 0;
}
