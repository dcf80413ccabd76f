/* The conformance runner of the mock's kernel executor (issue 47, item 6): for each instruction
 * family named on the command line, compiles `SRC_DIR/<family>.cu` with NVRTC for compute_90,
 * loads the PTX with cuModuleLoadData, launches each kernel the file declares on a buffer of
 * 32-bit words and prints every word:
 *
 *   <family> <kernel>.<index> <8 hex digits>                    exact (bitwise) result
 *   <family> <kernel>.<index> <8 hex digits> approx <ulps> [<abs>]   fp32 value within <ulps>
 *                                                               units in the last place, or
 *                                                               within the absolute error <abs>
 *
 * The same program runs linked to NVIDIA's libcuda and libnvrtc on a GPU (tests/gpu/conformance.sh
 * records tests/data/conformance/<family>.txt) and linked to the stubs under CUDA_STUBS_MOCK=h200
 * (tests/tests/mock_kernels.rs compares). A .cu file declares what to run in lines starting
 * `//!` (the file's own comments say what each kernel checks):
 *
 *   //! options <NVRTC option>...     added after --gpu-architecture=compute_90 and -I<SRC_DIR>
 *                                     (for inputs.cuh, or a family including another)
 *   //! kernel <name> <grid> <block> <words> [approx <ulps> [<abs>]]
 *
 * Every kernel is `extern "C" __global__ void name(unsigned *out)`, 1-D grid and block; the
 * buffer starts filled with 0xdeadbeef, so a word a kernel never writes shows as that on both
 * sides. An error (compile, load, launch) prints `<family> error <what> rc=<code>` and the
 * program exits 1 after the other families. CONFORMANCE_INCLUDE (environment), if set, is
 * passed as -I (the toolkit's include folder where NVRTC lacks a header built in). */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPTIONS = 16, MAX_KERNELS = 64, LINE = 512 };

struct kernel {
  char name[128];
  unsigned grid, block, words;
  char approx[160]; /* "" or " approx <ulps> [<abs>]" */
};

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
    text[n] = 0;
  } else {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

/* Parses the `//!` lines of `source`: options into `options` (strings owned by `store`),
 * kernels into `kernels`. Returns the kernel count, or -1 on a malformed line. */
static int parse(const char *family, const char *source, char store[MAX_OPTIONS][LINE],
                 int *option_count, struct kernel *kernels) {
  int count = 0;
  *option_count = 0;
  for (const char *p = source; p && *p;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char line[LINE];
    if (len >= 3 && strncmp(p, "//!", 3) == 0 && len < LINE) {
      memcpy(line, p + 3, len - 3);
      line[len - 3] = 0;
      char word[LINE];
      int used = 0;
      if (sscanf(line, " %511s%n", word, &used) == 1 && strcmp(word, "options") == 0) {
        char *rest = line + used, opt[LINE];
        int n = 0;
        while (sscanf(rest, " %511s%n", opt, &n) == 1 && *option_count < MAX_OPTIONS) {
          strcpy(store[(*option_count)++], opt);
          rest += n;
        }
      } else if (strcmp(word, "kernel") == 0 && count < MAX_KERNELS) {
        struct kernel *k = &kernels[count];
        char approx[LINE] = "", ulps[64] = "", abs_err[64] = "";
        int got = sscanf(line + used, " %127s %u %u %u %511s %63s %63s", k->name, &k->grid,
                         &k->block, &k->words, approx, ulps, abs_err);
        if (got < 4 || (got >= 5 && strcmp(approx, "approx") != 0) || got == 5) {
          printf("%s error malformed-line \"%s\" rc=-1\n", family, line);
          return -1;
        }
        k->approx[0] = 0;
        if (got >= 6)
          snprintf(k->approx, sizeof k->approx, " approx %s%s%s", ulps, got == 7 ? " " : "",
                   got == 7 ? abs_err : "");
        count++;
      }
    }
    p = end ? end + 1 : NULL;
  }
  return count;
}

/* Compiles `source` and returns its PTX (malloc'd), or NULL after printing the error. */
static char *compile(const char *src_dir, const char *family, const char *source,
                     char store[MAX_OPTIONS][LINE], int option_count) {
  nvrtcProgram prog;
  nvrtcResult rc = nvrtcCreateProgram(&prog, source, family, 0, NULL, NULL);
  if (rc != NVRTC_SUCCESS) {
    printf("%s error nvrtcCreateProgram rc=%d\n", family, (int)rc);
    return NULL;
  }
  const char *options[MAX_OPTIONS + 3];
  int n = 0;
  options[n++] = "--gpu-architecture=compute_90";
  /* The family's folder, for the shared inputs (inputs.cuh) and a family including another. */
  char own[LINE];
  snprintf(own, sizeof own, "-I%s", src_dir);
  options[n++] = own;
  char include[LINE];
  const char *dir = getenv("CONFORMANCE_INCLUDE");
  if (dir && *dir) {
    snprintf(include, sizeof include, "-I%s", dir);
    options[n++] = include;
  }
  for (int i = 0; i < option_count; i++) options[n++] = store[i];
  rc = nvrtcCompileProgram(prog, n, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  if (rc != NVRTC_SUCCESS) {
    char *log = malloc(log_size + 1);
    if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
      fprintf(stderr, "%s: %s\n", family, log);
    free(log);
    printf("%s error nvrtcCompileProgram rc=%d\n", family, (int)rc);
    nvrtcDestroyProgram(&prog);
    return NULL;
  }
  size_t size = 0;
  char *ptx = NULL;
  if (nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && (ptx = malloc(size + 1)) != NULL &&
      nvrtcGetPTX(prog, ptx) == NVRTC_SUCCESS) {
    ptx[size] = 0;
  } else {
    free(ptx);
    ptx = NULL;
    printf("%s error nvrtcGetPTX rc=-1\n", family);
  }
  nvrtcDestroyProgram(&prog);
  return ptx;
}

/* Runs one family; returns 0 when every step succeeded. */
static int run_family(const char *src_dir, const char *family) {
  char path[LINE];
  snprintf(path, sizeof path, "%s/%s.cu", src_dir, family);
  char *source = read_file(path);
  if (!source) {
    printf("%s error read %s rc=-1\n", family, path);
    return 1;
  }
  static char store[MAX_OPTIONS][LINE];
  static struct kernel kernels[MAX_KERNELS];
  int option_count = 0;
  int count = parse(family, source, store, &option_count, kernels);
  char *ptx = count > 0 ? compile(src_dir, family, source, store, option_count) : NULL;
  free(source);
  if (count == 0) printf("%s error no-kernels rc=-1\n", family);
  if (!ptx) return 1;
  const char *version = strstr(ptx, ".version ");
  fprintf(stderr, "%s: PTX %.12s\n", family, version ? version : "(no .version)");
  CUmodule module = NULL;
  CUresult load = cuModuleLoadData(&module, ptx);
  free(ptx);
  if (load != CUDA_SUCCESS) {
    printf("%s error cuModuleLoadData rc=%d\n", family, (int)load);
    return 1;
  }
  int failed = 0;
  for (int i = 0; i < count; i++) {
    struct kernel *k = &kernels[i];
    CUfunction f = NULL;
    CUdeviceptr out = 0;
    size_t bytes = (size_t)k->words * 4;
    unsigned *host = malloc(bytes);
    CUresult rc = host ? cuModuleGetFunction(&f, module, k->name) : CUDA_ERROR_OUT_OF_MEMORY;
    const char *step = "cuModuleGetFunction";
    if (rc == CUDA_SUCCESS) {
      for (unsigned w = 0; w < k->words; w++) host[w] = 0xdeadbeefu;
      step = "cuMemAlloc";
      rc = cuMemAlloc(&out, bytes);
    }
    if (rc == CUDA_SUCCESS) {
      step = "cuMemcpyHtoD";
      rc = cuMemcpyHtoD(out, host, bytes);
    }
    if (rc == CUDA_SUCCESS) {
      void *args[] = {&out};
      step = "cuLaunchKernel";
      rc = cuLaunchKernel(f, k->grid, 1, 1, k->block, 1, 1, 0, NULL, args, NULL);
    }
    if (rc == CUDA_SUCCESS) {
      step = "cuCtxSynchronize";
      rc = cuCtxSynchronize();
    }
    if (rc == CUDA_SUCCESS) {
      step = "cuMemcpyDtoH";
      rc = cuMemcpyDtoH(host, out, bytes);
    }
    if (rc == CUDA_SUCCESS) {
      for (unsigned w = 0; w < k->words; w++)
        printf("%s %s.%u %08x%s\n", family, k->name, w, host[w], k->approx);
    } else {
      printf("%s error %s %s rc=%d\n", family, k->name, step, (int)rc);
      failed = 1;
    }
    if (out) cuMemFree(out);
    free(host);
    /* A sticky error (an illegal address) leaves the context unusable: stop this family. A
     * refused launch (not supported) is not sticky: the family's other kernels still run. */
    if (rc != CUDA_SUCCESS && cuCtxSynchronize() != CUDA_SUCCESS) break;
  }
  cuModuleUnload(module);
  return failed;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SRC_DIR FAMILY...\n", argv[0]);
    return 2;
  }
  CUdevice dev;
  CUcontext ctx;
  CUresult rc = cuInit(0);
  if (rc == CUDA_SUCCESS) rc = cuDeviceGet(&dev, 0);
  if (rc == CUDA_SUCCESS) rc = cuDevicePrimaryCtxRetain(&ctx, dev);
  if (rc == CUDA_SUCCESS) rc = cuCtxSetCurrent(ctx);
  if (rc != CUDA_SUCCESS) {
    printf("error context rc=%d\n", (int)rc);
    return 1;
  }
  int failed = 0;
  for (int i = 2; i < argc; i++) failed |= run_family(argv[1], argv[i]);
  fflush(stdout);
  return failed;
}
