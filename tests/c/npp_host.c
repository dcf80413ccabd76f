/* NPP's host-side answers, compiled against NVIDIA's npp.h of one major and linked either to
 * libstubs_nppc.so, libstubs_nppig.so and libstubs_npps.so or, for comparison, to NVIDIA's
 * libnppc, libnppig and libnpps themselves (tests/npp.rs). Each argument is one call, made in
 * the order given, printing one line: what NPP answers without a GPU (the library version,
 * the affine transform and bound of a quadrangle, buffer sizes; 11.x's and 12.x's legacy
 * stream and device queries); "maps" prints the NPP files the process has mapped. With
 * -DWITH_STATUS (the stub build), "status" prints what each stub says (cuda_stubs.h). */
#include <npp.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"

static void status(const char *lib, int (*get)(cuda_stubs_status *)) {
  cuda_stubs_status s;
  if (get(&s) != 0) return;
  printf("status %s bound=%d version=%d found_by=%s\n", lib, s.bound, s.version,
         s.found_by ? s.found_by : "(null)");
  printf("status %s message=%s\n", lib, s.message ? s.message : "(null)");
}
#endif

/* NPP 12.0 widened npps' lengths and buffer sizes from int to size_t. */
#if NPP_VERSION_MAJOR >= 12
typedef size_t npp_size;
#else
typedef int npp_size;
#endif

/* Every NVIDIA NPP file the process has mapped, once each: "mapped PATH". */
static void maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    char *path = strchr(line, '/');
    if (!path || !strstr(path, "/libnpp")) continue;
    path[strcspn(path, "\n")] = 0;
    if (strcmp(path, last)) printf("mapped %s\n", path);
    snprintf(last, sizeof last, "%s", path);
  }
  fclose(f);
}

static const NppiRect ROI = {0, 0, 640, 480};
static const double QUAD[4][2] = {{10, 20}, {600, 30}, {620, 470}, {5, 460}};

static void call(const char *what) {
  if (!strcmp(what, "version")) {
    const NppLibraryVersion *v = nppGetLibVersion();
    if (v)
      printf("nppGetLibVersion %d.%d.%d\n", v->major, v->minor, v->build);
    else
      printf("nppGetLibVersion null\n");
  } else if (!strcmp(what, "affine")) {
    double c[2][3] = {{0}};
    int rc = (int)nppiGetAffineTransform(ROI, QUAD, c);
    printf("nppiGetAffineTransform rc=%d coeffs=%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", rc, c[0][0],
           c[0][1], c[0][2], c[1][0], c[1][1], c[1][2]);
  } else if (!strcmp(what, "bound")) {
    double c[2][3] = {{1, 0, 3}, {0, 1, 5}}, b[2][2] = {{0}};
    int rc = (int)nppiGetAffineBound(ROI, b, c);
    printf("nppiGetAffineBound rc=%d bound=%.3f,%.3f,%.3f,%.3f\n", rc, b[0][0], b[0][1], b[1][0],
           b[1][1]);
  } else if (!strcmp(what, "integral")) {
    npp_size size = 7;
    int rc = (int)nppsIntegralGetBufferSize_32s(1000, &size);
    printf("nppsIntegralGetBufferSize_32s rc=%d size=%lld\n", rc, (long long)size);
  } else if (!strcmp(what, "sumbuf")) {
#if NPP_VERSION_MAJOR < 13 /* 13.0 removed the variants without a stream context */
    npp_size size = 7;
    int rc = (int)nppsSumGetBufferSize_32f(1000, &size);
#if NPP_VERSION_MAJOR < 12
    /* Without a GPU, 11.8's size comes from device properties it failed to read (valgrind:
     * an uninitialised value, linked normally too): only the status is compared. */
    printf("nppsSumGetBufferSize_32f rc=%d\n", rc);
#else
    /* 12.4's success without a GPU writes a size read from the same properties (valgrind:
     * uninitialised, linked normally too): a success prints its status alone; a refusal's size
     * must be the caller's 7, untouched. */
    if (rc == 0)
      printf("nppsSumGetBufferSize_32f rc=%d\n", rc);
    else
      printf("nppsSumGetBufferSize_32f rc=%d size=%lld\n", rc, (long long)size);
#endif
#endif
  } else if (!strcmp(what, "stream")) {
#if NPP_VERSION_MAJOR < 13 /* 13.x's nppcore.h declares only nppGetLibVersion */
    printf("nppGetStream %s\n", nppGetStream() ? "non-null" : "null");
#endif
  } else if (!strcmp(what, "legacy")) {
    /* Without a GPU, 11.8's and 12.4's read an int that cudaGetDeviceCount / cudaGetDevice
     * failed to write (nppGetGpuName copies an unwritten cudaDeviceProp's name when it is not
     * 0): only the stubs' own answers are deterministic. */
#if NPP_VERSION_MAJOR < 13
    printf("nppGetGpuName %s\n", nppGetGpuName());
    printf("nppSetStream rc=%d\n", (int)nppSetStream(0));
#endif
  } else if (!strcmp(what, "maps")) {
    maps();
#ifdef WITH_STATUS
  } else if (!strcmp(what, "status")) {
    status("nppc", cuda_stubs_nppc_status);
    status("nppig", cuda_stubs_nppig_status);
    status("npps", cuda_stubs_npps_status);
#endif
  } else {
    printf("unknown %s\n", what);
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) call(argv[i]);
  return 0;
}
