/* Input for the nvJitLink tests, made the way the product's users make it: NVRTC, through
 * libstubs_nvrtc.so (the only library linked), compiles a kernel to LTO-IR (-dlto,
 * nvrtcGetLTOIR) and to PTX. Usage: nvrtc_dlto LTOIR_OUT PTX_OUT; prints "NAME rc=N" per call,
 * the program log on a failed compilation. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct _nvrtcProgram *nvrtcProgram;
extern int nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                              const char *const *headers, const char *const *includeNames);
extern int nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options);
extern int nvrtcDestroyProgram(nvrtcProgram *prog);
extern int nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet);
extern int nvrtcGetProgramLog(nvrtcProgram prog, char *log);
extern int nvrtcGetLTOIRSize(nvrtcProgram prog, size_t *size);
extern int nvrtcGetLTOIR(nvrtcProgram prog, char *ltoir);
extern int nvrtcGetPTXSize(nvrtcProgram prog, size_t *size);
extern int nvrtcGetPTX(nvrtcProgram prog, char *ptx);

static const char *source =
    "extern \"C\" __global__ void scale(float *x, float a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n";

/* Compiles with `option` and writes the output `get` returns into `path`; 0 on success. */
static int compile(const char *option, const char *what, int (*get_size)(nvrtcProgram, size_t *),
                   int (*get)(nvrtcProgram, char *), const char *path) {
  nvrtcProgram prog = NULL;
  int r = nvrtcCreateProgram(&prog, source, "scale.cu", 0, NULL, NULL);
  printf("nvrtcCreateProgram rc=%d\n", r);
  if (r != 0) return 1;
  const char *options[] = {"--gpu-architecture=compute_80", option};
  r = nvrtcCompileProgram(prog, option ? 2 : 1, options);
  printf("nvrtcCompileProgram(%s) rc=%d\n", what, r);
  size_t size = 0;
  if (r != 0) {
    if (nvrtcGetProgramLogSize(prog, &size) == 0 && size > 0) {
      char *log = calloc(1, size + 1);
      if (log && nvrtcGetProgramLog(prog, log) == 0) printf("log: %s\n", log);
      free(log);
    }
  } else {
    r = get_size(prog, &size);
    printf("%s size rc=%d out=%zu\n", what, r, size);
    char *buf = r == 0 && size > 0 ? malloc(size) : NULL;
    r = buf ? get(prog, buf) : 1;
    printf("%s rc=%d\n", what, r);
    FILE *f = r == 0 ? fopen(path, "wb") : NULL;
    if (f) {
      /* PTX ends with its NUL: written without it, as a .ptx file is. */
      size_t n = option ? size : size - 1;
      r = fwrite(buf, 1, n, f) == n ? 0 : 1;
      fclose(f);
    }
    free(buf);
  }
  nvrtcDestroyProgram(&prog);
  return r != 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nvrtc_dlto LTOIR_OUT PTX_OUT\n");
    return 2;
  }
  int failed = compile("-dlto", "ltoir", nvrtcGetLTOIRSize, nvrtcGetLTOIR, argv[1]);
  failed |= compile(NULL, "ptx", nvrtcGetPTXSize, nvrtcGetPTX, argv[2]);
  return failed;
}
