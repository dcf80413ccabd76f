/* Per-call cost after resolution. Usage: call_loop <call|none> <calls> <repeats>
 * The first call (which resolves the stub or trampoline) is made before anything is timed.
 * Prints one line: "<name> first=<status> ns_per_call=<r1>,<r2>,...".
 * `none` runs the same loop without the call: the baseline callgrind subtracts
 * (--toggle-collect=loop_call or loop_none). */
#include "bench_fn.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile int sink;

__attribute__((noinline)) void loop_call(long n) {
    int acc = 0;
    for (long i = 0; i < n; i++) acc += bench_call();
    sink = acc;
}

__attribute__((noinline)) void loop_none(long n) {
    int acc = 0;
    for (long i = 0; i < n; i++) {
        __asm__ volatile("" : "+r"(acc));
        acc += 1;
    }
    sink = acc;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <call|none> <calls> <repeats>\n", argv[0]);
        return 2;
    }
    int call = strcmp(argv[1], "call") == 0;
    long n = atol(argv[2]);
    int repeats = atoi(argv[3]);
    int first = bench_call();
    printf("%s first=%d ns_per_call=", BENCH_NAME, first);
    for (int r = 0; r < repeats; r++) {
        double t0 = now_ns();
        if (call)
            loop_call(n);
        else
            loop_none(n);
        double t1 = now_ns();
        printf("%s%.3f", r ? "," : "", n > 0 ? (t1 - t0) / (double)n : 0.0);
    }
    printf("\n");
    return 0;
}
