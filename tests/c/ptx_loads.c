/* Device code through the driver stub's load entry points (issue 36 item 2: PTX newer than the
 * driver is compiled to a CUBIN by nvJitLink before the driver sees it), compiled against CUDA
 * 13.5's cuda.h and linked only against libstubs_cuda.so; with -DPTX_LOADS_RUNTIME, also
 * against cuda_runtime_api.h and libstubs_cudart.so, for the runtime stub's entry points.
 *
 *   ptx_loads [--no-context] ENTRY FILE [ENTRY FILE ...]
 *
 * First cuInit(0) and, unless --no-context, device 0's primary context made current; then each
 * FILE through its ENTRY, in order, in this one process (a second load of one image shows the
 * stub's cache). Each load's lines start with its number N (1, 2, ...):
 *
 *   N ENTRY image=0x...             the address handed over (for in-memory entries)
 *   N ENTRY rc=R                    what the entry point answered
 *   N cuModuleGetFunction rc=R      once loaded (cuLibraryGetKernel for a library)
 *   N infolog size=S terminated=T text=...   for the entries given JIT options: the info log's
 *   N errorlog size=S terminated=T text=...  size option as written back, whether the buffer
 *                                            holds a NUL where the size says (T=1), its text
 *   N walltime positive=P           the CU_JIT_WALL_TIME slot > 0
 *
 * Driver ENTRYs: cuModuleLoadData, cuModuleLoadDataEx and cuLibraryLoadData (JIT options: info
 * and error log buffers and sizes, CU_JIT_WALL_TIME, CU_JIT_MAX_REGISTERS 32,
 * CU_JIT_GENERATE_LINE_INFO 1, CU_JIT_LOG_VERBOSE 1; not cuModuleLoadData), cuModuleLoad and
 * cuLibraryLoadFromFile (the path; the library with the JIT options), cuModuleLoadFatBinary.
 *
 * Links: cuLinkAddData and cuLinkAddFile take FILE as a comma-separated list of inputs, each's
 * CUjitInputType by its extension (.ptx PTX, .cubin CUBIN, .fatbin FATBINARY, .a LIBRARY): a
 * cuLinkCreate with the JIT options, each input added ("N ENTRY input=I rc=R", I from 1), then
 * "N cuLinkComplete rc=R size=S", the CUBIN loaded by cuModuleLoadData ("N cuModuleLoadData
 * rc=R" and its function), the options' report, and "N cuLinkDestroy rc=R"; "N ENTRY rc=R" is
 * cuLinkCreate's.
 *
 * Runtime ENTRYs (-DPTX_LOADS_RUNTIME): cudaLibraryLoadData, cudaLibraryLoadFromFile (no JIT
 * options); register (FILE, a fat binary, inside nvcc's __fatBinC_Wrapper_t {magic 0x466243B1,
 * version 1, data} through __cudaRegisterFatBinary: "N register wrapper=0x... data=0x...
 * handle-null=B"). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef PTX_LOADS_RUNTIME
#include <cuda_runtime_api.h>
#endif

/* FILE's bytes with a NUL after them (PTX text must end in one), 8-byte aligned (malloc's). */
static unsigned char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  unsigned char *buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
  if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

/* The JIT options of one load, and what the load wrote back. */
#define N_OPTIONS 8
static char info_log[8192], error_log[8192];
static CUjit_option options[N_OPTIONS] = {
    CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME, CU_JIT_MAX_REGISTERS,
    CU_JIT_GENERATE_LINE_INFO, CU_JIT_LOG_VERBOSE};
static void *values[N_OPTIONS];

static void options_reset(void) {
  /* Not NUL: the load must terminate what it writes. */
  memset(info_log, 'x', sizeof info_log);
  memset(error_log, 'x', sizeof error_log);
  values[0] = info_log;
  values[1] = (void *)(uintptr_t)sizeof info_log;
  values[2] = error_log;
  values[3] = (void *)(uintptr_t)sizeof error_log;
  values[4] = NULL; /* the wall time, a float, is written here */
  values[5] = (void *)(uintptr_t)32;
  values[6] = (void *)(uintptr_t)1;
  values[7] = (void *)(uintptr_t)1;
}

static void print_log(int n, const char *name, const char *buf, void *size_slot) {
  size_t size = (size_t)(uintptr_t)size_slot;
  /* Per cuda.h: the size slot is overwritten with the bytes written, NUL included (0 when
   * nothing was): the NUL at size - 1, or at 0 for an empty log. */
  int terminated = size == 0 ? buf[0] == '\0' : size <= 8192 && buf[size - 1] == '\0' &&
                                                    strlen(buf) == size - 1;
  char text[200];
  size_t len = terminated ? strlen(buf) : 0;
  if (len >= sizeof text) len = sizeof text - 1;
  memcpy(text, buf, len);
  text[len] = '\0';
  for (char *c = text; *c; c++)
    if (*c == '\n') *c = '|';
  printf("%d %s size=%zu terminated=%d text=%s\n", n, name, size, terminated, text);
}

static void options_report(int n) {
  print_log(n, "infolog", info_log, values[1]);
  print_log(n, "errorlog", error_log, values[3]);
  float wall;
  memcpy(&wall, &values[4], sizeof wall);
  printf("%d walltime positive=%d\n", n, wall > 0.0f);
}

static void got_module(int n, CUresult rc, CUmodule module) {
  if (rc != CUDA_SUCCESS) return;
  CUfunction f = NULL;
  printf("%d cuModuleGetFunction rc=%d\n", n, (int)cuModuleGetFunction(&f, module, "scale"));
}

static void got_library(int n, CUresult rc, CUlibrary library) {
  if (rc != CUDA_SUCCESS) return;
  CUkernel k = NULL;
  printf("%d cuLibraryGetKernel rc=%d\n", n, (int)cuLibraryGetKernel(&k, library, "scale"));
}

static CUjitInputType input_type(const char *path) {
  const char *dot = strrchr(path, '.');
  if (dot == NULL) return CU_JIT_INPUT_PTX;
  if (strcmp(dot, ".cubin") == 0) return CU_JIT_INPUT_CUBIN;
  if (strcmp(dot, ".fatbin") == 0) return CU_JIT_INPUT_FATBINARY;
  if (strcmp(dot, ".a") == 0) return CU_JIT_INPUT_LIBRARY;
  return CU_JIT_INPUT_PTX;
}

/* A link of the comma-separated inputs in `list`, through cuLinkAddData (`by_file` 0: the
 * bytes, PTX with its NUL) or cuLinkAddFile; its CUBIN loaded. */
static CUresult link_inputs(int n, const char *entry, const char *list, int by_file) {
  CUlinkState state = NULL;
  CUresult rc = cuLinkCreate(N_OPTIONS, options, values, &state);
  if (rc != CUDA_SUCCESS) return rc;
  char paths[4096];
  snprintf(paths, sizeof paths, "%s", list);
  int i = 1;
  for (char *path = strtok(paths, ","); path != NULL; path = strtok(NULL, ","), i++) {
    CUjitInputType type = input_type(path);
    CUresult added;
    if (by_file) {
      added = cuLinkAddFile(state, type, path, 0, NULL, NULL);
    } else {
      FILE *f = fopen(path, "rb");
      size_t size = 0;
      if (f != NULL) {
        fseek(f, 0, SEEK_END);
        size = (size_t)ftell(f);
        fclose(f);
      }
      unsigned char *bytes = read_file(path);
      if (bytes == NULL) {
        printf("%d read %s failed\n", n, path);
        added = CUDA_ERROR_FILE_NOT_FOUND;
      } else {
        added = cuLinkAddData(state, type, bytes, size + (type == CU_JIT_INPUT_PTX), "input", 0,
                              NULL, NULL);
        /* The link copies what it needs: the caller's buffer is gone before cuLinkComplete. */
        memset(bytes, 0, size);
        free(bytes);
      }
    }
    printf("%d %s input=%d rc=%d\n", n, entry, i, (int)added);
  }
  void *cubin = NULL;
  size_t size = 0;
  CUresult done = cuLinkComplete(state, &cubin, &size);
  printf("%d cuLinkComplete rc=%d size=%zu\n", n, (int)done, size);
  if (done == CUDA_SUCCESS) {
    CUmodule module = NULL;
    CUresult loaded = cuModuleLoadData(&module, cubin);
    printf("%d cuModuleLoadData rc=%d\n", n, (int)loaded);
    got_module(n, loaded, module);
  }
  options_report(n);
  printf("%d cuLinkDestroy rc=%d\n", n, (int)cuLinkDestroy(state));
  return rc;
}

/* One load; 0 when ENTRY is known. */
static int load(int n, const char *entry, const char *path) {
  unsigned char *image = NULL;
  int takes_path = strncmp(entry, "cuLink", 6) == 0 || strcmp(entry, "cuModuleLoad") == 0 ||
                   strcmp(entry, "cuLibraryLoadFromFile") == 0 ||
                   strcmp(entry, "cudaLibraryLoadFromFile") == 0;
  if (!takes_path) {
    image = read_file(path);
    if (image == NULL) {
      printf("%d read %s failed\n", n, path);
      return 1;
    }
    printf("%d %s image=%p\n", n, entry, (void *)image);
  }
  options_reset();
  CUresult rc;
  CUmodule module = NULL;
  CUlibrary library = NULL;
  if (strcmp(entry, "cuLinkAddData") == 0 || strcmp(entry, "cuLinkAddFile") == 0) {
    rc = link_inputs(n, entry, path, entry[9] == 'F');
  } else if (strcmp(entry, "cuModuleLoadData") == 0) {
    rc = cuModuleLoadData(&module, image);
    got_module(n, rc, module);
  } else if (strcmp(entry, "cuModuleLoadDataEx") == 0) {
    rc = cuModuleLoadDataEx(&module, image, N_OPTIONS, options, values);
    got_module(n, rc, module);
    options_report(n);
  } else if (strcmp(entry, "cuModuleLoadFatBinary") == 0) {
    rc = cuModuleLoadFatBinary(&module, image);
    got_module(n, rc, module);
  } else if (strcmp(entry, "cuModuleLoad") == 0) {
    rc = cuModuleLoad(&module, path);
    got_module(n, rc, module);
  } else if (strcmp(entry, "cuLibraryLoadData") == 0) {
    rc = cuLibraryLoadData(&library, image, options, values, N_OPTIONS, NULL, NULL, 0);
    got_library(n, rc, library);
    options_report(n);
  } else if (strcmp(entry, "cuLibraryLoadFromFile") == 0) {
    rc = cuLibraryLoadFromFile(&library, path, options, values, N_OPTIONS, NULL, NULL, 0);
    got_library(n, rc, library);
    options_report(n);
#ifdef PTX_LOADS_RUNTIME
  } else if (strcmp(entry, "cudaLibraryLoadData") == 0) {
    cudaLibrary_t lib = NULL;
    rc = (CUresult)cudaLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0);
  } else if (strcmp(entry, "cudaLibraryLoadFromFile") == 0) {
    cudaLibrary_t lib = NULL;
    rc = (CUresult)cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0);
  } else if (strcmp(entry, "register") == 0) {
    /* nvcc's __fatBinC_Wrapper_t (crt/host_runtime.h); the stub may register a copy, so the
     * wrapper and its data stay alive (as nvcc's static ones do). */
    static struct {
      int magic, version;
      const unsigned long long *data;
      void *filename_or_fatbins;
    } wrapper;
    extern void **__cudaRegisterFatBinary(void *fatCubin);
    wrapper.magic = 0x466243B1;
    wrapper.version = 1;
    wrapper.data = (const unsigned long long *)(void *)image;
    wrapper.filename_or_fatbins = NULL;
    void **handle = __cudaRegisterFatBinary(&wrapper);
    printf("%d register wrapper=%p data=%p handle-null=%d\n", n, (void *)&wrapper, (void *)image,
           handle == NULL);
    return 0; /* `image` stays registered */
#endif
  } else {
    printf("%d unknown entry %s\n", n, entry);
    free(image);
    return 1;
  }
  printf("%d %s rc=%d\n", n, entry, (int)rc);
  /* The image stays alive: the stub may keep using what it was handed only during the call,
   * but a library may be read lazily. */
  return 0;
}

int main(int argc, char **argv) {
  int first = 1, context = 1;
  if (argc > 1 && strcmp(argv[1], "--no-context") == 0) {
    context = 0;
    first = 2;
  }
  if (argc < first + 2 || (argc - first) % 2 != 0) {
    printf("usage: ptx_loads [--no-context] ENTRY FILE [ENTRY FILE ...]\n");
    return 2;
  }
  int is_runtime = 0;
  for (int i = first; i < argc; i += 2)
    if (strncmp(argv[i], "cuda", 4) == 0 || strcmp(argv[i], "register") == 0) is_runtime = 1;
  /* Runtime loads go through the runtime alone: the driver stub is not touched. */
  if (!is_runtime) {
    printf("cuInit rc=%d\n", (int)cuInit(0));
    if (context) {
      CUdevice device = 0;
      CUcontext ctx = NULL;
      printf("cuDeviceGet rc=%d\n", (int)cuDeviceGet(&device, 0));
      printf("cuDevicePrimaryCtxRetain rc=%d\n", (int)cuDevicePrimaryCtxRetain(&ctx, device));
      printf("cuCtxSetCurrent rc=%d\n", (int)cuCtxSetCurrent(ctx));
    }
  }
  int failed = 0;
  for (int i = first, n = 1; i < argc; i += 2, n++) failed |= load(n, argv[i], argv[i + 1]);
  return failed;
}
