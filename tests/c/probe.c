/* The tests' C driver: linked against libstubs_cudart.so, libstubs_nvrtc.so and libstubs_cuda.so
 * (never NVIDIA's libraries), it performs the calls named on its command line, in order, and
 * prints one line per call so that the tests can assert exact codes and values:
 *
 *   cudaGetDeviceCount rc=0 out=112
 *
 * Out parameters are pre-filled with a sentinel (-7777, 0xdead, "sentinel") so that a test can
 * check an error leaves them untouched. Prototypes are declared here with the real C ABI (enums
 * are int-sized), so no CUDA header is needed; cuda_stubs.h is the project's own.
 *
 * Commands (ARG after a colon):
 *   dlopen:PATH                 dlopen(PATH, RTLD_NOW | RTLD_GLOBAL) before anything else
 *   cudaRuntimeGetVersion  cudaDriverGetVersion  cudaGetDeviceCount  cudaMalloc:SIZE
 *   cudaThreadSynchronize  cudaDeviceSynchronize  cudaGetErrorString:CODE  cudaGetErrorName:CODE
 *   lasterror (peek, get, get)  lasterror-get-first (get, get, peek)
 *   lasterror-thread (a refusal in another thread)
 *   __cudaRegisterFatBinary (NULL, a pointer-returning call)  call:STUB:NAME (zeroed arguments)
 *   cudaMemPoolCreate      with a cudaMemPoolProps for device 0
 *   nvrtcVersion  nvrtcGetErrorString:CODE  nvrtcGetNVVM  nvrtcGetNVVMSize  nvrtcGetLTOIRSize
 *   nvrtc-compile:ARCH:ptx|cubin:OUTFILE   create, compile, get PTX/CUBIN into OUTFILE, destroy
 *   nvrtc-compile:ARCH:ltoir|nvvm:OUTFILE  the same with -dlto, getting the LTO-IR through
 *                               nvrtcGetLTOIR[Size] or its pre-12.0 name nvrtcGetNVVM[Size]
 *   cuDriverGetVersion  cuInit:FLAGS  cuDeviceGet:ORDINAL  cuGetErrorString:CODE
 *   cuGetErrorName:CODE  cuLibraryLoadData  cuMemAlloc (the _v2 ABI, as cuda.h binds it)
 *   cuMemPoolCreate             with a CUmemPoolProps for device 7
 *   cuGraphNodeSetParams:KIND   (and cuGraphExecNodeSetParams, cuGraphAddNode_v2) with a
 *                               13.5-layout CUgraphNodeParams: KIND host, host-sync, host-ctx,
 *                               event, event-ctx ("NAME:KIND rc=N node=P")
 *   status:cudart|nvrtc|cuda    cuda_stubs_<lib>_status
 *   maps                        the CUDA and stub libraries mapped into the process
 *   auxv-secure                 getauxval(AT_SECURE)
 *   fork                        fork; the child calls cudaGetDeviceCount and nvrtcVersion and
 *                               prints "child ..." lines, the parent waits ("fork child-exit=0")
 *   callall:FILE                for each "STUB NAME" line of FILE, the stub's NAME called with
 *                               ZERO_ARGS (40) zero integer arguments: "callall NAME rc=N" (only for
 *                               status-returning functions, and only where no real library is
 *                               bound: the fallbacks ignore their arguments)
 *   calltext:FILE               for each "STUB NAME SHAPE CODE" line of FILE, the stub's NAME:
 *                               SHAPE ret, `const char *NAME(CODE)`: "calltext NAME(CODE) = TEXT";
 *                               out, `status NAME(CODE, const char **)`: "calltext NAME(CODE)
 *                               rc=N out=TEXT"; ptr, a pointer-returning export called with
 *                               ZERO_ARGS zero integer arguments: "calltext NAME ptr=null|non-null"
 *                               (only where no real library is bound)
 *   threads:N                   N threads released together, each making its first calls of
 *                               cudaGetDeviceCount and nvrtcVersion: how many saw 100+ and a
 *                               positive NVRTC major
 *
 * Functions marked OPTIONAL below are looked up in the stub with dlsym (a stub that does not
 * declare them yet still links): "NAME not-exported" when the stub lacks them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_stubs.h"

/* cuda_runtime_api.h */
extern int cudaRuntimeGetVersion(int *runtimeVersion);
extern int cudaDriverGetVersion(int *driverVersion);
extern int cudaGetDeviceCount(int *count);
extern int cudaMalloc(void **devPtr, size_t size);
extern int cudaThreadSynchronize(void);
extern int cudaDeviceSynchronize(void);
extern int cudaMemPoolCreate(void **pool, const void *props);
extern const char *cudaGetErrorString(int error);
extern const char *cudaGetErrorName(int error);
extern int cudaGetLastError(void);
extern int cudaPeekAtLastError(void);
extern void **__cudaRegisterFatBinary(void *fatCubin);

/* nvrtc.h */
typedef struct _nvrtcProgram *nvrtcProgram;
extern int nvrtcVersion(int *major, int *minor);
extern const char *nvrtcGetErrorString(int result);
extern int nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                              const char *const *headers, const char *const *includeNames);
extern int nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options);
extern int nvrtcDestroyProgram(nvrtcProgram *prog);
extern int nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet);
extern int nvrtcGetProgramLog(nvrtcProgram prog, char *log);
extern int nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
extern int nvrtcGetPTX(nvrtcProgram prog, char *ptx);
extern int nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet);
extern int nvrtcGetCUBIN(nvrtcProgram prog, char *cubin);
extern int nvrtcGetNVVM(nvrtcProgram prog, char *nvvm);
/* OPTIONAL: nvrtcGetNVVMSize (11.x, 12.x), nvrtcGetLTOIRSize (12.x, 13.x). */
typedef int (*size_fn)(nvrtcProgram prog, size_t *size);

/* cuda.h */
extern int cuDriverGetVersion(int *driverVersion);
extern int cuInit(unsigned int flags);
extern int cuDeviceGet(int *device, int ordinal);
extern int cuMemAlloc_v2(unsigned long long *dptr, size_t bytes);
extern int cuMemPoolCreate(void **pool, const void *props);
extern int cuGraphNodeSetParams(void *node, void *params);
extern int cuGraphExecNodeSetParams(void *exec, void *node, void *params);
extern int cuGraphAddNode_v2(void **node, void *graph, const void *deps, const void *edges,
                             size_t n, void *params);
extern int cuGetErrorString(int error, const char **pStr);
extern int cuGetErrorName(int error, const char **pStr);
extern int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shmem, void *stream, void **params, void **extra);
extern int cuTexRefSetMipmapLevelClamp(void *tex, float min_clamp, float max_clamp);
/* cuda_runtime_api.h: returned by value (through a hidden result pointer on x86-64). */
struct channel_desc {
  int x, y, z, w, f;
};
extern struct channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f);
/* OPTIONAL: cuLibraryLoadData (12.0 and newer). */
typedef int (*library_load_data_fn)(void **library, const void *code, void *jitOptions,
                                    void **jitOptionsValues, unsigned int numJitOptions,
                                    void *libraryOptions, void **libraryOptionValues,
                                    unsigned int numLibraryOptions);

#define SENTINEL_INT (-7777)
#define SENTINEL_PTR ((void *)0xdead)

static const char *kernel_source =
    "extern \"C\" __global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

/* A symbol of one of the stubs, or NULL when that stub does not export it. */
static void *stub_symbol(const char *stub, const char *name) {
  void *handle = dlopen(stub, RTLD_LAZY | RTLD_NOLOAD);
  void *sym = handle ? dlsym(handle, name) : NULL;
  if (handle) dlclose(handle);
  return sym;
}

static const char *text_or_null(const char *s) { return s ? s : "(null)"; }

static int arg_int(const char *arg) { return arg ? atoi(arg) : 0; }

static void compile(const char *arg) {
  char arch[64] = {0}, kind[16] = {0}, path[4096] = {0};
  if (!arg || sscanf(arg, "%63[^:]:%15[^:]:%4095[^\n]", arch, kind, path) != 3) {
    printf("nvrtc-compile bad-argument\n");
    return;
  }
  int cubin = strcmp(kind, "cubin") == 0;
  /* -dlto output, read through either name of the LTO-IR getters (looked up in the stub). */
  int lto = strcmp(kind, "ltoir") == 0 || strcmp(kind, "nvvm") == 0;
  const char *size_name = strcmp(kind, "nvvm") == 0 ? "nvrtcGetNVVMSize" : "nvrtcGetLTOIRSize";
  const char *get_name = strcmp(kind, "nvvm") == 0 ? "nvrtcGetNVVM" : "nvrtcGetLTOIR";
  typedef int (*bytes_fn)(nvrtcProgram, char *);
  nvrtcProgram prog = (nvrtcProgram)SENTINEL_PTR;
  int r = nvrtcCreateProgram(&prog, kernel_source, "vector_add.cu", 0, NULL, NULL);
  printf("nvrtcCreateProgram rc=%d\n", r);
  if (r != 0) {
    printf("nvrtcCreateProgram out=%s\n", prog == SENTINEL_PTR ? "untouched" : "written");
    return;
  }
  char option[96];
  snprintf(option, sizeof option, "--gpu-architecture=%s", arch);
  const char *options[] = {option, "-dlto"};
  r = nvrtcCompileProgram(prog, lto ? 2 : 1, options);
  printf("nvrtcCompileProgram rc=%d\n", r);
  if (r != 0) {
    size_t log_size = 0;
    if (nvrtcGetProgramLogSize(prog, &log_size) == 0 && log_size > 0) {
      char *log = calloc(1, log_size + 1);
      if (log && nvrtcGetProgramLog(prog, log) == 0) printf("log: %s\n", log);
      free(log);
    }
  } else {
    size_t size = 0;
    size_fn lto_size = lto ? (size_fn)stub_symbol("libstubs_nvrtc.so", size_name) : NULL;
    bytes_fn lto_get = lto ? (bytes_fn)stub_symbol("libstubs_nvrtc.so", get_name) : NULL;
    if (lto && (!lto_size || !lto_get)) {
      printf("%s not-exported\n", size_name);
      return;
    }
    r = lto ? lto_size(prog, &size) : cubin ? nvrtcGetCUBINSize(prog, &size) : nvrtcGetPTXSize(prog, &size);
    printf("%s rc=%d out=%zu\n", lto ? size_name : cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize", r, size);
    char *buf = r == 0 && size > 0 ? malloc(size) : NULL;
    if (buf) {
      r = lto ? lto_get(prog, buf) : cubin ? nvrtcGetCUBIN(prog, buf) : nvrtcGetPTX(prog, buf);
      printf("%s rc=%d\n", lto ? get_name : cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX", r);
      FILE *f = fopen(path, "wb");
      if (f) {
        fwrite(buf, 1, size, f);
        fclose(f);
      }
      free(buf);
    }
  }
  r = nvrtcDestroyProgram(&prog);
  printf("nvrtcDestroyProgram rc=%d out=%s\n", r, prog == NULL ? "null" : "not-null");
}

static void status(const char *lib) {
  int (*fn)(cuda_stubs_status *) = NULL;
  if (lib && strcmp(lib, "cudart") == 0) fn = cuda_stubs_cudart_status;
  if (lib && strcmp(lib, "nvrtc") == 0) fn = cuda_stubs_nvrtc_status;
  if (lib && strcmp(lib, "cuda") == 0) fn = cuda_stubs_cuda_status;
  if (!fn) {
    printf("status bad-argument\n");
    return;
  }
  cuda_stubs_status s;
  memset(&s, 0, sizeof s);
  int r = fn(&s);
  printf("status %s rc=%d bound=%d version=%d resolved=%u missing=%u\n", lib, r, s.bound, s.version,
         s.resolved, s.missing);
  printf("status %s path=%s\n", lib, text_or_null(s.path));
  printf("status %s found_by=%s\n", lib, text_or_null(s.found_by));
  printf("status %s message=%s\n", lib, text_or_null(s.message));
}

static void maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[8192], seen[64][1024];
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
    if (strncmp(base, "libcudart", 9) && strncmp(base, "libnvrtc", 8) && strncmp(base, "libcuda.", 8) &&
        strncmp(base, "libstubs_", 9))
      continue;
    int dup = 0;
    for (int i = 0; i < n_seen; i++) dup |= strcmp(seen[i], path) == 0;
    if (dup || n_seen == 64) continue;
    snprintf(seen[n_seen++], sizeof seen[0], "%s", path);
    printf("mapped %s\n", path);
  }
  fclose(f);
}

static pthread_barrier_t barrier;

static void *racer(void *ok) {
  int count = SENTINEL_INT, major = SENTINEL_INT, minor = SENTINEL_INT;
  pthread_barrier_wait(&barrier);
  int r1 = cudaGetDeviceCount(&count);
  int r2 = nvrtcVersion(&major, &minor);
  *(int *)ok = r1 == 0 && count > 100 && r2 == 0 && major > 0;
  return NULL;
}

static void threads(int n) {
  pthread_t tid[64];
  int ok[64] = {0}, good = 0;
  if (n < 1 || n > 64) {
    printf("threads bad-argument\n");
    return;
  }
  pthread_barrier_init(&barrier, NULL, (unsigned)n);
  for (int t = 0; t < n; t++) pthread_create(&tid[t], NULL, racer, &ok[t]);
  for (int t = 0; t < n; t++) pthread_join(tid[t], NULL);
  pthread_barrier_destroy(&barrier);
  for (int t = 0; t < n; t++) good += ok[t];
  printf("threads %d ok=%d\n", n, good);
}

static void run(const char *cmd, const char *arg);

static void fork_and_call(void) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    printf("child ");
    run("cudaGetDeviceCount", NULL);
    printf("child ");
    run("nvrtcVersion", NULL);
    fflush(stdout);
    _exit(0);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  printf("fork child-exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* A C enum's int: NPP's errors are negative. */
/* ZERO_ARGS zero integer arguments: more than any declared export takes (cuDNN's
 * cudnnNormalizationBackward: 33; tests/tests/hostile.rs checks), so that an export that reads
 * its last arguments (cuTENSOR's compute-descriptor adapters) reads zeros, never stack garbage. */
#define ZERO_ARGS 40
#define ZEROS_8 0, 0, 0, 0, 0, 0, 0, 0
#define ZEROS ZEROS_8, ZEROS_8, ZEROS_8, ZEROS_8, ZEROS_8
#define U8 uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
typedef int (*any_status_fn)(U8, U8, U8, U8, U8);

static void call_all(const char *file) {
  FILE *f = file ? fopen(file, "r") : NULL;
  char stub[128], name[256];
  if (!f) {
    printf("callall cannot-open\n");
    return;
  }
  while (fscanf(f, "%127s %255s", stub, name) == 2) {
    void *sym = stub_symbol(stub, name);
    if (!sym) {
      printf("callall %s not-exported\n", name);
      continue;
    }
    any_status_fn fn = (any_status_fn)sym;
    printf("callall %s rc=%d\n", name, fn(ZEROS));
  }
  fclose(f);
}

typedef void *(*any_pointer_fn)(U8, U8, U8, U8, U8);

static void call_texts(const char *file) {
  FILE *f = file ? fopen(file, "r") : NULL;
  char stub[128], name[256], shape[8];
  int code;
  if (!f) {
    printf("calltext cannot-open\n");
    return;
  }
  while (fscanf(f, "%127s %255s %7s %d", stub, name, shape, &code) == 4) {
    void *sym = stub_symbol(stub, name);
    if (!sym) {
      printf("calltext %s not-exported\n", name);
    } else if (!strcmp(shape, "ret")) {
      const char *text = ((const char *(*)(int))sym)(code);
      printf("calltext %s(%d) = %s\n", name, code, text_or_null(text));
    } else if (!strcmp(shape, "out")) {
      const char *text = "sentinel";
      int rc = ((int (*)(int, const char **))sym)(code, &text);
      printf("calltext %s(%d) rc=%d out=%s\n", name, code, rc, text_or_null(text));
    } else {
      void *p = ((any_pointer_fn)sym)(ZEROS);
      printf("calltext %s ptr=%s\n", name, p ? "non-null" : "null");
    }
  }
  fclose(f);
}

/* The last-error state as a program reads it: peek, then get twice. */
static void last_error(const char *who) {
  int peek = cudaPeekAtLastError();
  int get1 = cudaGetLastError();
  int get2 = cudaGetLastError();
  printf("%slasterror peek=%d get=%d get=%d\n", who, peek, get1, get2);
}

/* The same, reading with cudaGetLastError first. */
static void last_error_get_first(void) {
  int get1 = cudaGetLastError();
  int get2 = cudaGetLastError();
  int peek = cudaPeekAtLastError();
  printf("lasterror-get-first get=%d get=%d peek=%d\n", get1, get2, peek);
}

/* A refusal in another thread: its own last error, none in this one. */
static void *refusing_thread(void *unused) {
  (void)unused;
  int n = SENTINEL_INT;
  printf("thread cudaGetDeviceCount rc=%d\n", cudaGetDeviceCount(&n));
  last_error("thread ");
  return NULL;
}

static void run(const char *cmd, const char *arg) {
  int i = SENTINEL_INT, r;
  if (!strcmp(cmd, "dlopen")) {
    void *h = dlopen(arg, RTLD_NOW | RTLD_GLOBAL);
    printf("dlopen %s %s\n", arg, h ? "ok" : dlerror());
  } else if (!strcmp(cmd, "cudaRuntimeGetVersion")) {
    r = cudaRuntimeGetVersion(&i);
    printf("%s rc=%d out=%d\n", cmd, r, i);
  } else if (!strcmp(cmd, "cudaDriverGetVersion")) {
    r = cudaDriverGetVersion(&i);
    printf("%s rc=%d out=%d\n", cmd, r, i);
  } else if (!strcmp(cmd, "cudaGetDeviceCount")) {
    r = cudaGetDeviceCount(&i);
    printf("%s rc=%d out=%d\n", cmd, r, i);
  } else if (!strcmp(cmd, "cudaMalloc")) {
    void *p = SENTINEL_PTR;
    r = cudaMalloc(&p, (size_t)arg_int(arg));
    printf("%s rc=%d out=%#lx\n", cmd, r, (unsigned long)(uintptr_t)p);
  } else if (!strcmp(cmd, "lasterror")) {
    last_error("");
  } else if (!strcmp(cmd, "lasterror-get-first")) {
    last_error_get_first();
  } else if (!strcmp(cmd, "lasterror-thread")) {
    pthread_t t;
    pthread_create(&t, NULL, refusing_thread, NULL);
    pthread_join(t, NULL);
    last_error("main ");
  } else if (!strcmp(cmd, "__cudaRegisterFatBinary")) {
    printf("%s out=%s\n", cmd, __cudaRegisterFatBinary(NULL) ? "non-null" : "null");
  } else if (!strcmp(cmd, "call")) {
    /* Any status function of a stub with zeroed arguments: call:libstubs_cudart.so:NAME. */
    char stub[128];
    const char *name = arg ? strchr(arg, ':') : NULL;
    if (!name || (size_t)(name - arg) >= sizeof stub) {
      printf("call bad-argument\n");
      return;
    }
    memcpy(stub, arg, (size_t)(name - arg));
    stub[name - arg] = 0;
    any_status_fn fn = (any_status_fn)stub_symbol(stub, name + 1);
    if (!fn) {
      printf("call %s not-exported\n", name + 1);
      return;
    }
    printf("%s rc=%u\n", name + 1, fn(ZEROS));
  } else if (!strcmp(cmd, "cudaThreadSynchronize")) {
    printf("%s rc=%d\n", cmd, cudaThreadSynchronize());
  } else if (!strcmp(cmd, "cudaMemPoolCreate")) {
    /* cudaMemPoolProps (88 bytes): allocType 1 (pinned), location {type 1 (device), id 0}. */
    int props[22] = {0};
    props[0] = 1;
    props[2] = 1;
    void *pool = SENTINEL_PTR;
    r = cudaMemPoolCreate(&pool, props);
    printf("%s rc=%d out=%#lx\n", cmd, r, (unsigned long)(uintptr_t)pool);
  } else if (!strcmp(cmd, "cudaDeviceSynchronize")) {
    printf("%s rc=%d\n", cmd, cudaDeviceSynchronize());
  } else if (!strcmp(cmd, "cudaGetErrorString")) {
    printf("%s(%d) = %s\n", cmd, arg_int(arg), text_or_null(cudaGetErrorString(arg_int(arg))));
  } else if (!strcmp(cmd, "cudaGetErrorName")) {
    printf("%s(%d) = %s\n", cmd, arg_int(arg), text_or_null(cudaGetErrorName(arg_int(arg))));
  } else if (!strcmp(cmd, "nvrtcVersion")) {
    int minor = SENTINEL_INT;
    r = nvrtcVersion(&i, &minor);
    printf("%s rc=%d out=%d.%d\n", cmd, r, i, minor);
  } else if (!strcmp(cmd, "nvrtcGetErrorString")) {
    printf("%s(%d) = %s\n", cmd, arg_int(arg), text_or_null(nvrtcGetErrorString(arg_int(arg))));
  } else if (!strcmp(cmd, "nvrtc-compile")) {
    compile(arg);
  } else if (!strcmp(cmd, "nvrtcGetNVVM")) {
    char buf[64] = "sentinel";
    r = nvrtcGetNVVM(NULL, buf);
    printf("%s rc=%d out=%s\n", cmd, r, buf);
  } else if (!strcmp(cmd, "nvrtcGetNVVMSize") || !strcmp(cmd, "nvrtcGetLTOIRSize")) {
    size_fn fn = (size_fn)stub_symbol("libstubs_nvrtc.so", cmd);
    size_t size = 7777;
    if (!fn) {
      printf("%s not-exported\n", cmd);
      return;
    }
    r = fn(NULL, &size);
    printf("%s rc=%d out=%zu\n", cmd, r, size);
  } else if (!strcmp(cmd, "cuDriverGetVersion")) {
    r = cuDriverGetVersion(&i);
    printf("%s rc=%d out=%d\n", cmd, r, i);
  } else if (!strcmp(cmd, "cuInit")) {
    printf("%s rc=%d\n", cmd, cuInit((unsigned)arg_int(arg)));
  } else if (!strcmp(cmd, "cuMemPoolCreate")) {
    /* CUmemPoolProps (88 bytes): allocType 1 (pinned), location {type 1 (device), id 7}. */
    int props[22] = {0};
    props[0] = 1;
    props[2] = 1;
    props[3] = 7;
    void *pool = (void *)0xdead;
    r = cuMemPoolCreate(&pool, props);
    printf("%s rc=%d out=%#lx\n", cmd, r, (unsigned long)(uintptr_t)pool);
  } else if (!strcmp(cmd, "cuGraphNodeSetParams") || !strcmp(cmd, "cuGraphExecNodeSetParams") ||
             !strcmp(cmd, "cuGraphAddNode_v2")) {
    /* CUgraphNodeParams in the 13.5 layout; arg: host, host-sync (syncMode 1), host-ctx,
     * event, event-ctx (a preferred context 0x4444). */
    unsigned char params[256] = {0};
    const char *kind = arg ? arg : "host";
    int type = !strncmp(kind, "event", 5) ? 7 : 3;
    void *first = (void *)(uintptr_t)(type == 3 ? 0x1111 : 0x3333);
    void *second = (void *)0x2222, *ctx = (void *)0x4444;
    unsigned sync = 1;
    memcpy(params, &type, sizeof type);
    memcpy(params + 16, &first, sizeof first);
    if (type == 3) memcpy(params + 24, &second, sizeof second);
    if (!strcmp(kind, "host-sync")) memcpy(params + 32, &sync, sizeof sync);
    if (!strcmp(kind, "host-ctx")) memcpy(params + 40, &ctx, sizeof ctx);
    if (!strcmp(kind, "event-ctx")) memcpy(params + 24, &ctx, sizeof ctx);
    void *node = (void *)0xdead;
    if (!strcmp(cmd, "cuGraphNodeSetParams"))
      r = cuGraphNodeSetParams((void *)0x6100, params);
    else if (!strcmp(cmd, "cuGraphExecNodeSetParams"))
      r = cuGraphExecNodeSetParams((void *)0x6200, (void *)0x6100, params);
    else
      r = cuGraphAddNode_v2(&node, (void *)0x6000, NULL, NULL, 0, params);
    printf("%s:%s rc=%d node=%#lx\n", cmd, kind, r, (unsigned long)(uintptr_t)node);
  } else if (!strcmp(cmd, "cuMemAlloc")) {
    unsigned long long p = 0xdead;
    r = cuMemAlloc_v2(&p, 16);
    printf("%s rc=%d out=%#llx\n", cmd, r, p);
  } else if (!strcmp(cmd, "cuDeviceGet")) {
    r = cuDeviceGet(&i, arg_int(arg));
    printf("%s rc=%d out=%d\n", cmd, r, i);
  } else if (!strcmp(cmd, "cuGetErrorString") || !strcmp(cmd, "cuGetErrorName")) {
    const char *text = "sentinel";
    r = !strcmp(cmd, "cuGetErrorString") ? cuGetErrorString(arg_int(arg), &text)
                                         : cuGetErrorName(arg_int(arg), &text);
    printf("%s(%d) rc=%d out=%s\n", cmd, arg_int(arg), r, text_or_null(text));
  } else if (!strcmp(cmd, "cuLaunchKernel")) {
    r = cuLaunchKernel((void *)0xf00, 0xf01, 0xf02, 0xf03, 0xf04, 0xf05, 0xf06, 0xf07, (void *)0xf08,
                       (void **)0xf09, (void **)0xf0a);
    printf("%s rc=%d\n", cmd, r);
  } else if (!strcmp(cmd, "cuTexRefSetMipmapLevelClamp")) {
    r = cuTexRefSetMipmapLevelClamp((void *)0xf10, 1.5f, -2.25f);
    printf("%s rc=%d\n", cmd, r);
  } else if (!strcmp(cmd, "cudaCreateChannelDesc")) {
    struct channel_desc d = cudaCreateChannelDesc(8, 16, 24, 32, 2);
    printf("%s out=%d,%d,%d,%d,%d\n", cmd, d.x, d.y, d.z, d.w, d.f);
  } else if (!strcmp(cmd, "cuLibraryLoadData")) {
    library_load_data_fn fn = (library_load_data_fn)stub_symbol("libstubs_cuda.so", cmd);
    void *lib = SENTINEL_PTR;
    if (!fn) {
      printf("%s not-exported\n", cmd);
      return;
    }
    r = fn(&lib, "", NULL, NULL, 0, NULL, NULL, 0);
    printf("%s rc=%d out=%#lx\n", cmd, r, (unsigned long)(uintptr_t)lib);
  } else if (!strcmp(cmd, "status")) {
    status(arg);
  } else if (!strcmp(cmd, "auxv-secure")) {
    printf("auxv-secure %lu\n", getauxval(AT_SECURE));
  } else if (!strcmp(cmd, "fork")) {
    fork_and_call();
  } else if (!strcmp(cmd, "callall")) {
    call_all(arg);
  } else if (!strcmp(cmd, "calltext")) {
    call_texts(arg);
  } else if (!strcmp(cmd, "threads")) {
    threads(arg_int(arg));
  } else if (!strcmp(cmd, "maps")) {
    maps();
  } else {
    printf("unknown command %s\n", cmd);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int a = 1; a < argc; a++) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s", argv[a]);
    char *colon = strchr(cmd, ':');
    const char *arg = NULL;
    if (colon) {
      *colon = 0;
      arg = argv[a] + (colon - cmd) + 1;
    }
    run(cmd, arg);
  }
  return 0;
}
