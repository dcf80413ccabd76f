/* Drives the stand-in driver (tests/mocks/stand_in_driver.c) directly, and makes its inputs
 * with NVIDIA's real device-code tools; every library is dlopen'ed by path, so one build
 * serves CUDA 12.9's and 13.5's tools alike. Prints "NAME rc=N" per call. Commands:
 *
 *   make NVRTC NVJITLINK NVFATBIN DIR   one kernel (`scale`) through real NVRTC to PTX for
 *                                       compute_90 and compute_80 (DIR/c90.ptx, c80.ptx) and a
 *                                       CUBIN for sm_90 (nvrtc90.cubin); through nvJitLink to
 *                                       CUBINs for sm_90 and sm_80 (jitlink90.cubin,
 *                                       jitlink80.cubin); through nvFatbin (NVFATBIN may be
 *                                       "-": skipped) a fat binary of the compute_90 PTX only
 *                                       (ptx90.fatbin) and one of the sm_90 CUBIN only
 *                                       (cubin90.fatbin). For each CUBIN: "elf NAME osabi=N
 *                                       abiversion=N machine=N flags=0x..."
 *   load LIBCUDA ENTRY FILE             cuInit, the primary context of device 0 made current,
 *                                       then FILE through ENTRY: cuModuleLoadData,
 *                                       cuModuleLoadDataEx (error / info log buffers and the
 *                                       wall time: "errorlog size=N text=..."),
 *                                       cuModuleLoadFatBinary, cuModuleLoad (the path),
 *                                       cuLibraryLoadData, cuLinkAddData (PTX for *.ptx, else
 *                                       CUBIN; then cuLinkComplete and cuModuleLoadData of its
 *                                       CUBIN), cuLinkAddFile; once loaded, cuModuleGetFunction
 *                                       (or cuLibraryGetKernel) and cuLaunchKernel of `scale`
 *   wrapped LIBCUDA FILE                FILE (a fat binary) through cuModuleLoadFatBinary inside
 *                                       nvcc's __fatBinC_Wrapper_t
 *   basics LIBCUDA                      versions, attributes, contexts (per thread), errors,
 *                                       cuGetProcAddress, and NULL everywhere */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *open_or_die(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("dlopen %s failed: %s\n", path, dlerror());
    exit(2);
  }
  return h;
}

static void *lib;
/* The entry point `name` of `lib`, or exit. */
static void *sym(void *from, const char *name) {
  void *p = dlsym(from, name);
  if (p == NULL) {
    printf("dlsym %s failed\n", name);
    exit(2);
  }
  return p;
}
#define FN(type, name) ((type)sym(lib, name))

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  unsigned char *buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
  if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n) {
    *size = (size_t)n;
  } else {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static int write_file(const char *dir, const char *name, const void *bytes, size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  int ok = f != NULL && fwrite(bytes, 1, size, f) == size;
  if (f != NULL) fclose(f);
  printf("wrote %s rc=%d\n", name, ok ? 0 : 1);
  return ok ? 0 : 1;
}

/* ---- make: the inputs, from real NVRTC, nvJitLink, nvFatbin ------------------------------ */

static const char *source =
    "extern \"C\" __global__ void scale(float *x, float a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n";

typedef int (*nvrtc_create_t)(void **, const char *, const char *, int, const char *const *,
                              const char *const *);
typedef int (*nvrtc_compile_t)(void *, int, const char *const *);
typedef int (*nvrtc_size_t)(void *, size_t *);
typedef int (*nvrtc_get_t)(void *, char *);
typedef int (*nvrtc_destroy_t)(void **);

/* NVRTC output for `arch` (`compute_90`: PTX; `sm_90`: a CUBIN) into DIR/name; its bytes. */
static char *nvrtc(const char *arch, int cubin, const char *dir, const char *name, size_t *size) {
  void *prog = NULL;
  int r = FN(nvrtc_create_t, "nvrtcCreateProgram")(&prog, source, "scale.cu", 0, NULL, NULL);
  char option[64];
  snprintf(option, sizeof option, "--gpu-architecture=%s", arch);
  const char *options[] = {option};
  if (r == 0) r = FN(nvrtc_compile_t, "nvrtcCompileProgram")(prog, 1, options);
  printf("nvrtc %s rc=%d\n", arch, r);
  char *out = NULL;
  if (r == 0) {
    r = FN(nvrtc_size_t, cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize")(prog, size);
    out = r == 0 ? calloc(1, *size + 1) : NULL;
    if (out != NULL) r = FN(nvrtc_get_t, cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX")(prog, out);
    if (r != 0 || out == NULL) {
      free(out);
      out = NULL;
    }
  }
  FN(nvrtc_destroy_t, "nvrtcDestroyProgram")(&prog);
  if (out != NULL) write_file(dir, name, out, cubin ? *size : strlen(out));
  return out;
}

typedef int (*jl_create_t)(void **, unsigned, const char **);
typedef int (*jl_add_t)(void *, int, const void *, size_t, const char *);
typedef int (*jl_complete_t)(void *);
typedef int (*jl_size_t)(void *, size_t *);
typedef int (*jl_get_t)(void *, void *);
typedef int (*jl_destroy_t)(void **);

/* PTX through nvJitLink for `arch` (-arch=sm_90) into DIR/name. */
static void jitlink(const char *ptx, const char *arch, const char *dir, const char *name) {
  void *h = NULL;
  char option[64];
  snprintf(option, sizeof option, "-arch=%s", arch);
  const char *options[] = {option};
  int r = FN(jl_create_t, "nvJitLinkCreate")(&h, 1, options);
  if (r == 0) r = FN(jl_add_t, "nvJitLinkAddData")(h, 2 /* NVJITLINK_INPUT_PTX */, ptx,
                                                    strlen(ptx) + 1, "scale.ptx");
  if (r == 0) r = FN(jl_complete_t, "nvJitLinkComplete")(h);
  size_t size = 0;
  if (r == 0) r = FN(jl_size_t, "nvJitLinkGetLinkedCubinSize")(h, &size);
  void *cubin = r == 0 ? malloc(size) : NULL;
  if (cubin != NULL) r = FN(jl_get_t, "nvJitLinkGetLinkedCubin")(h, cubin);
  printf("nvJitLink %s rc=%d\n", arch, r);
  if (r == 0 && cubin != NULL) write_file(dir, name, cubin, size);
  free(cubin);
  FN(jl_destroy_t, "nvJitLinkDestroy")(&h);
}

typedef int (*fb_create_t)(void **, const char **, size_t);
typedef int (*fb_add_ptx_t)(void *, const char *, size_t, const char *, const char *,
                            const char *);
typedef int (*fb_add_cubin_t)(void *, const void *, size_t, const char *, const char *);
typedef int (*fb_size_t)(void *, size_t *);
typedef int (*fb_get_t)(void *, void *);
typedef int (*fb_destroy_t)(void **);

/* A fat binary of one PTX (cubin_size 0) or one CUBIN for arch 90, into DIR/name. */
static void fatbin(const void *code, size_t cubin_size, const char *dir, const char *name) {
  void *h = NULL;
  int r = FN(fb_create_t, "nvFatbinCreate")(&h, NULL, 0);
  if (r == 0)
    r = cubin_size ? FN(fb_add_cubin_t, "nvFatbinAddCubin")(h, code, cubin_size, "90", "scale")
                   : FN(fb_add_ptx_t, "nvFatbinAddPTX")(h, code, strlen(code) + 1, "90",
                                                         "scale", NULL);
  size_t size = 0;
  if (r == 0) r = FN(fb_size_t, "nvFatbinSize")(h, &size);
  void *out = r == 0 ? malloc(size) : NULL;
  if (out != NULL) r = FN(fb_get_t, "nvFatbinGet")(h, out);
  printf("nvFatbin %s rc=%d\n", name, r);
  if (r == 0 && out != NULL) write_file(dir, name, out, size);
  free(out);
  FN(fb_destroy_t, "nvFatbinDestroy")(&h);
}

/* What the ELF header of DIR/name says. */
static void elf_facts(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  size_t size = 0;
  unsigned char *b = read_file(path, &size);
  if (b == NULL || size < 64) {
    printf("elf %s unreadable\n", name);
    free(b);
    return;
  }
  uint16_t machine;
  uint32_t flags;
  memcpy(&machine, b + 18, 2);
  memcpy(&flags, b + (b[4] == 2 ? 48 : 36), 4);
  printf("elf %s class=%d osabi=%d abiversion=%d machine=%d flags=0x%08x\n", name, b[4], b[7],
         b[8], machine, flags);
  free(b);
}

static int make(char **argv) {
  const char *dir = argv[5];
  lib = open_or_die(argv[2]);
  size_t n90 = 0, n80 = 0, ncubin = 0;
  char *ptx90 = nvrtc("compute_90", 0, dir, "c90.ptx", &n90);
  char *ptx80 = nvrtc("compute_80", 0, dir, "c80.ptx", &n80);
  char *cubin = nvrtc("sm_90", 1, dir, "nvrtc90.cubin", &ncubin);
  if (ptx90 == NULL || ptx80 == NULL || cubin == NULL) return 1;
  lib = open_or_die(argv[3]);
  jitlink(ptx90, "sm_90", dir, "jitlink90.cubin");
  jitlink(ptx80, "sm_80", dir, "jitlink80.cubin");
  if (strcmp(argv[4], "-") != 0) {
    lib = open_or_die(argv[4]);
    fatbin(ptx90, 0, dir, "ptx90.fatbin");
    fatbin(cubin, ncubin, dir, "cubin90.fatbin");
  }
  elf_facts(dir, "nvrtc90.cubin");
  elf_facts(dir, "jitlink90.cubin");
  elf_facts(dir, "jitlink80.cubin");
  free(ptx90), free(ptx80), free(cubin);
  return 0;
}

/* ---- load: one image through one entry point of the stand-in ------------------------------ */

typedef int (*init_t)(unsigned);
typedef int (*retain_t)(void **, int);
typedef int (*set_t)(void *);
typedef int (*load_data_t)(void **, const void *);
typedef int (*load_file_t)(void **, const char *);
typedef int (*load_ex_t)(void **, const void *, unsigned, int *, void **);
typedef int (*library_load_t)(void **, const void *, int *, void **, unsigned, void *, void **,
                              unsigned);
typedef int (*get_fn_t)(void **, void *, const char *);
typedef int (*launch_t)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, void *, void **, void **);
typedef int (*link_create_t)(unsigned, int *, void **, void **);
typedef int (*link_add_t)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
typedef int (*link_add_file_t)(void *, int, const char *, unsigned, int *, void **);
typedef int (*link_complete_t)(void *, void **, size_t *);
typedef int (*link_destroy_t)(void *);

static void setup(const char *path) {
  lib = open_or_die(path);
  printf("cuInit rc=%d\n", FN(init_t, "cuInit")(0));
  void *ctx = NULL;
  int r = FN(retain_t, "cuDevicePrimaryCtxRetain")(&ctx, 0);
  if (r == 0) r = FN(set_t, "cuCtxSetCurrent")(ctx);
  printf("context rc=%d\n", r);
}

/* The JIT options cuda.h documents, values in/out in their own slots. */
static char error_log[4096], info_log[4096];
static int jit_options[] = {5, 6, 3, 4, 2};
static void *jit_values[5];
static void jit_reset(void) {
  memset(error_log, 'x', sizeof error_log);
  memset(info_log, 'x', sizeof info_log);
  jit_values[0] = error_log;
  jit_values[1] = (void *)(uintptr_t)sizeof error_log;
  jit_values[2] = info_log;
  jit_values[3] = (void *)(uintptr_t)sizeof info_log;
  jit_values[4] = (void *)(uintptr_t)0xdeadbeef;
}
static void jit_report(void) {
  size_t size = (size_t)(uintptr_t)jit_values[1];
  printf("errorlog size=%zu text=%s\n", size, size ? error_log : "");
  printf("infolog size=%zu\n", (size_t)(uintptr_t)jit_values[3]);
  float ms;
  memcpy(&ms, &jit_values[4], sizeof ms);
  printf("walltime %s\n", ms >= 0.0f && ms < 60000.0f ? "ok" : "bad");
}

static void launch(void *f) {
  int r = FN(launch_t, "cuLaunchKernel")(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
  printf("cuLaunchKernel rc=%d\n", r);
}

static int load(char **argv) {
  const char *entry = argv[3], *path = argv[4];
  setup(argv[2]);
  size_t size = 0;
  unsigned char *image = read_file(path, &size);
  if (image == NULL) {
    printf("cannot read %s\n", path);
    return 2;
  }
  void *module = NULL, *library = NULL;
  int r;
  if (strcmp(entry, "cuModuleLoadData") == 0) {
    r = FN(load_data_t, entry)(&module, image);
  } else if (strcmp(entry, "cuModuleLoadFatBinary") == 0) {
    r = FN(load_data_t, entry)(&module, image);
  } else if (strcmp(entry, "cuModuleLoad") == 0) {
    r = FN(load_file_t, entry)(&module, path);
  } else if (strcmp(entry, "cuModuleLoadDataEx") == 0) {
    jit_reset();
    r = FN(load_ex_t, entry)(&module, image, 5, jit_options, jit_values);
    printf("%s rc=%d\n", entry, r);
    jit_report();
    entry = NULL;
  } else if (strcmp(entry, "cuLibraryLoadData") == 0) {
    jit_reset();
    r = FN(library_load_t, entry)(&library, image, jit_options, jit_values, 5, NULL, NULL, 0);
    printf("%s rc=%d\n", entry, r);
    jit_report();
    entry = NULL;
  } else if (strcmp(entry, "cuLinkAddData") == 0 || strcmp(entry, "cuLinkAddFile") == 0) {
    int type = strstr(path, ".ptx") != NULL ? 1 : 0;
    void *state = NULL;
    jit_reset();
    r = FN(link_create_t, "cuLinkCreate_v2")(5, jit_options, jit_values, &state);
    printf("cuLinkCreate rc=%d\n", r);
    r = strcmp(entry, "cuLinkAddData") == 0
            ? FN(link_add_t, "cuLinkAddData_v2")(state, type, image, size + (type == 1),
                                                 "input", 0, NULL, NULL)
            : FN(link_add_file_t, "cuLinkAddFile_v2")(state, type, path, 0, NULL, NULL);
    printf("%s rc=%d\n", entry, r);
    void *cubin = NULL;
    size_t cubin_size = 0;
    r = FN(link_complete_t, "cuLinkComplete")(state, &cubin, &cubin_size);
    printf("cuLinkComplete rc=%d size=%zu\n", r, r == 0 ? cubin_size : 0);
    jit_report();
    if (r == 0) r = FN(load_data_t, "cuModuleLoadData")(&module, cubin);
    if (r == 0) printf("linked cuModuleLoadData rc=%d\n", r);
    printf("cuLinkDestroy rc=%d\n", FN(link_destroy_t, "cuLinkDestroy")(state));
    entry = NULL;
  } else {
    printf("unknown entry %s\n", entry);
    return 2;
  }
  if (entry != NULL) printf("%s rc=%d\n", entry, r);
  if (r == 0 && module != NULL) {
    void *f = NULL;
    printf("cuModuleGetFunction rc=%d\n", FN(get_fn_t, "cuModuleGetFunction")(&f, module, "scale"));
    launch(f);
    printf("cuModuleUnload rc=%d\n", FN(set_t, "cuModuleUnload")(module));
    launch(f); /* its module is gone: no longer a function it gave out */
  }
  if (r == 0 && library != NULL) {
    void *k = NULL;
    printf("cuLibraryGetKernel rc=%d\n", FN(get_fn_t, "cuLibraryGetKernel")(&k, library, "scale"));
    launch(k);
    printf("cuLibraryUnload rc=%d\n", FN(set_t, "cuLibraryUnload")(library));
  }
  free(image);
  return 0;
}

/* nvcc's wrapper around a fat binary in a host object. */
struct fatbin_wrapper {
  int magic;
  int version;
  const unsigned long long *data;
  void *filename_or_fatbins;
};

static int wrapped(char **argv) {
  setup(argv[2]);
  size_t size = 0;
  unsigned char *image = read_file(argv[3], &size);
  if (image == NULL) return 2;
  /* The fat binary 8-byte aligned, as nvcc places it. */
  unsigned long long *aligned = calloc(1, size + 8);
  if (aligned == NULL) return 2;
  memcpy(aligned, image, size);
  struct fatbin_wrapper w = {0x466243b1, 1, aligned, NULL};
  void *module = NULL;
  printf("cuModuleLoadFatBinary rc=%d\n", FN(load_data_t, "cuModuleLoadFatBinary")(&module, &w));
  free(aligned);
  free(image);
  return 0;
}

/* ---- basics ----------------------------------------------------------------------------- */

typedef int (*int_out_t)(int *);
typedef int (*attr_t)(int *, int, int);
typedef int (*name_t)(char *, int, int);
typedef int (*ptr_out_t)(void **);
typedef int (*ctx_create_t)(void **, unsigned, int);
typedef int (*ctx_create4_t)(void **, void *, unsigned, int);
typedef int (*error_t)(int, const char **);
typedef int (*proc_t)(const char *, void **, int, unsigned long long);
typedef int (*proc2_t)(const char *, void **, int, unsigned long long, int *);
typedef int (*release_t)(int);

/* A second thread sees no current context: it is per thread. */
static void *other_thread(void *unused) {
  (void)unused;
  int dev = -1;
  int r = FN(int_out_t, "cuCtxGetDevice")(&dev);
  printf("thread cuCtxGetDevice rc=%d\n", r);
  return NULL;
}

static int basics(char **argv) {
  lib = open_or_die(argv[2]);
  int v = -1, r;
  printf("cuDeviceGetCount before cuInit rc=%d\n", FN(int_out_t, "cuDeviceGetCount")(&v));
  r = FN(int_out_t, "cuDriverGetVersion")(&v);
  printf("cuDriverGetVersion rc=%d out=%d\n", r, v);
  printf("cuInit(1) rc=%d\n", FN(init_t, "cuInit")(1));
  printf("cuInit rc=%d\n", FN(init_t, "cuInit")(0));
  r = FN(int_out_t, "cuDeviceGetCount")(&v);
  printf("cuDeviceGetCount rc=%d out=%d\n", r, v);
  int dev = -1;
  typedef int (*get_t)(int *, int);
  r = FN(get_t, "cuDeviceGet")(&dev, 0);
  printf("cuDeviceGet rc=%d out=%d\n", r, dev);
  printf("cuDeviceGet(5) rc=%d\n", FN(get_t, "cuDeviceGet")(&dev, 5));
  int major = -1, minor = -1;
  r = FN(attr_t, "cuDeviceGetAttribute")(&major, 75, 0);
  printf("major rc=%d out=%d\n", r, major);
  r = FN(attr_t, "cuDeviceGetAttribute")(&minor, 76, 0);
  printf("minor rc=%d out=%d\n", r, minor);
  char name[64] = "";
  r = FN(name_t, "cuDeviceGetName")(name, 64, 0);
  printf("cuDeviceGetName rc=%d out=%s\n", r, name);
  printf("cuCtxGetDevice none rc=%d\n", FN(int_out_t, "cuCtxGetDevice")(&v));
  void *ctx = (void *)1;
  r = FN(ptr_out_t, "cuCtxGetCurrent")(&ctx);
  printf("cuCtxGetCurrent none rc=%d null=%d\n", r, ctx == NULL);
  void *mod = NULL;
  printf("cuModuleLoadData no context rc=%d\n",
         FN(load_data_t, "cuModuleLoadData")(&mod, ".version 8.0\n.target sm_80\n"));
  void *created = NULL;
  printf("cuCtxCreate_v2 rc=%d\n", FN(ctx_create_t, "cuCtxCreate_v2")(&created, 0, 0));
  r = FN(int_out_t, "cuCtxGetDevice")(&v);
  printf("cuCtxGetDevice rc=%d out=%d\n", r, v);
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  pthread_join(t, NULL);
  printf("cuCtxDestroy_v2 rc=%d\n", FN(set_t, "cuCtxDestroy_v2")(created));
  printf("cuCtxGetDevice destroyed rc=%d\n", FN(int_out_t, "cuCtxGetDevice")(&v));
  printf("cuCtxDestroy_v2 again rc=%d\n", FN(set_t, "cuCtxDestroy_v2")(created));
  printf("cuCtxCreate_v4 rc=%d\n", FN(ctx_create4_t, "cuCtxCreate_v4")(&created, NULL, 0, 0));
  printf("cuCtxDestroy_v2 rc=%d\n", FN(set_t, "cuCtxDestroy_v2")(created));
  void *primary = NULL;
  printf("cuDevicePrimaryCtxRetain rc=%d\n",
         FN(retain_t, "cuDevicePrimaryCtxRetain")(&primary, 0));
  printf("cuCtxSetCurrent rc=%d\n", FN(set_t, "cuCtxSetCurrent")(primary));
  r = FN(int_out_t, "cuCtxGetDevice")(&v);
  printf("cuCtxGetDevice primary rc=%d out=%d\n", r, v);
  printf("cuDevicePrimaryCtxRelease_v2 rc=%d\n",
         FN(release_t, "cuDevicePrimaryCtxRelease_v2")(0));
  const char *text = NULL;
  FN(error_t, "cuGetErrorName")(222, &text);
  printf("cuGetErrorName 222 %s\n", text ? text : "(null)");
  FN(error_t, "cuGetErrorString")(209, &text);
  printf("cuGetErrorString 209 %s\n", text ? text : "(null)");
  printf("cuGetErrorName 12345 rc=%d\n", FN(error_t, "cuGetErrorName")(12345, &text));
  void *pfn = (void *)1;
  r = FN(proc_t, "cuGetProcAddress")("cuModuleLoadData", &pfn, 13000, 0);
  printf("cuGetProcAddress rc=%d null=%d\n", r, pfn == NULL);
  int status = -1;
  pfn = (void *)1;
  r = FN(proc2_t, "cuGetProcAddress_v2")("cuModuleLoadData", &pfn, 13000, 0, &status);
  printf("cuGetProcAddress_v2 rc=%d status=%d null=%d\n", r, status, pfn == NULL);
  /* NULL everywhere: error codes, never a crash. */
  int nulls = FN(int_out_t, "cuDriverGetVersion")(NULL) != 0 &&
              FN(int_out_t, "cuDeviceGetCount")(NULL) != 0 &&
              FN(attr_t, "cuDeviceGetAttribute")(NULL, 75, 0) != 0 &&
              FN(load_data_t, "cuModuleLoadData")(NULL, NULL) != 0 &&
              FN(load_data_t, "cuModuleLoadData")(&mod, NULL) != 0 &&
              FN(load_ex_t, "cuModuleLoadDataEx")(&mod, NULL, 5, NULL, NULL) != 0 &&
              FN(load_file_t, "cuModuleLoad")(&mod, NULL) != 0 &&
              FN(set_t, "cuModuleUnload")(NULL) != 0 &&
              FN(get_fn_t, "cuModuleGetFunction")(NULL, NULL, NULL) != 0 &&
              FN(link_create_t, "cuLinkCreate_v2")(0, NULL, NULL, NULL) != 0 &&
              FN(link_add_t, "cuLinkAddData_v2")(NULL, 1, NULL, 0, NULL, 0, NULL, NULL) != 0 &&
              FN(link_complete_t, "cuLinkComplete")(NULL, NULL, NULL) != 0 &&
              FN(link_destroy_t, "cuLinkDestroy")(NULL) != 0 &&
              FN(launch_t, "cuLaunchKernel")(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) != 0 &&
              FN(launch_t, "cuLaunchKernel")((void *)0x1234, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
                                             NULL) != 0 &&
              FN(error_t, "cuGetErrorName")(0, NULL) != 0 &&
              FN(proc_t, "cuGetProcAddress")(NULL, NULL, 0, 0) == 500;
  printf("nulls %s\n", nulls ? "refused" : "accepted");
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc == 6 && strcmp(argv[1], "make") == 0) return make(argv);
  if (argc == 5 && strcmp(argv[1], "load") == 0) return load(argv);
  if (argc == 4 && strcmp(argv[1], "wrapped") == 0) return wrapped(argv);
  if (argc == 3 && strcmp(argv[1], "basics") == 0) return basics(argv);
  fprintf(stderr, "usage: see the header comment\n");
  return 2;
}
