/* cuda-stubs-capture: writes a profile of this machine's GPU that the mock device loads as it is
 * (CUDA_STUBS_MOCK=FILE, docs/src/testing-without-a-gpu.md): the driver's versions, the
 * device's name, UUID, PCI location and memory, every CUdevice_attribute the driver answers
 * (cudaDeviceProp follows from them in the mock, as in the runtime) and NVML's readings.
 *
 *   cuda-stubs-capture [--device N] [-o FILE] [--keep-ids] [--name NAME]
 *
 * Installed as <prefix>/bin/cuda-stubs-capture (CMakeLists.txt; the wheel's cuda_stubs/bin/,
 * which `python -m cuda_stubs --capture-profile` runs). It links nothing of NVIDIA's: it
 * dlopens the driver's libcuda.so.1 and libnvidia-ml.so.1 itself, so it builds anywhere, and
 * it refuses cuda-stubs' own mock (a capture of the mock is no board).
 *
 * One device per profile: the profile format describes one board (`devices = 1`; the mock makes
 * more of it with CUDA_STUBS_MOCK=FILE:COUNT). On a machine with one device it is that one; with
 * several, --device N picks one (CUDA's numbering, after CUDA_VISIBLE_DEVICES), and without it
 * the capture stops (exit 3) rather than guess.
 *
 * The UUID and the PCI location identify this one board and machine: they are replaced (a
 * made-up UUID, bus 01:00.0, with the PCI attributes to match) unless --keep-ids. NVML's serial
 * number is never read (the profile has no field for it).
 *
 * Exit status: 0 written; 1 no driver, no GPU, or a call the profile needs failed (the message
 * on stderr says which); 2 bad arguments; 3 several devices and no --device; 4 the output could
 * not be written.
 *
 * Environment (for tests and unusual installs): CUDA_STUBS_CAPTURE_LIBCUDA and
 * CUDA_STUBS_CAPTURE_LIBNVML, the files to dlopen instead of libcuda.so.1 and
 * libnvidia-ml.so.1; CUDA_STUBS_CAPTURE_ALLOW_MOCK=1 lets it read cuda-stubs' mock (the test
 * that a capture of the built-in h200 profile reproduces it). */
#define _POSIX_C_SOURCE 200809L

/* The glibc floor (docs/src/glibc-floor.md): the installed program runs on glibc 2.17 and newer,
 * whatever glibc builds it, as the stubs do. Built against glibc 2.34+, it would need
 * `dlopen@GLIBC_2.34` and, through the C start file, `__libc_start_main@GLIBC_2.34`. With
 * CUDA_STUBS_CAPTURE_OWN_START (CMakeLists.txt defines it and links with -nostartfiles and
 * libdl.so.2 needed) it names their original versions and has its own `_start`, glibc's
 * start.S reduced to what this program needs (no init or fini functions: it has no
 * constructors). Plain builds (the tests' other compilations) use the C library's start file. */
#if defined(CUDA_STUBS_CAPTURE_OWN_START)
#if defined(__x86_64__)
#define CAPTURE_GLIBC_BASE "GLIBC_2.2.5"
__asm__(".text\n"
        ".globl _start\n"
        ".type _start,@function\n"
        "_start:\n"
        "  xorl %ebp, %ebp\n"
        "  movq %rdx, %r9\n" /* rtld_fini, from the dynamic loader */
        "  popq %rsi\n"      /* argc */
        "  movq %rsp, %rdx\n" /* argv */
        "  andq $-16, %rsp\n"
        "  pushq %rax\n"
        "  pushq %rsp\n"     /* stack_end */
        "  xorl %r8d, %r8d\n" /* fini */
        "  xorl %ecx, %ecx\n" /* init */
        "  leaq main(%rip), %rdi\n"
        "  call *__libc_start_main@GOTPCREL(%rip)\n"
        "  hlt\n");
#elif defined(__aarch64__)
#define CAPTURE_GLIBC_BASE "GLIBC_2.17"
__asm__(".text\n"
        ".globl _start\n"
        ".type _start,%function\n"
        "_start:\n"
        "  mov x29, #0\n"
        "  mov x30, #0\n"
        "  mov x5, x0\n"       /* rtld_fini */
        "  ldr x1, [sp]\n"     /* argc */
        "  add x2, sp, #8\n"   /* argv */
        "  mov x6, sp\n"       /* stack_end */
        "  mov x3, #0\n"       /* init */
        "  mov x4, #0\n"       /* fini */
        "  adrp x0, main\n"
        "  add x0, x0, :lo12:main\n"
        "  bl __libc_start_main\n"
        "  brk #0\n");
#else
#error "CUDA_STUBS_CAPTURE_OWN_START: x86-64 and aarch64 only"
#endif
__asm__(".symver __libc_start_main,__libc_start_main@" CAPTURE_GLIBC_BASE);
__asm__(".symver dlopen,dlopen@" CAPTURE_GLIBC_BASE);
__asm__(".symver dlsym,dlsym@" CAPTURE_GLIBC_BASE);
__asm__(".symver dlerror,dlerror@" CAPTURE_GLIBC_BASE);
#endif

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct capture_attribute {
  const char *name;
  int number;
};
#include "attributes.h"

#define NATTRIBUTES (sizeof CAPTURE_ATTRIBUTES / sizeof CAPTURE_ATTRIBUTES[0])

/* The UUID written in place of the board's (the h200 profile's pattern, "ca97" for capture). */
static const unsigned char MADE_UP_UUID[16] = {0xc0, 0xda, 0x5b, 0x0b, 0xca, 0x97, 0x40, 0x00,
                                               0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
/* The PCI location written in place of the board's: domain 0, bus 1, device 0, function 0. */
static const char MADE_UP_PCI[] = "00000000:01:00.0";

/* --- the driver's functions (cuda.h's prototypes, CUresult and CUdevice as int) --- */
typedef int (*cu_init_t)(unsigned);
typedef int (*cu_int_t)(int *);
typedef int (*cu_device_get_t)(int *, int);
typedef int (*cu_name_t)(char *, int, int);
typedef int (*cu_uuid_t)(unsigned char *, int);
typedef int (*cu_total_mem_t)(size_t *, int);
typedef int (*cu_attribute_t)(int *, int, int);
typedef int (*cu_error_name_t)(int, const char **);

static struct {
  cu_init_t init;
  cu_int_t driver_version, device_count;
  cu_device_get_t device_get;
  cu_name_t name;
  cu_uuid_t uuid;
  cu_total_mem_t total_mem;
  cu_attribute_t attribute;
  cu_error_name_t error_name;
} cu;

/* --- NVML's (nvml.h; nvmlDevice_t a pointer, enums as int/unsigned) --- */
typedef void *nvml_device;
typedef int (*nv_init_t)(void);
typedef const char *(*nv_error_string_t)(int);
typedef int (*nv_text_t)(char *, unsigned);
typedef int (*nv_by_bus_t)(const char *, nvml_device *);
typedef int (*nv_count_t)(unsigned *);
typedef int (*nv_by_index_t)(unsigned, nvml_device *);
typedef int (*nv_dev_uint_t)(nvml_device, unsigned *);
typedef int (*nv_dev_arg_uint_t)(nvml_device, int, unsigned *);
typedef int (*nv_dev_two_t)(nvml_device, unsigned *, unsigned *);
typedef int (*nv_dev_text_t)(nvml_device, char *, unsigned);
typedef int (*nv_dev_mem_t)(nvml_device, void *);

/* nvmlMemory_t, nvmlBAR1Memory_t: total, free, used (bytes). */
struct nv_memory {
  unsigned long long total, free, used;
};
/* nvmlUtilization_t: percent. */
struct nv_utilization {
  unsigned gpu, memory;
};

static void *nvml_lib;
static nv_error_string_t nv_error_string;

/* The message of an NVML code. */
static const char *nv_error(int r) {
  const char *s = nv_error_string ? nv_error_string(r) : NULL;
  return s ? s : "unknown";
}

/* The name of a driver code. */
static const char *cu_error(int r) {
  const char *s = NULL;
  if (!cu.error_name || cu.error_name(r, &s) != 0 || !s) return "unknown";
  return s;
}

static void *symbol(void *lib, const char *name) { return lib ? dlsym(lib, name) : NULL; }

static FILE *out;

/* TOML basic string. */
static void put_string(const char *key, const char *s) {
  fprintf(out, "%s = \"", key);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fprintf(out, "\"\n");
}

/* The UUID as nvidia-smi spells it. */
static void uuid_text(char *buf, size_t n, const unsigned char *b) {
  snprintf(buf, n, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
           b[14], b[15]);
}

/* The board's name as a profile name: lower case, runs of other characters one '-'. */
static void profile_name(char *buf, size_t n, const char *board) {
  size_t k = 0;
  int dash = 0;
  for (; *board && k + 1 < n; board++) {
    char c = *board;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (dash && k) buf[k++] = '-';
      if (k + 1 < n) buf[k++] = c;
      dash = 0;
    } else {
      dash = 1;
    }
  }
  buf[k] = 0;
  if (!k) snprintf(buf, n, "captured");
}

/* Whether the driver lacks one of the functions needed[from..to) (`have` holds them), saying
 * which. */
static int missing(const char *libcuda, const char *const *needed, void *const *have, size_t from,
                   size_t to) {
  for (size_t i = from; i < to; i++)
    if (!have[i]) {
      fprintf(stderr, "cuda-stubs-capture: %s has no %s: too old a driver, or no driver\n",
              libcuda, needed[i]);
      return 1;
    }
  return 0;
}

static int usage(void) {
  fprintf(stderr, "usage: cuda-stubs-capture [--device N] [-o FILE] [--keep-ids] [--name NAME]\n");
  return 2;
}

/* An unsigned NVML reading of a device: written as `key = value`, or as a comment saying why
 * not. Optional readings are left out then (the mock answers "not supported", as NVML did);
 * required ones (the profile format needs them) are written as 0 after the comment. */
static void nv_reading(const char *key, int r, unsigned long long v, int required) {
  if (r == 0) {
    fprintf(out, "%s = %llu\n", key, v);
    return;
  }
  fprintf(out, "# %s: NVML error %d %s%s\n", key, r, nv_error(r),
          required ? " (0 written: the profile format requires it)" : "");
  if (required) fprintf(out, "%s = 0\n", key);
}

static void nv_text_reading(const char *key, int r, const char *s) {
  if (r == 0 && s[0])
    put_string(key, s);
  else
    fprintf(out, "# %s: NVML error %d %s\n", key, r, r ? nv_error(r) : "(empty)");
}

#define NV_FN(type, name) ((type)symbol(nvml_lib, name))
/* A call of an NVML function that may be missing from an older library: 13
 * (NVML_ERROR_FUNCTION_NOT_FOUND) when it is. */
#define NV_CALL(type, name, ...) (NV_FN(type, name) ? NV_FN(type, name)(__VA_ARGS__) : 13)

/* The [nvml] table: every reading the mock's profile holds. `cuda_total` is CUDA's total memory
 * (NVML's total adds the driver's reserved memory). */
static void write_nvml(int init, nvml_device d, unsigned long long cuda_total) {
  fprintf(out, "\n[nvml]\n");
  if (init != 0) {
    fprintf(out, "# NVML unavailable (%s): every reading 0, the profile format requires them\n",
            nvml_lib ? nv_error(init) : "no libnvidia-ml.so.1");
    static const char *const required[] = {
        "memory_reserved", "temperature", "power_usage", "power_limit", "utilization_gpu",
        "utilization_memory", "clock_graphics", "clock_sm", "clock_memory", "max_clock_graphics",
        "max_clock_sm", "max_clock_memory", "performance_state"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
      fprintf(out, "%s = 0\n", required[i]);
    return;
  }
  unsigned u = 0, u2 = 0;
  int r;
  struct nv_memory mem = {0, 0, 0};
  r = NV_CALL(nv_dev_mem_t, "nvmlDeviceGetMemoryInfo", d, &mem);
  fprintf(out, "# NVML's total is CUDA's plus this: memory the driver reserves.\n");
  if (r == 0 && mem.total < cuda_total) {
    fprintf(out, "# memory_reserved: NVML's total %llu is below CUDA's %llu (0 written)\n",
            mem.total, cuda_total);
    mem.total = cuda_total;
  }
  nv_reading("memory_reserved", r, mem.total - cuda_total, 1);
  fprintf(out, "# Readings of the minute of the capture.\n");
  r = NV_CALL(nv_dev_arg_uint_t, "nvmlDeviceGetTemperature", d, 0 /* NVML_TEMPERATURE_GPU */, &u);
  nv_reading("temperature", r, u, 1);
  r = NV_CALL(nv_dev_uint_t, "nvmlDeviceGetPowerUsage", d, &u);
  nv_reading("power_usage", r, u, 1);
  r = NV_CALL(nv_dev_uint_t, "nvmlDeviceGetPowerManagementLimit", d, &u);
  nv_reading("power_limit", r, u, 1);
  struct nv_utilization util = {0, 0};
  r = NV_CALL(nv_dev_mem_t, "nvmlDeviceGetUtilizationRates", d, &util);
  nv_reading("utilization_gpu", r, util.gpu, 1);
  nv_reading("utilization_memory", r, util.memory, 1);
  /* NVML_CLOCK_GRAPHICS 0, NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2. */
  static const char *const clocks[] = {"graphics", "sm", "memory"};
  for (int max = 0; max < 2; max++)
    for (int c = 0; c < 3; c++) {
      char key[40];
      snprintf(key, sizeof key, "%sclock_%s", max ? "max_" : "", clocks[c]);
      r = max ? NV_CALL(nv_dev_arg_uint_t, "nvmlDeviceGetMaxClockInfo", d, c, &u)
              : NV_CALL(nv_dev_arg_uint_t, "nvmlDeviceGetClockInfo", d, c, &u);
      nv_reading(key, r, u, 1);
    }
  r = NV_CALL(nv_dev_uint_t, "nvmlDeviceGetPerformanceState", d, &u);
  if (r == 0 && u > 15) { /* NVML_PSTATE_UNKNOWN (32): the profile's range is P0..P15 */
    fprintf(out, "# performance_state: NVML says unknown (%u); 0 written\n", u);
    u = 0;
  }
  nv_reading("performance_state", r, u, 1);

  fprintf(out, "# The board's fixed facts and settings (a missing one: NVML answered \"not "
               "supported\" or an error, and so does the mock).\n");
  r = NV_CALL(nv_dev_uint_t, "nvmlDeviceGetPowerManagementDefaultLimit", d, &u);
  nv_reading("power_default_limit", r, u, 0);
  struct nv_memory bar1 = {0, 0, 0};
  r = NV_CALL(nv_dev_mem_t, "nvmlDeviceGetBAR1MemoryInfo", d, &bar1);
  nv_reading("bar1_total", r, bar1.total, 0);
  nv_reading("bar1_used", r, bar1.used, 0);
  static const struct {
    const char *key, *function;
  } plain[] = {
      {"persistence_mode", "nvmlDeviceGetPersistenceMode"},
      {"num_gpu_cores", "nvmlDeviceGetNumGpuCores"},
      {"memory_bus_width", "nvmlDeviceGetMemoryBusWidth"},
      {"architecture", "nvmlDeviceGetArchitecture"},
      {"pcie_link_gen_current", "nvmlDeviceGetCurrPcieLinkGeneration"},
      {"pcie_link_gen_max", "nvmlDeviceGetMaxPcieLinkGeneration"},
      {"pcie_link_width_current", "nvmlDeviceGetCurrPcieLinkWidth"},
      {"pcie_link_width_max", "nvmlDeviceGetMaxPcieLinkWidth"},
      {"compute_mode", "nvmlDeviceGetComputeMode"},
  };
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
    u = 0;
    r = NV_CALL(nv_dev_uint_t, plain[i].function, d, &u);
    nv_reading(plain[i].key, r, u, 0);
  }
  r = NV_CALL(nv_dev_two_t, "nvmlDeviceGetEccMode", d, &u, &u2);
  nv_reading("ecc_mode_current", r, u, 0);
  nv_reading("ecc_mode_pending", r, u2, 0);
  r = NV_CALL(nv_dev_two_t, "nvmlDeviceGetMigMode", d, &u, &u2);
  nv_reading("mig_mode_current", r, u, 0);
  nv_reading("mig_mode_pending", r, u2, 0);
  char text[80]; /* the profile takes 1 to 79 characters */
  memset(text, 0, sizeof text);
  r = NV_CALL(nv_dev_text_t, "nvmlDeviceGetVbiosVersion", d, text, (unsigned)sizeof text - 1);
  nv_text_reading("vbios_version", r, text);
  memset(text, 0, sizeof text);
  r = NV_CALL(nv_dev_text_t, "nvmlDeviceGetBoardPartNumber", d, text, (unsigned)sizeof text - 1);
  nv_text_reading("board_part_number", r, text);
}

/* The device's PCI location as NVML spells it (DDDDDDDD:BB:DD.0), from the attributes that
 * cuDeviceGetPCIBusId formats too (CUDA's function number is always 0). */
static int pci_bus_id(char *buf, size_t n, int dev) {
  int domain = 0, bus = 0, device = 0, r;
  if ((r = cu.attribute(&domain, 50 /* CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID */, dev)) != 0 ||
      (r = cu.attribute(&bus, 33 /* CU_DEVICE_ATTRIBUTE_PCI_BUS_ID */, dev)) != 0 ||
      (r = cu.attribute(&device, 34 /* CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID */, dev)) != 0)
    return r;
  snprintf(buf, n, "%08x:%02x:%02x.0", (unsigned)domain, (unsigned)bus & 0xff,
           (unsigned)device & 0x1f);
  return 0;
}

/* NVML's handle of the device CUDA calls `bus`, `uuid`: by PCI bus id, else (an NVML without
 * that lookup) the device of each index whose UUID is CUDA's. */
static int nvml_device_of(const char *bus, const unsigned char *uuid, nvml_device *nd) {
  int r = NV_CALL(nv_by_bus_t, "nvmlDeviceGetHandleByPciBusId_v2", bus, nd);
  if (r == 0) return 0;
  char want[64], have[96];
  uuid_text(want, sizeof want, uuid);
  unsigned count = 0;
  if (NV_CALL(nv_count_t, "nvmlDeviceGetCount_v2", &count) != 0) return r;
  for (unsigned i = 0; i < count; i++) {
    memset(have, 0, sizeof have);
    if (NV_CALL(nv_by_index_t, "nvmlDeviceGetHandleByIndex_v2", i, nd) == 0 &&
        NV_CALL(nv_dev_text_t, "nvmlDeviceGetUUID", *nd, have, (unsigned)sizeof have - 1) == 0 &&
        !strcmp(have, want))
      return 0;
  }
  *nd = NULL;
  return r;
}

/* The driver's version text ("580.159.04"): NVML's, else the kernel module's, else CUDA's. */
static void driver_text(char *buf, size_t n, int nvml_ok, int cuda_version) {
  buf[0] = 0;
  if (nvml_ok && NV_FN(nv_text_t, "nvmlSystemGetDriverVersion") &&
      NV_FN(nv_text_t, "nvmlSystemGetDriverVersion")(buf, (unsigned)n) == 0 && buf[0])
    return;
  FILE *f = fopen("/proc/driver/nvidia/version", "r");
  if (f) {
    char line[256];
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." */
    if (fgets(line, sizeof line, f)) {
      const char *p = strstr(line, "Kernel Module");
      if (p && sscanf(p + strlen("Kernel Module"), "%63s", buf) == 1 && buf[0]) {
        fclose(f);
        return;
      }
    }
    fclose(f);
  }
  snprintf(buf, n, "CUDA %d.%d", cuda_version / 1000, cuda_version % 1000 / 10);
}

int main(int argc, char **argv) {
  int device = -1, keep_ids = 0;
  const char *path = NULL, *name_arg = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--device") && i + 1 < argc) {
      char *end = NULL;
      errno = 0;
      long v = strtol(argv[++i], &end, 10);
      if (errno || !end || *end || end == argv[i] || v < 0 || v > 1023) {
        fprintf(stderr, "cuda-stubs-capture: --device %s: a device number, 0 or more\n", argv[i]);
        return 2;
      }
      device = (int)v;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      path = argv[++i];
    } else if (!strcmp(a, "--name") && i + 1 < argc) {
      name_arg = argv[++i];
    } else if (!strcmp(a, "--keep-ids")) {
      keep_ids = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage();
      return 0;
    } else {
      return usage();
    }
  }

  const char *libcuda = getenv("CUDA_STUBS_CAPTURE_LIBCUDA");
  if (!libcuda || !*libcuda) libcuda = "libcuda.so.1";
  void *lib = dlopen(libcuda, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cuda-stubs-capture: no NVIDIA driver: %s cannot be loaded (%s)\n", libcuda,
            dlerror());
    return 1;
  }
  const char *allow = getenv("CUDA_STUBS_CAPTURE_ALLOW_MOCK");
  if (dlsym(lib, "cuda_stubs_mock_status") && !(allow && !strcmp(allow, "1"))) {
    fprintf(stderr, "cuda-stubs-capture: %s is cuda-stubs' mock device, not a driver: nothing to "
                    "capture\n", libcuda);
    return 1;
  }
  cu.init = (cu_init_t)dlsym(lib, "cuInit");
  cu.driver_version = (cu_int_t)dlsym(lib, "cuDriverGetVersion");
  cu.device_count = (cu_int_t)dlsym(lib, "cuDeviceGetCount");
  cu.device_get = (cu_device_get_t)dlsym(lib, "cuDeviceGet");
  cu.name = (cu_name_t)dlsym(lib, "cuDeviceGetName");
  cu.uuid = (cu_uuid_t)dlsym(lib, "cuDeviceGetUuid_v2");
  if (!cu.uuid) cu.uuid = (cu_uuid_t)dlsym(lib, "cuDeviceGetUuid");
  cu.total_mem = (cu_total_mem_t)dlsym(lib, "cuDeviceTotalMem_v2");
  cu.attribute = (cu_attribute_t)dlsym(lib, "cuDeviceGetAttribute");
  cu.error_name = (cu_error_name_t)dlsym(lib, "cuGetErrorName");
  /* Devices first (a machine without a GPU says so, whatever its driver lacks), then what the
   * profile needs of one. */
  static const char *const needed[] = {
      "cuInit",          "cuDriverGetVersion", "cuDeviceGetCount",    "cuDeviceGet",
      "cuDeviceGetName", "cuDeviceGetUuid",    "cuDeviceTotalMem_v2", "cuDeviceGetAttribute"};
  void *const have[] = {(void *)cu.init,       (void *)cu.driver_version, (void *)cu.device_count,
                        (void *)cu.device_get, (void *)cu.name,           (void *)cu.uuid,
                        (void *)cu.total_mem,  (void *)cu.attribute};
  const size_t nneeded = sizeof needed / sizeof needed[0];
  if (missing(libcuda, needed, have, 0, 3)) return 1;
  int r = cu.init(0);
  if (r == 100 /* CUDA_ERROR_NO_DEVICE */) {
    fprintf(stderr, "cuda-stubs-capture: no GPU: the driver (%s) sees no CUDA device "
                    "(cuInit: %d CUDA_ERROR_NO_DEVICE; CUDA_VISIBLE_DEVICES=%s)\n",
            libcuda, r, getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "unset");
    return 1;
  }
  if (r != 0) {
    fprintf(stderr, "cuda-stubs-capture: cuInit failed: %d %s\n", r, cu_error(r));
    return 1;
  }
  int cuda_version = 0, count = 0;
  r = cu.driver_version(&cuda_version);
  if (r != 0) {
    fprintf(stderr, "cuda-stubs-capture: cuDriverGetVersion failed: %d %s\n", r, cu_error(r));
    return 1;
  }
  r = cu.device_count(&count);
  if (r != 0 || count <= 0) {
    fprintf(stderr, "cuda-stubs-capture: no GPU: cuDeviceGetCount: %d %s, %d devices\n", r,
            r ? cu_error(r) : "no error", count);
    return 1;
  }
  if (missing(libcuda, needed, have, 3, nneeded)) return 1;
  if (device < 0) {
    if (count > 1) {
      fprintf(stderr, "cuda-stubs-capture: this machine has %d CUDA devices and a profile "
                      "describes one: choose it with --device N (0 to %d); the mock makes several "
                      "of it with CUDA_STUBS_MOCK=FILE:COUNT\n", count, count - 1);
      return 3;
    }
    device = 0;
  }
  if (device >= count) {
    fprintf(stderr, "cuda-stubs-capture: --device %d: this machine has %d CUDA device%s (0 to %d)\n",
            device, count, count == 1 ? "" : "s", count - 1);
    return 2;
  }
  int dev = 0;
  r = cu.device_get(&dev, device);
  char name[256], bus[64];
  unsigned char uuid[16];
  size_t total = 0;
  memset(name, 0, sizeof name);
  memset(bus, 0, sizeof bus);
  memset(uuid, 0, sizeof uuid);
  const char *failed = NULL;
  if (r != 0)
    failed = "cuDeviceGet";
  else if ((r = cu.name(name, (int)sizeof name - 1, dev)) != 0)
    failed = "cuDeviceGetName";
  else if ((r = pci_bus_id(bus, sizeof bus, dev)) != 0)
    failed = "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_PCI_*)";
  else if ((r = cu.uuid(uuid, dev)) != 0)
    failed = "cuDeviceGetUuid";
  else if ((r = cu.total_mem(&total, dev)) != 0)
    failed = "cuDeviceTotalMem";
  if (failed) {
    fprintf(stderr, "cuda-stubs-capture: %s (device %d) failed: %d %s\n", failed, device, r,
            cu_error(r));
    return 1;
  }

  /* NVML's view of the same device: by PCI bus id (CUDA and NVML may number devices apart). */
  const char *libnvml = getenv("CUDA_STUBS_CAPTURE_LIBNVML");
  if (!libnvml || !*libnvml) libnvml = "libnvidia-ml.so.1";
  nvml_lib = dlopen(libnvml, RTLD_NOW | RTLD_LOCAL);
  const char *nvml_why = nvml_lib ? NULL : dlerror();
  nv_error_string = NV_FN(nv_error_string_t, "nvmlErrorString");
  int nvml = nvml_lib ? NV_CALL(nv_init_t, "nvmlInit_v2") : 13;
  const int nvml_started = nvml == 0;
  nvml_device nd = NULL;
  if (nvml_started) {
    nvml = nvml_device_of(bus, uuid, &nd);
    if (nvml != 0)
      fprintf(stderr, "cuda-stubs-capture: NVML has no device at %s (%d %s): its readings are "
                      "0\n", bus, nvml, nv_error(nvml));
  } else {
    fprintf(stderr, "cuda-stubs-capture: NVML unavailable (%s): its readings are 0\n",
            nvml_lib ? nv_error(nvml) : nvml_why ? nvml_why : libnvml);
  }
  char version[80];
  driver_text(version, sizeof version, nvml == 0, cuda_version);

  FILE *file = stdout;
  if (path) {
    file = fopen(path, "w");
    if (!file) {
      fprintf(stderr, "cuda-stubs-capture: %s: %s\n", path, strerror(errno));
      return 4;
    }
  }
  out = file;
  char uuid_buf[64], pname[96], when[32] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
  profile_name(pname, sizeof pname, name_arg ? name_arg : name);
  fprintf(out, "# %s: captured by cuda-stubs-capture %s, device %d of %d, driver %s (CUDA %d.%d).\n",
          name, when, device, count, version, cuda_version / 1000, cuda_version % 1000 / 10);
  fprintf(out, "# Load it with CUDA_STUBS_MOCK=FILE (FILE:COUNT for several such devices).\n");
  if (keep_ids)
    fprintf(out, "# The UUID and PCI location are the board's own (--keep-ids).\n");
  else
    fprintf(out, "# The UUID and PCI location are made up (the board's own with --keep-ids).\n");
  fprintf(out, "\n[profile]\n");
  put_string("name", pname);
  char description[400];
  snprintf(description, sizeof description, "%s, captured by cuda-stubs-capture (driver %s)", name,
           version);
  put_string("description", description);
  fprintf(out, "devices = 1\n\n[driver]\ncuda_version = %d\n", cuda_version);
  put_string("version", version);
  fprintf(out, "\n[device]\n");
  put_string("name", name);
  uuid_text(uuid_buf, sizeof uuid_buf, keep_ids ? uuid : MADE_UP_UUID);
  put_string("uuid", uuid_buf);
  put_string("pci_bus_id", keep_ids ? bus : MADE_UP_PCI);
  fprintf(out, "# Bytes, as CUDA reports them (cuDeviceTotalMem); NVML adds its reserved memory.\n");
  fprintf(out, "total_memory = %llu\n", (unsigned long long)total);

  fprintf(out, "\n[attributes]\n");
  int answered = 0, refused = 0;
  for (size_t i = 0; i < NATTRIBUTES; i++) {
    int v = 0;
    const char *an = CAPTURE_ATTRIBUTES[i].name;
    r = cu.attribute(&v, CAPTURE_ATTRIBUTES[i].number, dev);
    if (r != 0) {
      /* Left out: the mock then answers "invalid value" for it, as this driver does. */
      fprintf(out, "# %s: error %d %s\n", an, r, cu_error(r));
      refused++;
      continue;
    }
    if (!keep_ids) {
      if (!strcmp(an, "CU_DEVICE_ATTRIBUTE_PCI_BUS_ID")) v = 1;
      if (!strcmp(an, "CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID")) v = 0;
      if (!strcmp(an, "CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID")) v = 0;
    }
    fprintf(out, "%s = %d\n", an, v);
    answered++;
  }
  fprintf(out, "# %d attributes answered, %d not (of cuda.h 13.5's %zu names)\n", answered,
          refused, (size_t)NATTRIBUTES);

  write_nvml(nvml, nd, (unsigned long long)total);
  if (nvml_started) NV_CALL(nv_init_t, "nvmlShutdown");
  if (fflush(out) != 0 || ferror(out) || (file != stdout && fclose(file) != 0)) {
    fprintf(stderr, "cuda-stubs-capture: %s: write failed\n", path ? path : "stdout");
    return 4;
  }
  if (path)
    fprintf(stderr, "cuda-stubs-capture: %s (device %d, %s) written to %s\n", name, device,
            keep_ids ? "its own UUID and PCI location" : "UUID and PCI location made up", path);
  return 0;
}
