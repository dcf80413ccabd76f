/* nvFatbin, compiled against NVIDIA's nvFatbin.h of one major and linked either to
 * libstubs_nvfatbin.so or, for comparison, to NVIDIA's libnvfatbin.so.<major> itself
 * (tests/nvfatbin.rs). Usage: nvfatbin_host PTX OUT. Builds a fatbinary of the PTX file for
 * sm_80 (nvFatbinCreate, AddPTX, Size, Get), writes it to OUT and prints one line per call: the
 * version, every error string, what a NULL handle pointer and an unknown option get, and
 * nvFatbinAddTileIR (13.1+) where the program has it (declared weak here: a program linked
 * normally to 12.x's library has none). With -DWITH_STATUS (the stub build), also what the stub
 * says (cuda_stubs.h). */
#include <nvFatbin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

/* 13.x's prototype (nvFatbin.h 13.1+), weak: NULL where nothing defines it. */
nvFatbinResult nvFatbinAddTileIR(nvFatbinHandle handle, const void *code, size_t size,
                                 const char *identifier, const char *optionsCmdLine);
#pragma weak nvFatbinAddTileIR

static const char *text(const char *s) { return s ? s : "(null)"; }

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nvfatbin_host PTX OUT\n");
    return 2;
  }
  unsigned major = 0, minor = 0;
  int rc = (int)nvFatbinVersion(&major, &minor);
  printf("nvFatbinVersion rc=%d version=%u.%u\n", rc, major, minor);
  for (int code = 0; code <= 18; code++)
    printf("nvFatbinGetErrorString(%d) = %s\n", code,
           text(nvFatbinGetErrorString((nvFatbinResult)code)));

  printf("nvFatbinCreate(NULL) rc=%d\n", (int)nvFatbinCreate(NULL, NULL, 0));
  nvFatbinHandle handle = NULL;
  const char *bad[] = {"-no-such-option"};
  rc = (int)nvFatbinCreate(&handle, bad, 1);
  printf("nvFatbinCreate(unknown option) rc=%d\n", rc);
  if (rc == 0) nvFatbinDestroy(&handle);

  size_t ptx_size = 0;
  char *ptx = read_file(argv[1], &ptx_size);
  printf("read ptx %s\n", ptx ? "ok" : "failed");
  const char *options[] = {"-64"};
  handle = NULL;
  rc = (int)nvFatbinCreate(&handle, options, 1);
  printf("nvFatbinCreate rc=%d\n", rc);
  if (rc == 0 && ptx) {
    /* The PTX with its terminating NUL, as nvFatbinAddPTX takes it. */
    rc = (int)nvFatbinAddPTX(handle, ptx, ptx_size + 1, "80", "scale", NULL);
    printf("nvFatbinAddPTX rc=%d\n", rc);
    if (&nvFatbinAddTileIR != NULL) {
      static const char junk[] = "not Tile IR";
      printf("tileir nvFatbinAddTileIR rc=%d\n",
             (int)nvFatbinAddTileIR(handle, junk, sizeof junk, "junk", NULL));
    } else {
      printf("tileir nvFatbinAddTileIR not in the program\n");
    }
    size_t size = 0;
    rc = (int)nvFatbinSize(handle, &size);
    printf("nvFatbinSize rc=%d size=%zu\n", rc, size);
    void *fatbin = rc == 0 && size > 0 ? malloc(size) : NULL;
    if (fatbin) {
      rc = (int)nvFatbinGet(handle, fatbin);
      printf("nvFatbinGet rc=%d\n", rc);
      FILE *out = rc == 0 ? fopen(argv[2], "wb") : NULL;
      if (out) {
        printf("nvFatbin written %s\n", fwrite(fatbin, 1, size, out) == size ? "ok" : "short");
        fclose(out);
      }
      free(fatbin);
    }
    rc = (int)nvFatbinDestroy(&handle);
    printf("nvFatbinDestroy rc=%d handle=%s\n", rc, handle ? "set" : "null");
  }
  free(ptx);

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvfatbin_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
