/* Linked into the stub build of every math library's program (tests/src/two_builds.rs): with
 * STUBS_TESTS_RUNTIME_FIRST set, the runtime stub binds before main, as in a program that
 * calls the runtime before its first math call. A math stub never has the runtime stub search
 * (a process with a static runtime would get a second one): it learns the release from a
 * runtime the process has mapped, so a test of "beside a 12.9 runtime" maps that one first. */
#include <stdlib.h>

#include "cuda_stubs.h"

__attribute__((constructor)) static void runtime_first(void) {
  if (getenv("STUBS_TESTS_RUNTIME_FIRST") == NULL) return;
  cuda_stubs_status s;
  (void)cuda_stubs_cudart_status(&s);
}
