/* What each stub binds under a driver (tests/tests/driver_cap.rs): linked to no stub, it loads
 * the stubs it is told to by path and reads their status API (cuda_stubs.h), one command per
 * argument, in order, one line per fact:
 *
 *   dlopen:PATH           dlopen(PATH, RTLD_NOW | RTLD_GLOBAL): a driver the process has
 *                         before any stub searches ("dlopen PATH ok|ERROR")
 *   status:NAME:STUB      the stub file STUB's cuda_stubs_NAME_status and
 *                         cuda_stubs_NAME_driver_status:
 *                           status NAME bound=B version=V found_by=F
 *                           status NAME path=P
 *                           status NAME message=M
 *                           driver NAME rc=R size=S cuda_version=C fit=N(NAME)
 *                           driver NAME path=P
 *                           driver NAME message=M
 *   driver-small:NAME:STUB  cuda_stubs_NAME_driver_status with a size below the struct's:
 *                         "driver-small NAME rc=R" (-1, nothing written)
 *   maps                  every driver the process has mapped (a file named libcuda.so*,
 *                         never a stub's): "driver-mapped PATH", then "maps done"
 *
 * Only what the stubs bind is read: NVIDIA's real libraries are never called here (with a mock
 * driver they would call its private entry points). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_stubs.h"

typedef int (*status_fn)(cuda_stubs_status *);
typedef int (*driver_fn)(cuda_stubs_driver_status *);

static const char *text(const char *s) { return s ? s : "(null)"; }

/* The stub STUB's export `cuda_stubs_<name>_<what>`, or NULL (with a line saying why). */
static void *export_of(const char *name, const char *stub, const char *what) {
  void *handle = dlopen(stub, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    printf("stub %s %s\n", name, dlerror());
    return NULL;
  }
  char symbol[256];
  snprintf(symbol, sizeof symbol, "cuda_stubs_%s_%s", name, what);
  void *f = dlsym(handle, symbol);
  if (!f) printf("stub %s lacks %s\n", name, symbol);
  return f;
}

/* "NAME:STUB" split in place: NAME returned, *stub set. */
static const char *split(char *arg, const char **stub) {
  char *colon = arg ? strchr(arg, ':') : NULL;
  if (!colon) {
    *stub = NULL;
    return arg;
  }
  *colon = 0;
  *stub = colon + 1;
  return arg;
}

static void status(char *arg) {
  const char *stub;
  const char *name = split(arg, &stub);
  if (!stub) {
    printf("status bad-argument\n");
    return;
  }
  status_fn st = (status_fn)export_of(name, stub, "status");
  driver_fn dr = (driver_fn)export_of(name, stub, "driver_status");
  if (!st || !dr) return;
  cuda_stubs_status s;
  memset(&s, 0, sizeof s);
  int rc = st(&s);
  printf("status %s rc=%d bound=%d version=%d found_by=%s\n", name, rc, s.bound, s.version,
         text(s.found_by));
  printf("status %s path=%s\n", name, text(s.path));
  printf("status %s message=%s\n", name, text(s.message));
  cuda_stubs_driver_status d;
  memset(&d, 0, sizeof d);
  d.size = sizeof d;
  rc = dr(&d);
  printf("driver %s rc=%d size=%s cuda_version=%d fit=%d(%s)\n", name, rc,
         d.size == sizeof d ? "full" : "other", d.cuda_version, d.fit, text(d.fit_name));
  printf("driver %s path=%s\n", name, text(d.path));
  printf("driver %s message=%s\n", name, text(d.message));
}

static void driver_small(char *arg) {
  const char *stub;
  const char *name = split(arg, &stub);
  driver_fn dr = stub ? (driver_fn)export_of(name, stub, "driver_status") : NULL;
  if (!dr) return;
  cuda_stubs_driver_status d;
  memset(&d, 0, sizeof d);
  d.size = 8;
  printf("driver-small %s rc=%d untouched=%d\n", name, dr(&d), d.cuda_version == 0 && d.message == NULL);
}

static void maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[8192], seen[32][1024];
  int n_seen = 0;
  if (!f) {
    printf("maps unreadable\n");
    return;
  }
  while (fgets(line, sizeof line, f)) {
    char *path = strchr(line, '/');
    if (!path) continue;
    path[strcspn(path, "\n")] = 0;
    const char *base = strrchr(path, '/') + 1;
    if (strncmp(base, "libcuda.so", 10)) continue;
    int dup = 0;
    for (int i = 0; i < n_seen; i++) dup |= strcmp(seen[i], path) == 0;
    if (dup || n_seen == 32) continue;
    snprintf(seen[n_seen++], sizeof seen[0], "%s", path);
    printf("driver-mapped %s\n", path);
  }
  fclose(f);
  printf("maps done\n");
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    char *cmd = argv[i];
    char *arg = strchr(cmd, ':');
    if (arg) *arg++ = 0;
    if (!strcmp(cmd, "dlopen")) {
      void *h = dlopen(arg, RTLD_NOW | RTLD_GLOBAL);
      printf("dlopen %s %s\n", arg, h ? "ok" : dlerror());
    } else if (!strcmp(cmd, "status")) {
      status(arg);
    } else if (!strcmp(cmd, "driver-small")) {
      driver_small(arg);
    } else if (!strcmp(cmd, "maps")) {
      maps();
    } else {
      printf("unknown command %s\n", cmd);
      return 2;
    }
    fflush(stdout);
  }
  return 0;
}
