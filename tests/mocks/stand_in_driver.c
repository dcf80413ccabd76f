/* Stand-in libcuda.so.1 (the driver), built by build.rs with the real soname into
 * mocks/stand-in-driver/: unlike cuda.c (fixed answers, for the stub's forwarding), this one
 * looks at the device code it is handed and accepts or refuses it the way a real driver of the
 * configured version does on the configured device (issue 36: PTX `.version 9.5` from NVRTC
 * 13.5 is refused by a CUDA 13.0 driver with 222). One build serves every test: it is
 * configured at run time, read on each call.
 *
 *   STAND_IN_DRIVER_VERSION  what cuDriverGetVersion reports (default 13000); the newest PTX ISA
 *                            the driver JIT-compiles follows from it (ptx_isa_of_driver)
 *   STAND_IN_DEVICE_SM       the device's compute capability x 10 (default 90: sm_90), answered
 *                            by cuDeviceGetAttribute 75 / 76 (major / minor)
 *   STAND_IN_DEVICE_COUNT    how many devices (default 1; 0: cuInit gives 100, no device)
 *   STAND_IN_DRIVER_LOG      a file to append one line to per device-code image handed in:
 *                            `<entry point> <what it saw> -> <result>`, the entry point without
 *                            its ABI suffix, e.g.
 *                              cuModuleLoadData ptx 9.5 sm_90 -> 222
 *                              cuModuleLoadDataEx cubin sm_90 -> 0
 *                              cuModuleLoadFatBinary fatbin ptx 9.5 sm_90 -> 222
 *                              cuLinkAddData ptx 9.5 sm_90 -> 222
 *                            what it saw: `ptx X.Y sm_NN[a|f]`, `cubin sm_NN`, `elf machine N`
 *                            (an ELF that is no CUBIN), `fatbin` then each entry as `ptx X.Y
 *                            sm_NN` / `cubin sm_NN` / `other`, `other` (neither), `null`
 *   STAND_IN_DRIVER_LOG_ADDRESSES  when 1, each line of an image handed in memory (modules and
 *                            libraries) ends in ` at 0x...`, the image's address: which buffer
 *                            reached the driver (the caller's own, or another)
 *
 * Checks (check_image, the same for every entry point that takes device code):
 *   - an ELF (`\x7fELF`) must be a CUBIN (e_machine 190, EM_CUDA, else 200) built for the
 *     device: same major, minor <= the device's (sm_86 code runs on sm_89, not on sm_90), else
 *     209; the sm is read from e_flags as each ELF ABI version keeps it (cubin_sm);
 *   - PTX text (comments and blank lines may precede `.version`) must have an ISA <= the
 *     driver's, else 222, and a `.target` the device can run, else 209: sm_XY <= the device's,
 *     sm_XYa only on sm_XY, sm_XYf on the same major with a minor <= the device's;
 *   - a fat binary (magic 0xBA55ED50, or nvcc's wrapper __fatBinC_Wrapper_t, magic 0x466243B1,
 *     pointing at one) loads when one entry does: a CUBIN for the device, or PTX it can JIT;
 *     else 222 when some PTX was too new, else 209;
 *   - anything else (LTO-IR too: no driver since 12.0 loads it as a module) is 200.
 *
 * Entry points: cuInit (flags 0 only; 3 CUDA_ERROR_NOT_INITIALIZED from the others before it),
 * devices, primary and created contexts (current context per thread; 201 without one),
 * cuCtxGetId, and the stream and virtual-memory queries cuBLASMp and cuSOLVERMp import (errors:
 * this driver has no stream or allocation to answer for),
 * modules, libraries, the linker (cuLinkComplete hands out a CUBIN header for the device once
 * every input was accepted), cuLaunchKernel (0 for a function or kernel handle it gave out,
 * else 400), error names and texts, and cuGetProcAddress / _v2 answering 500 (not found) for
 * every name, so that a caller falls back to dlsym, as stubs-cuda does. The JIT options
 * CU_JIT_WALL_TIME (2), INFO_LOG (3/4) and ERROR_LOG (5/6) are honoured as cuda.h documents
 * them: the log is a NUL-terminated message capped at the given size, and the size option's
 * own slot in optionValues is overwritten with the bytes written, NUL included (0 when there
 * was nothing to say); the wall time is a float written into its slot.
 *
 * Handles are heap blocks recorded in a registry: a handle is checked there before use, so a
 * stale or made-up handle is an error code, never a crash; so is NULL anywhere. */
/* clock_gettime under -std=c11. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

/* CUresult values (cuda.h). */
enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NOT_INITIALIZED = 3,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_IMAGE = 200,
  INVALID_CONTEXT = 201,
  NO_BINARY_FOR_GPU = 209,
  INVALID_PTX = 218,
  UNSUPPORTED_PTX_VERSION = 222,
  FILE_NOT_FOUND = 301,
  INVALID_HANDLE = 400,
  NOT_FOUND = 500,
  NOT_SUPPORTED = 801,
};

/* ---- configuration ---------------------------------------------------------------------- */

static int env_int(const char *name, int fallback) {
  const char *text = getenv(name);
  if (text == NULL || *text == '\0') return fallback;
  char *end;
  long v = strtol(text, &end, 10);
  return *end == '\0' && v >= 0 && v < 1000000 ? (int)v : fallback;
}
static int driver_version(void) { return env_int("STAND_IN_DRIVER_VERSION", 13000); }
static int device_sm(void) { return env_int("STAND_IN_DEVICE_SM", 90); }
static int device_count(void) { return env_int("STAND_IN_DEVICE_COUNT", 1); }

/* The newest PTX ISA (major * 10 + minor) a driver of CUDA `version` JIT-compiles: the CUDA
 * release each PTX ISA came with, from the release history of NVIDIA's PTX ISA document
 * (docs.nvidia.com/cuda/parallel-thread-execution/#release-notes-ptx-release-history; the same
 * table is in cuda-python's cuda/bindings/utils/_ptx_utils.py). 12.6 brought no new ISA. */
static const struct {
  int cuda, isa;
} PTX_ISA_OF_CUDA[] = {
    {10000, 63}, {10010, 64}, {10020, 65}, {11000, 70}, {11010, 71}, {11020, 72},
    {11030, 73}, {11040, 74}, {11050, 75}, {11060, 76}, {11070, 77}, {11080, 78},
    {12000, 80}, {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84}, {12050, 85},
    {12060, 85}, {12070, 86}, {12080, 87}, {12090, 88}, {13000, 90}, {13010, 91},
};
static int ptx_isa_of_driver(int version) {
  /* 13.x past the table: 13.N came with ISA 9.N (13.4 with 9.4, 13.5 with 9.5). */
  if (version >= 13000 && version < 14000) return 90 + (version % 1000) / 10;
  if (version >= 14000) return 999; /* newer than anything known: takes every ISA */
  int isa = 0;
  for (size_t i = 0; i < sizeof PTX_ISA_OF_CUDA / sizeof PTX_ISA_OF_CUDA[0]; i++)
    if (version >= PTX_ISA_OF_CUDA[i].cuda) isa = PTX_ISA_OF_CUDA[i].isa;
  return isa;
}

/* ---- a lock, and the log -------------------------------------------------------------- */

/* A spin lock of C11 atomics, not a pthread mutex: the mock then needs nothing beyond libc on
 * any glibc, and what it guards is short. */
static atomic_flag lock_flag = ATOMIC_FLAG_INIT;
static void lock(void) {
  while (atomic_flag_test_and_set_explicit(&lock_flag, memory_order_acquire)) {
  }
}
static void unlock(void) { atomic_flag_clear_explicit(&lock_flag, memory_order_release); }

/* The log line of `image` (NULL: no address, whatever STAND_IN_DRIVER_LOG_ADDRESSES says). */
static void log_image_at(const char *entry, const char *saw, int rc, const void *image) {
  const char *path = getenv("STAND_IN_DRIVER_LOG");
  if (path == NULL || *path == '\0') return;
  const char *addresses = getenv("STAND_IN_DRIVER_LOG_ADDRESSES");
  int at = image != NULL && addresses != NULL && strcmp(addresses, "1") == 0;
  lock();
  FILE *f = fopen(path, "a");
  if (f != NULL) {
    if (at)
      fprintf(f, "%s %s -> %d at %p\n", entry, saw, rc, image);
    else
      fprintf(f, "%s %s -> %d\n", entry, saw, rc);
    fclose(f);
  }
  unlock();
}
static void log_image(const char *entry, const char *saw, int rc) {
  log_image_at(entry, saw, rc, NULL);
}

/* ---- handles ---------------------------------------------------------------------------- */

enum kind { CONTEXT = 1, PRIMARY, MODULE, FUNCTION, LIBRARY, KERNEL, LINK };

struct handle {
  enum kind kind;
  int device;            /* contexts */
  struct handle *owner;  /* functions (their module), kernels (their library) */
  /* Link states: the options of cuLinkCreate (valid for the state's life, cuda.h says), what
   * the log holds so far, the first refusal, how many inputs, and the CUBIN handed out. */
  unsigned n_options;
  int *options;
  void **values;
  char log[1024];
  int failed, inputs;
  unsigned char cubin[64];
};

#define MAX_HANDLES 4096
static struct handle *registry[MAX_HANDLES];

/* A new handle, recorded; NULL when out of memory or slots. */
static struct handle *handle_new(enum kind kind, struct handle *owner) {
  struct handle *h = calloc(1, sizeof *h);
  if (h == NULL) return NULL;
  h->kind = kind;
  h->owner = owner;
  lock();
  for (int i = 0; i < MAX_HANDLES; i++)
    if (registry[i] == NULL) {
      registry[i] = h;
      unlock();
      return h;
    }
  unlock();
  free(h);
  return NULL;
}

/* `p` when it is a live handle of `kind` (or of `other`, when non-zero), else NULL. */
static struct handle *handle_find(const void *p, enum kind kind, enum kind other) {
  if (p == NULL) return NULL;
  struct handle *found = NULL;
  lock();
  for (int i = 0; i < MAX_HANDLES; i++)
    if (registry[i] == p && (registry[i]->kind == kind || (other && registry[i]->kind == other))) {
      found = registry[i];
      break;
    }
  unlock();
  return found;
}

/* Frees `h` and every handle it owns (a module's functions, a library's kernels). */
static void handle_free(struct handle *h) {
  lock();
  for (int i = 0; i < MAX_HANDLES; i++)
    if (registry[i] != NULL && (registry[i] == h || registry[i]->owner == h)) {
      if (registry[i] != h) free(registry[i]);
      registry[i] = NULL;
    }
  unlock();
  free(h);
}

/* ---- device-code checks ----------------------------------------------------------------- */

/* What check_image saw (for the log line) and the result. */
struct verdict {
  int rc;
  char saw[192];
  char message[256]; /* for the error log: empty when accepted */
};

/* printf onto the end of `buf` (of `size` bytes), cut short rather than overrun. */
__attribute__((format(printf, 3, 4))) static void appendf(char *buf, size_t size,
                                                          const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= size) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(buf + used, size - used, fmt, args);
  va_end(args);
}

/* Whether code for `sm` runs on the device (CUBIN and plain PTX targets): same major and a
 * minor no greater, as NVIDIA's binary compatibility goes for CUBINs. */
static int cubin_runs(int sm, int device) { return sm / 10 == device / 10 && sm <= device; }

static uint16_t u16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t u32(const unsigned char *p) { return (uint32_t)u16(p) | (uint32_t)u16(p + 2) << 16; }
static uint64_t u64(const unsigned char *p) { return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32; }

/* The sm a CUBIN was built for, from its ELF header: EM_CUDA's e_flags, which NVIDIA does not
 * document, in two layouts, told apart by EI_OSABI (byte 7) / EI_ABIVERSION (byte 8). As real
 * CUBINs for sm_90 (and sm_80) show them, from NVRTC (-arch=sm_90) and from nvJitLink
 * (-arch=sm_90 of NVRTC's compute_90 PTX), the same from both tools of one release:
 *   - CUDA 12.9: EI_OSABI 51 (ELFOSABI_CUDA), EI_ABIVERSION 7, e_flags 0x005a055a (sm_80:
 *     0x00500550): the sm in the low byte, the virtual arch in bits 16-23, flags in 8-15
 *     (0x400 64-bit addresses, 0x100 unified texture mode);
 *   - CUDA 13.5: EI_OSABI 65, EI_ABIVERSION 8, e_flags 0x06005a04 (sm_80: 0x06005004): the sm
 *     in bits 8-15, flags in the low byte and in bits 24-31, no virtual arch. */
static int cubin_sm(const unsigned char *elf) {
  uint32_t flags = elf[4] == 2 ? u32(elf + 48) : u32(elf + 36); /* ELF64 / ELF32 e_flags */
  int v2 = elf[7] == 65 || elf[8] >= 8;
  return v2 ? (int)((flags >> 8) & 0xff) : (int)(flags & 0xff);
}

static void check_cubin(const unsigned char *elf, struct verdict *v) {
  int machine = u16(elf + 18), device = device_sm();
  if (machine != 190) {
    appendf(v->saw, sizeof v->saw, "elf machine %d", machine);
    v->rc = INVALID_IMAGE;
    snprintf(v->message, sizeof v->message, "ELF e_machine %d is not EM_CUDA (190)", machine);
    return;
  }
  int sm = cubin_sm(elf);
  appendf(v->saw, sizeof v->saw, "cubin sm_%d", sm);
  v->rc = cubin_runs(sm, device) ? SUCCESS : NO_BINARY_FOR_GPU;
  if (v->rc != SUCCESS)
    snprintf(v->message, sizeof v->message, "no kernel image for sm_%d: the CUBIN is for sm_%d",
             device, sm);
}

/* `p` past blanks and comments; counts the newlines passed into *line. */
static const char *skip_blank(const char *p, int *line) {
  for (;;) {
    if (*p == '\n') {
      ++*line, p++;
    } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
      p++;
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p != '\0' && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      for (p += 2; *p != '\0' && !(p[0] == '*' && p[1] == '/'); p++)
        if (*p == '\n') ++*line;
      if (*p != '\0') p += 2;
    } else {
      return p;
    }
  }
}

/* Whether `text` is PTX: its first directive, past comments, is `.version`. */
static int is_ptx(const char *text) {
  int line = 1;
  return strncmp(skip_blank(text, &line), ".version", 8) == 0;
}

/* Whether the device runs PTX for `.target sm_<sm><suffix>` (suffix 0, 'a' or 'f'). */
static int ptx_target_runs(int sm, char suffix, int device) {
  if (suffix == 'a') return sm == device;            /* arch-specific: that sm only */
  if (suffix == 'f') return cubin_runs(sm, device);  /* family: same major */
  return sm <= device;                               /* JIT to any newer device */
}

/* Checks the PTX ISA `isa` (major * 10 + minor; `line` where `.version` stands) and the target
 * (`sm` 0 when unknown); fills v's result and message. */
static void judge_ptx(int isa, int line, int sm, char suffix, struct verdict *v) {
  int max = ptx_isa_of_driver(driver_version()), device = device_sm();
  if (isa > max) {
    v->rc = UNSUPPORTED_PTX_VERSION;
    snprintf(v->message, sizeof v->message,
             "ptxas application ptx input, line %d; fatal   : Unsupported .version %d.%d; "
             "current version is '%d.%d'",
             line, isa / 10, isa % 10, max / 10, max % 10);
  } else if (sm != 0 && !ptx_target_runs(sm, suffix, device)) {
    v->rc = NO_BINARY_FOR_GPU;
    snprintf(v->message, sizeof v->message,
             "ptxas application ptx input, line %d; fatal   : SM version specified by .target "
             "(sm_%d%.1s) is higher than the device's (sm_%d)",
             line + 1, sm, suffix ? &suffix : "", device);
  } else {
    v->rc = SUCCESS;
  }
}

/* PTX text: `.version X.Y` then `.target sm_XY[a|f]`, each past blanks and comments. Not PTX
 * (or no readable version): `not_ptx`, INVALID_IMAGE for a module, INVALID_PTX for a PTX link
 * input. */
static void check_ptx(const char *text, int not_ptx, struct verdict *v) {
  int line = 1;
  const char *p = skip_blank(text, &line);
  int major, minor, n = 0;
  if (strncmp(p, ".version", 8) != 0 || sscanf(p + 8, " %d.%d%n", &major, &minor, &n) != 2 ||
      major < 0 || minor < 0 || minor > 9) {
    appendf(v->saw, sizeof v->saw, "other");
    v->rc = not_ptx;
    snprintf(v->message, sizeof v->message, "not PTX: no .version directive");
    return;
  }
  int version_line = line;
  p = skip_blank(p + 8 + n, &line);
  int sm = 0;
  char suffix = 0;
  if (strncmp(p, ".target", 7) == 0) {
    const char *t = skip_blank(p + 7, &line);
    if (strncmp(t, "sm_", 3) == 0) {
      sm = (int)strtol(t + 3, (char **)&t, 10);
      if (*t == 'a' || *t == 'f') suffix = *t;
    }
  }
  appendf(v->saw, sizeof v->saw, "ptx %d.%d", major, minor);
  if (sm != 0) appendf(v->saw, sizeof v->saw, " sm_%d", sm);
  if (suffix) appendf(v->saw, sizeof v->saw, "%c", suffix);
  if (sm == 0) {
    v->rc = INVALID_PTX;
    snprintf(v->message, sizeof v->message,
             "ptxas application ptx input, line %d; fatal   : no .target sm_XY directive",
             version_line + 1);
    return;
  }
  judge_ptx(major * 10 + minor, version_line, sm, suffix, v);
}

/* A fat binary (nvcc's layout, documented in stub-loader/src/fatbin.rs): a 16-byte header
 * (magic, version, header size at 6, entries' size at 8), then entries: kind at 0 (1 PTX,
 * 2 ELF), header size at 4, payload size at 8, the PTX ISA's minor / major at 24 / 26, the
 * arch at 28, flags at 40: the payload is compressed under 0x2000 (12.x's nvFatbin and nvcc)
 * or 0x8000 (13.x's), as NVIDIA's tools write them. */
#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_COMPRESSED (0x2000u | 0x8000u)
static void check_fatbin(const unsigned char *fat, struct verdict *v) {
  int device = device_sm();
  uint64_t size = u64(fat + 8), at = u16(fat + 6), end = at + size;
  int loads = 0, too_new = 0, entries = 0;
  char first_message[256] = "";
  appendf(v->saw, sizeof v->saw, "fatbin");
  while (at + 48 <= end && entries++ < 1024) {
    const unsigned char *e = fat + at;
    uint32_t header = u32(e + 4);
    uint64_t payload = u64(e + 8);
    int kind = u16(e), arch = (int)u32(e + 28);
    int compressed = (u64(e + 40) & FATBIN_COMPRESSED) != 0;
    const unsigned char *body = e + header;
    if (header < 48) break; /* malformed: stop rather than loop */
    if (kind == 2) {
      if (!compressed && payload >= 64 && memcmp(body, "\x7f" "ELF", 4) == 0) {
        struct verdict one = {0};
        check_cubin(body, &one);
        appendf(v->saw, sizeof v->saw, " %s", one.saw);
        if (one.rc == SUCCESS) loads = 1;
      } else {
        appendf(v->saw, sizeof v->saw, " cubin sm_%d", arch);
        if (cubin_runs(arch, device)) loads = 1;
      }
    } else if (kind == 1) {
      int isa = u16(e + 26) * 10 + u16(e + 24);
      appendf(v->saw, sizeof v->saw, " ptx %d.%d", isa / 10, isa % 10);
      appendf(v->saw, sizeof v->saw, " sm_%d", arch);
      struct verdict one = {0};
      judge_ptx(isa, 1, arch, 0, &one);
      if (one.rc == SUCCESS) loads = 1;
      if (one.rc == UNSUPPORTED_PTX_VERSION) too_new = 1;
      if (first_message[0] == '\0') memcpy(first_message, one.message, sizeof first_message);
    } else {
      appendf(v->saw, sizeof v->saw, " other");
    }
    at += header + payload;
  }
  v->rc = loads ? SUCCESS : too_new ? UNSUPPORTED_PTX_VERSION : NO_BINARY_FOR_GPU;
  if (v->rc == UNSUPPORTED_PTX_VERSION) memcpy(v->message, first_message, sizeof v->message);
  else if (v->rc != SUCCESS)
    snprintf(v->message, sizeof v->message, "no kernel image for sm_%d in the fat binary", device);
}

/* nvcc's wrapper of a fat binary in a host object (__fatBinC_Wrapper_t). */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u
struct fatbin_wrapper {
  int magic;
  int version;
  const unsigned long long *data;
  void *filename_or_fatbins;
};

/* The one check of every entry point that takes a device-code image. */
static void check_image(const void *image, struct verdict *v) {
  memset(v, 0, sizeof *v);
  const unsigned char *p = image;
  if (p == NULL) {
    strcpy(v->saw, "null");
    v->rc = INVALID_VALUE;
    return;
  }
  if (u32(p) == FATBIN_WRAPPER_MAGIC) {
    const struct fatbin_wrapper *w = image;
    p = (const unsigned char *)w->data;
    if (p == NULL || u32(p) != FATBIN_MAGIC) {
      strcpy(v->saw, "other");
      v->rc = INVALID_IMAGE;
      snprintf(v->message, sizeof v->message, "fat binary wrapper without a fat binary");
      return;
    }
  }
  if (u32(p) == FATBIN_MAGIC) {
    check_fatbin(p, v);
  } else if (memcmp(p, "\x7f" "ELF", 4) == 0) {
    check_cubin(p, v);
  } else if (is_ptx(image)) {
    check_ptx(image, INVALID_IMAGE, v);
  } else {
    strcpy(v->saw, "other");
    v->rc = INVALID_IMAGE;
    snprintf(v->message, sizeof v->message, "not a CUBIN, PTX or fat binary");
  }
}

/* A file's bytes, NUL-terminated (PTX text), or NULL. */
static unsigned char *read_file(const char *path, size_t *size) {
  if (path == NULL) return NULL;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  unsigned char *buf = NULL;
  size_t used = 0, cap = 0;
  for (;;) {
    if (used + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 65536;
      unsigned char *grown = realloc(buf, cap);
      if (grown == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    size_t got = fread(buf + used, 1, 4096, f);
    used += got;
    if (got == 0) break;
  }
  fclose(f);
  /* Zero padding past the end: the header reads of a short file then see zeros. */
  memset(buf + used, 0, cap - used);
  if (size != NULL) *size = used;
  return buf;
}

/* ---- JIT options -------------------------------------------------------------------------- */

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Writes `text` into the log buffer option `buffer_option` (3 info, 5 error), capped at the
 * size option `buffer_option + 1` (its IN value), whose slot then holds the bytes written,
 * NUL included (0 for an empty log). */
static void write_log(unsigned n, const int *options, void **values, int buffer_option,
                      const char *text) {
  if (options == NULL || values == NULL) return;
  char *buffer = NULL;
  int size_at = -1;
  for (unsigned i = 0; i < n; i++) {
    if (options[i] == buffer_option) buffer = values[i];
    if (options[i] == buffer_option + 1) size_at = (int)i;
  }
  if (buffer == NULL || size_at < 0) return;
  size_t cap = (size_t)(uintptr_t)values[size_at], written = 0;
  if (cap > 0) {
    size_t len = strlen(text);
    if (len > cap - 1) len = cap - 1;
    memcpy(buffer, text, len);
    buffer[len] = '\0';
    written = len ? len + 1 : 0;
  }
  values[size_at] = (void *)(uintptr_t)written;
}

static void write_wall_time(unsigned n, const int *options, void **values, double since) {
  if (options == NULL || values == NULL) return;
  for (unsigned i = 0; i < n; i++)
    if (options[i] == 2) {
      float ms = (float)(now_ms() - since);
      values[i] = NULL;
      memcpy(&values[i], &ms, sizeof ms);
    }
}

/* The JIT outputs of one load: error log on refusal, an empty info log, the wall time. */
static void jit_outputs(unsigned n, const int *options, void **values, const struct verdict *v,
                        double since) {
  write_log(n, options, values, 5, v->rc == SUCCESS ? "" : v->message);
  write_log(n, options, values, 3, "");
  write_wall_time(n, options, values, since);
}

/* ---- initialization, devices ------------------------------------------------------------ */

static atomic_int initialized;

EXPORT int cuInit(unsigned flags) {
  if (flags != 0) return INVALID_VALUE;
  if (device_count() == 0) return NO_DEVICE;
  atomic_store(&initialized, 1);
  return SUCCESS;
}
#define NEED_INIT()                                                                            \
  do {                                                                                         \
    if (!atomic_load(&initialized)) return NOT_INITIALIZED;                                    \
  } while (0)

EXPORT int cuDriverGetVersion(int *version) {
  if (version == NULL) return INVALID_VALUE;
  *version = driver_version();
  return SUCCESS;
}

static int valid_device(int dev) { return dev >= 0 && dev < device_count(); }

EXPORT int cuDeviceGetCount(int *count) {
  NEED_INIT();
  if (count == NULL) return INVALID_VALUE;
  *count = device_count();
  return SUCCESS;
}

EXPORT int cuDeviceGet(int *device, int ordinal) {
  NEED_INIT();
  if (device == NULL) return INVALID_VALUE;
  if (!valid_device(ordinal)) return INVALID_DEVICE;
  *device = ordinal;
  return SUCCESS;
}

EXPORT int cuDeviceGetAttribute(int *value, int attribute, int dev) {
  NEED_INIT();
  if (value == NULL) return INVALID_VALUE;
  if (!valid_device(dev)) return INVALID_DEVICE;
  switch (attribute) {
  case 75: *value = device_sm() / 10; break; /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
  case 76: *value = device_sm() % 10; break; /* ..._MINOR */
  case 1: *value = 1024; break;              /* MAX_THREADS_PER_BLOCK */
  case 10: *value = 32; break;               /* WARP_SIZE */
  case 16: *value = 132; break;              /* MULTIPROCESSOR_COUNT */
  default:
    if (attribute < 1 || attribute > 200) return INVALID_VALUE;
    *value = 0;
  }
  return SUCCESS;
}

EXPORT int cuDeviceGetName(char *name, int len, int dev) {
  NEED_INIT();
  if (name == NULL || len <= 0) return INVALID_VALUE;
  if (!valid_device(dev)) return INVALID_DEVICE;
  snprintf(name, (size_t)len, "Stand-in sm_%d device", device_sm());
  return SUCCESS;
}

/* ---- contexts ----------------------------------------------------------------------------- */

static _Thread_local struct handle *current;
#define MAX_DEVICES 64
static struct handle *primary[MAX_DEVICES];
static int primary_refs[MAX_DEVICES];

EXPORT int cuDevicePrimaryCtxRetain(void **ctx, int dev) {
  NEED_INIT();
  if (ctx == NULL) return INVALID_VALUE;
  if (!valid_device(dev) || dev >= MAX_DEVICES) return INVALID_DEVICE;
  lock();
  struct handle *h = primary[dev];
  unlock();
  if (h == NULL) {
    struct handle *made = handle_new(PRIMARY, NULL);
    if (made == NULL) return OUT_OF_MEMORY;
    made->device = dev;
    lock();
    if (primary[dev] == NULL) primary[dev] = made;
    h = primary[dev];
    unlock();
    if (h != made) handle_free(made); /* another thread made it first */
  }
  lock();
  primary_refs[dev]++;
  unlock();
  *ctx = h;
  return SUCCESS;
}

/* The primary context stays allocated at refcount 0 (the real one is reset, its handle stays
 * the same across retains). */
EXPORT int cuDevicePrimaryCtxRelease_v2(int dev) {
  NEED_INIT();
  if (!valid_device(dev) || dev >= MAX_DEVICES) return INVALID_DEVICE;
  int rc = SUCCESS;
  lock();
  if (primary_refs[dev] > 0) primary_refs[dev]--;
  else rc = INVALID_CONTEXT;
  unlock();
  return rc;
}

static int ctx_create(void **pctx, int dev) {
  NEED_INIT();
  if (pctx == NULL) return INVALID_VALUE;
  if (!valid_device(dev)) return INVALID_DEVICE;
  struct handle *h = handle_new(CONTEXT, NULL);
  if (h == NULL) return OUT_OF_MEMORY;
  h->device = dev;
  current = h; /* a new context is made current */
  *pctx = h;
  return SUCCESS;
}
EXPORT int cuCtxCreate_v2(void **pctx, unsigned flags, int dev) {
  (void)flags;
  return ctx_create(pctx, dev);
}
/* CUDA 13.x binds cuCtxCreate to _v4, with a CUctxCreateParams pointer (may be NULL). */
EXPORT int cuCtxCreate_v4(void **pctx, void *params, unsigned flags, int dev) {
  (void)params, (void)flags;
  return ctx_create(pctx, dev);
}

EXPORT int cuCtxDestroy_v2(void *ctx) {
  NEED_INIT();
  struct handle *h = handle_find(ctx, CONTEXT, 0);
  if (h == NULL) return INVALID_CONTEXT;
  if (current == h) current = NULL;
  handle_free(h);
  return SUCCESS;
}

EXPORT int cuCtxSetCurrent(void *ctx) {
  NEED_INIT();
  if (ctx == NULL) {
    current = NULL;
    return SUCCESS;
  }
  struct handle *h = handle_find(ctx, CONTEXT, PRIMARY);
  if (h == NULL) return INVALID_CONTEXT;
  current = h;
  return SUCCESS;
}

EXPORT int cuCtxGetCurrent(void **pctx) {
  NEED_INIT();
  if (pctx == NULL) return INVALID_VALUE;
  *pctx = handle_find(current, CONTEXT, PRIMARY);
  return SUCCESS;
}

/* The current context, checked live: another thread may have destroyed it. */
static struct handle *current_context(void) { return handle_find(current, CONTEXT, PRIMARY); }

EXPORT int cuCtxGetDevice(int *device) {
  NEED_INIT();
  if (device == NULL) return INVALID_VALUE;
  struct handle *h = current_context();
  if (h == NULL) return INVALID_CONTEXT;
  *device = h->device;
  return SUCCESS;
}

/* The six entry points NVIDIA's cuBLASMp and cuSOLVERMp 0.x import (bound when the library is
 * loaded, so a driver without them cannot load it): a context's id, a stream's context, and
 * the virtual-memory queries, none of which this driver has anything to answer for but errors
 * (it allocates no memory and makes no streams). */
EXPORT int cuCtxGetId(void *ctx, unsigned long long *id) {
  NEED_INIT();
  if (id == NULL) return INVALID_VALUE;
  struct handle *h = ctx != NULL ? handle_find(ctx, CONTEXT, PRIMARY) : current_context();
  if (h == NULL) return INVALID_CONTEXT;
  *id = (unsigned long long)(uintptr_t)h;
  return SUCCESS;
}
EXPORT int cuStreamGetCtx(void *stream, void **pctx) {
  NEED_INIT();
  if (pctx == NULL) return INVALID_VALUE;
  (void)stream;
  return INVALID_HANDLE;
}
EXPORT int cuMemGetAddressRange_v2(unsigned long long *base, size_t *size, unsigned long long ptr) {
  NEED_INIT();
  (void)base, (void)size, (void)ptr;
  return NOT_FOUND;
}
EXPORT int cuMemRelease(unsigned long long handle) {
  NEED_INIT();
  (void)handle;
  return INVALID_VALUE;
}
EXPORT int cuMemRetainAllocationHandle(unsigned long long *handle, void *addr) {
  NEED_INIT();
  (void)handle, (void)addr;
  return INVALID_VALUE;
}

/* ---- modules ------------------------------------------------------------------------------ */

/* Checks `image`, logs it under `entry`, fills the JIT outputs, and makes a module (or
 * library: `kind`) when accepted. A module needs a current context; a library does not. */
static int load(const char *entry, enum kind kind, void **out, const void *image, unsigned n,
                const int *options, void **values) {
  double since = now_ms();
  NEED_INIT();
  if (out == NULL) return INVALID_VALUE;
  if (kind == MODULE && current_context() == NULL) return INVALID_CONTEXT;
  struct verdict v;
  check_image(image, &v);
  log_image_at(entry, v.saw, v.rc, kind == MODULE || kind == LIBRARY ? image : NULL);
  jit_outputs(n, options, values, &v, since);
  if (v.rc != SUCCESS) return v.rc;
  struct handle *h = handle_new(kind, NULL);
  if (h == NULL) return OUT_OF_MEMORY;
  *out = h;
  return SUCCESS;
}

static int load_file(const char *entry, enum kind kind, void **out, const char *path, unsigned n,
                     const int *options, void **values) {
  NEED_INIT();
  if (out == NULL || path == NULL) return INVALID_VALUE;
  unsigned char *bytes = read_file(path, NULL);
  if (bytes == NULL) {
    log_image(entry, "missing", FILE_NOT_FOUND);
    return FILE_NOT_FOUND;
  }
  int rc = load(entry, kind, out, bytes, n, options, values);
  free(bytes);
  return rc;
}

EXPORT int cuModuleLoad(void **module, const char *path) {
  return load_file("cuModuleLoad", MODULE, module, path, 0, NULL, NULL);
}

EXPORT int cuModuleLoadData(void **module, const void *image) {
  return load("cuModuleLoadData", MODULE, module, image, 0, NULL, NULL);
}

EXPORT int cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options,
                              void **values) {
  return load("cuModuleLoadDataEx", MODULE, module, image, n, options, values);
}

EXPORT int cuModuleLoadFatBinary(void **module, const void *fatbin) {
  return load("cuModuleLoadFatBinary", MODULE, module, fatbin, 0, NULL, NULL);
}

EXPORT int cuModuleUnload(void *module) {
  NEED_INIT();
  struct handle *h = handle_find(module, MODULE, 0);
  if (h == NULL) return INVALID_HANDLE;
  handle_free(h);
  return SUCCESS;
}

/* Any non-empty name is a function of the module: the stand-in does not read symbol tables. */
EXPORT int cuModuleGetFunction(void **function, void *module, const char *name) {
  NEED_INIT();
  if (function == NULL || name == NULL || *name == '\0') return INVALID_VALUE;
  struct handle *m = handle_find(module, MODULE, 0);
  if (m == NULL) return INVALID_HANDLE;
  struct handle *f = handle_new(FUNCTION, m);
  if (f == NULL) return OUT_OF_MEMORY;
  *function = f;
  return SUCCESS;
}

/* ---- libraries (CUDA 12.0+: context-independent loading) ------------------------------------ */

EXPORT int cuLibraryLoadData(void **library, const void *code, int *jit_options,
                             void **jit_values, unsigned n_jit, void *library_options,
                             void **library_values, unsigned n_library) {
  (void)library_options, (void)library_values, (void)n_library;
  return load("cuLibraryLoadData", LIBRARY, library, code, n_jit, jit_options, jit_values);
}

EXPORT int cuLibraryLoadFromFile(void **library, const char *path, int *jit_options,
                                 void **jit_values, unsigned n_jit, void *library_options,
                                 void **library_values, unsigned n_library) {
  (void)library_options, (void)library_values, (void)n_library;
  return load_file("cuLibraryLoadFromFile", LIBRARY, library, path, n_jit, jit_options,
                   jit_values);
}

EXPORT int cuLibraryUnload(void *library) {
  NEED_INIT();
  struct handle *h = handle_find(library, LIBRARY, 0);
  if (h == NULL) return INVALID_HANDLE;
  handle_free(h);
  return SUCCESS;
}

EXPORT int cuLibraryGetKernel(void **kernel, void *library, const char *name) {
  NEED_INIT();
  if (kernel == NULL || name == NULL || *name == '\0') return INVALID_VALUE;
  struct handle *l = handle_find(library, LIBRARY, 0);
  if (l == NULL) return INVALID_HANDLE;
  struct handle *k = handle_new(KERNEL, l);
  if (k == NULL) return OUT_OF_MEMORY;
  *kernel = k;
  return SUCCESS;
}

/* ---- the linker --------------------------------------------------------------------------- */

EXPORT int cuLinkCreate_v2(unsigned n, int *options, void **values, void **state) {
  NEED_INIT();
  if (state == NULL || (n > 0 && (options == NULL || values == NULL))) return INVALID_VALUE;
  if (current_context() == NULL) return INVALID_CONTEXT;
  struct handle *h = handle_new(LINK, NULL);
  if (h == NULL) return OUT_OF_MEMORY;
  h->n_options = n;
  h->options = options;
  h->values = values;
  *state = h;
  return SUCCESS;
}

/* Appends to the state's log and hands the whole log out through its error-log option. */
static void link_log(struct handle *h, const char *message) {
  size_t used = strlen(h->log);
  if (used > 0 && used + 1 < sizeof h->log) strcat(h->log, "\n");
  strncat(h->log, message, sizeof h->log - strlen(h->log) - 1);
  write_log(h->n_options, h->options, h->values, 5, h->log);
}

static int link_add(const char *entry, void *state, int type, const void *data, size_t size) {
  NEED_INIT();
  struct handle *h = handle_find(state, LINK, 0);
  if (h == NULL) return INVALID_HANDLE;
  struct verdict v;
  memset(&v, 0, sizeof v);
  if (data == NULL || size == 0) {
    strcpy(v.saw, "null");
    v.rc = INVALID_VALUE;
  } else if (type == 0) { /* CU_JIT_INPUT_CUBIN */
    if (size >= 64 && memcmp(data, "\x7f" "ELF", 4) == 0) {
      check_cubin(data, &v);
    } else {
      strcpy(v.saw, "other");
      v.rc = INVALID_IMAGE;
      snprintf(v.message, sizeof v.message, "CUBIN input is not an ELF");
    }
  } else if (type == 1) { /* CU_JIT_INPUT_PTX: PTX must be NUL-terminated (cuda.h) */
    if (memchr(data, '\0', size) == NULL) {
      strcpy(v.saw, "other");
      v.rc = INVALID_PTX;
      snprintf(v.message, sizeof v.message, "PTX input is not NUL-terminated");
    } else {
      check_ptx(data, INVALID_PTX, &v);
    }
  } else if (type == 2) { /* CU_JIT_INPUT_FATBINARY */
    check_image(data, &v);
    if (strncmp(v.saw, "fatbin", 6) != 0) v.rc = INVALID_IMAGE;
  } else if (type == 5) { /* CU_JIT_INPUT_NVVM: LTO-IR, which no driver since 12.0 links */
    strcpy(v.saw, "ltoir");
    v.rc = INVALID_IMAGE;
    snprintf(v.message, sizeof v.message, "LTO-IR input is not supported");
  } else if (type == 3 || type == 4) { /* host objects and archives: not read here */
    strcpy(v.saw, type == 3 ? "object" : "library");
    v.rc = NOT_SUPPORTED;
    snprintf(v.message, sizeof v.message, "the stand-in driver links no host objects");
  } else {
    strcpy(v.saw, "other");
    v.rc = INVALID_VALUE;
  }
  log_image(entry, v.saw, v.rc);
  lock();
  h->inputs++;
  if (v.rc != SUCCESS && h->failed == 0) h->failed = v.rc;
  unlock();
  if (v.rc != SUCCESS) link_log(h, v.message[0] ? v.message : "invalid input");
  return v.rc;
}

EXPORT int cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name,
                            unsigned n, int *options, void **values) {
  (void)name, (void)n, (void)options, (void)values; /* compiler options only: nothing out */
  return link_add("cuLinkAddData", state, type, data, size);
}

EXPORT int cuLinkAddFile_v2(void *state, int type, const char *path, unsigned n, int *options,
                            void **values) {
  (void)n, (void)options, (void)values;
  NEED_INIT();
  if (handle_find(state, LINK, 0) == NULL) return INVALID_HANDLE;
  size_t size = 0;
  unsigned char *bytes = read_file(path, &size);
  if (bytes == NULL) {
    log_image("cuLinkAddFile", "missing", FILE_NOT_FOUND);
    return FILE_NOT_FOUND;
  }
  /* PTX from a file: its NUL is the one read_file appends. */
  int rc = link_add("cuLinkAddFile", state, type, bytes, size + (type == 1));
  free(bytes);
  return rc;
}

/* Hands out a 64-byte ELF64 CUBIN header for the device (what the stand-in's checks read),
 * once every input was accepted; else the first refusal. */
EXPORT int cuLinkComplete(void *state, void **cubin, size_t *size) {
  double since = now_ms();
  NEED_INIT();
  struct handle *h = handle_find(state, LINK, 0);
  if (h == NULL) return INVALID_HANDLE;
  if (cubin == NULL || size == NULL) return INVALID_VALUE;
  if (h->failed == 0 && h->inputs == 0) {
    h->failed = INVALID_VALUE;
    link_log(h, "nvlink error   : no input files");
  }
  /* The logs as they stand at the end (an empty error log when all went well). */
  write_log(h->n_options, h->options, h->values, 5, h->log);
  write_log(h->n_options, h->options, h->values, 3, "");
  write_wall_time(h->n_options, h->options, h->values, since);
  if (h->failed != 0) return h->failed;
  unsigned char *elf = h->cubin;
  int sm = device_sm();
  memset(elf, 0, sizeof h->cubin);
  memcpy(elf, "\x7f" "ELF", 4);
  elf[4] = 2;  /* ELFCLASS64 */
  elf[5] = 1;  /* little endian */
  elf[6] = 1;  /* EV_CURRENT */
  elf[7] = 65; /* EI_OSABI and EI_ABIVERSION of 13.x: the sm in e_flags bits 8-15 */
  elf[8] = 8;
  elf[16] = 2; /* ET_EXEC */
  elf[18] = 190; /* EM_CUDA */
  elf[20] = 1;   /* e_version */
  uint32_t flags = 0x06000004u | (uint32_t)(sm & 0xff) << 8; /* as 13.5's nvJitLink writes */
  memcpy(elf + 48, &flags, 4);
  elf[52] = 64; /* e_ehsize */
  *cubin = elf;
  *size = sizeof h->cubin;
  return SUCCESS;
}

EXPORT int cuLinkDestroy(void *state) {
  NEED_INIT();
  struct handle *h = handle_find(state, LINK, 0);
  if (h == NULL) return INVALID_HANDLE;
  handle_free(h);
  return SUCCESS;
}

/* ---- launches ----------------------------------------------------------------------------- */

/* 0 for a function (or a kernel, which CUDA 12.0+ takes in place of one) it gave out. */
EXPORT int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shmem, void *stream, void **params, void **extra) {
  (void)shmem, (void)stream, (void)params, (void)extra;
  NEED_INIT();
  if (current_context() == NULL) return INVALID_CONTEXT;
  if (handle_find(f, FUNCTION, KERNEL) == NULL) return INVALID_HANDLE;
  if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0) return INVALID_VALUE;
  return SUCCESS;
}

/* ---- errors, entry points ----------------------------------------------------------------- */

static const struct {
  int code;
  const char *name, *text;
} ERRORS[] = {
    {SUCCESS, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain."},
    {FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
};

/* Unknown codes: CUDA_ERROR_INVALID_VALUE with NULL written, as the real driver does. */
static int error_lookup(int error, const char **out, int name) {
  if (out == NULL) return INVALID_VALUE;
  for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
    if (ERRORS[i].code == error) {
      *out = name ? ERRORS[i].name : ERRORS[i].text;
      return SUCCESS;
    }
  *out = NULL;
  return INVALID_VALUE;
}
EXPORT int cuGetErrorName(int error, const char **name) { return error_lookup(error, name, 1); }
EXPORT int cuGetErrorString(int error, const char **text) { return error_lookup(error, text, 0); }

/* Not found (500), for every name: a caller (stubs-cuda) then takes the export through dlsym.
 * The unsuffixed export keeps CUDA 11.3's four-argument prototype, _v2 (12.0+) adds the
 * query result, written CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND (1). */
EXPORT int cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
  (void)symbol, (void)version, (void)flags;
  if (pfn != NULL) *pfn = NULL;
  return NOT_FOUND;
}
EXPORT int cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                               unsigned long long flags, int *status) {
  (void)symbol, (void)version, (void)flags;
  if (pfn != NULL) *pfn = NULL;
  if (status != NULL) *status = 1;
  return NOT_FOUND;
}
