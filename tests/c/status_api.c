/* The stubs' own C API through cuda_stubs.h, compiled as C and as C++ (tests/packaging.rs):
 * the header must declare the status functions (and the driver status functions, with their
 * versioned struct and CUDA_STUBS_DRIVER_* codes) with C linkage in both, and the program links
 * them from the stubs. Prints one line per library.
 *
 * Which libraries: status_libraries.h, which tests/packaging.rs writes from the specs
 * (`CUDA_STUBS_LIBRARY(name)` once per library), so that the header and the stubs are checked
 * against the specs' list, not a copy of it. */
#include "cuda_stubs.h"
#include "status_libraries.h"

#include <stdio.h>

typedef int (*status_fn)(struct cuda_stubs_status *);
typedef int (*driver_fn)(struct cuda_stubs_driver_status *);

struct library {
  const char *name;
  status_fn status;
  driver_fn driver;
};

#define CUDA_STUBS_LIBRARY(name) {#name, cuda_stubs_##name##_status, cuda_stubs_##name##_driver_status},
static const struct library libraries[] = {CUDA_STUBS_LIBRARIES};
#undef CUDA_STUBS_LIBRARY

int main(void) {
  for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
    cuda_stubs_status s;
    int rc = libraries[i].status(&s);
    cuda_stubs_driver_status d = {sizeof(cuda_stubs_driver_status), 0, 0, 0, 0, 0};
    int driver_rc = libraries[i].driver(&d);
    printf("%s rc=%d bound=%d version=%d found_by=%s driver rc=%d fit=%s%s\n", libraries[i].name,
           rc, s.bound, s.version, s.found_by ? s.found_by : "(null)", driver_rc,
           d.fit_name ? d.fit_name : "(null)",
           d.fit == CUDA_STUBS_DRIVER_NOT_BOUND ? "" : " (not CUDA_STUBS_DRIVER_NOT_BOUND)");
  }
  printf("null rc=%d driver rc=%d\n", cuda_stubs_nvrtc_status(0), cuda_stubs_nvrtc_driver_status(0));
  return 0;
}
