/* The executable of the load-topology tests (tests/tests/load_topology.rs).
 *
 *   topology linked          calls topology_calls(), linked into it or into libmid.so
 *   topology dlopen LIB      dlopen(LIB, RTLD_NOW | RTLD_LOCAL), then its topology_calls()
 *
 * Built with -DNO_LINKED_CALLS for the dlopen topology (nothing of the stubs linked). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef NO_LINKED_CALLS
extern int topology_calls(void);
#endif

int main(int argc, char **argv) {
    printf("main reached\n");
    fflush(stdout);
    if (argc == 3 && strcmp(argv[1], "dlopen") == 0) {
        void *lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            printf("dlopen failed: %s\n", dlerror());
            return 2;
        }
        int (*calls)(void) = (int (*)(void))dlsym(lib, "topology_calls");
        if (!calls) {
            printf("dlsym failed: %s\n", dlerror());
            return 3;
        }
        return calls();
    }
#ifndef NO_LINKED_CALLS
    if (argc == 2 && strcmp(argv[1], "linked") == 0)
        return topology_calls();
#endif
    printf("usage: topology linked | topology dlopen LIB\n");
    return 1;
}
