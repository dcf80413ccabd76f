/* LD_PRELOAD interposer of dlopen: adds the nanoseconds spent inside the real dlopen to a counter
 * that first_call reads with dlsym(RTLD_DEFAULT, "dlopen_timer_ns"). Subtracting it from the
 * first call, in the same process, gives the stub's own share of its first call without the
 * real library's dlopen (no difference of two noisy medians). The real dlopen then sees this
 * library as its caller: it has no RUNPATH, and neither has the stub, so the search is the same. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

static long long spent_ns;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int flags) {
    static void *(*real)(const char *, int);
    long long t0 = now_ns(); /* finding the real dlopen is the timer's cost, not the caller's */
    if (!real) real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    void *handle = real ? real(file, flags) : NULL;
    spent_ns += now_ns() - t0;
    return handle;
}

__attribute__((visibility("default"))) long long dlopen_timer_ns(void) { return spent_ns; }
