/* Mock libcudart.so.13 for the runtime stub's device-code loads (issue 36 item 2: PTX newer
 * than the driver becomes a CUBIN before the runtime sees it), built by build.rs into
 * mocks/mock-device-code/. It reports a configurable driver and device, and records what device
 * code it is handed, configured at run time:
 *
 *   MOCK_DRIVER_VERSION   what cudaDriverGetVersion reports (default 13000)
 *   MOCK_DEVICE_SM        each device's compute capability x 10 (default 90), answered by
 *                         cudaDeviceGetAttribute 75 / 76 (major / minor)
 *   MOCK_DEVICE_COUNT     cudaGetDeviceCount (default 1)
 *   MOCK_DEVICE_CODE_LOG  a file to append one line to per image handed in:
 *                           `<entry> at 0x... <what>`, for __cudaRegisterFatBinary
 *                           `__cudaRegisterFatBinary wrapper=0x... data=0x... <what>`
 *                         what: `ptx X.Y` (its .version), `cubin sm_NN` (an ELF of EM_CUDA, the
 *                         sm from e_flags as each ELF ABI version keeps it), `elf machine N`,
 *                         `fatbin` then each entry as `ptx X.Y compute_NN` (the entry header's
 *                         ISA and arch), `cubin sm_NN elf=B` (B: the payload is a CUBIN of that
 *                         sm), `kind N`; `other`, `null`
 *
 * The fat-binary layout read is stub-loader/src/fatbin.rs's (a 16-byte header: magic
 * 0xBA55ED50 at 0, header size u16 at 6, entries' size u64 at 8; each entry: kind u16 at 0
 * (1 PTX, 2 ELF), header size u32 at 4, payload size u64 at 8, PTX ISA minor / major u16 at 24 /
 * 26, arch u32 at 28; the payload after the header). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static int env_int(const char *name, int fallback) {
  const char *text = getenv(name);
  if (text == NULL || *text == '\0') return fallback;
  char *end;
  long v = strtol(text, &end, 10);
  return *end == '\0' && v >= 0 && v < 1000000 ? (int)v : fallback;
}

EXPORT int cudaRuntimeGetVersion(int *version) {
  if (version == NULL) return 1;
  *version = 13000;
  return 0;
}

EXPORT int cudaDriverGetVersion(int *version) {
  if (version == NULL) return 1;
  *version = env_int("MOCK_DRIVER_VERSION", 13000);
  return 0;
}

EXPORT int cudaGetDeviceCount(int *count) {
  if (count == NULL) return 1;
  *count = env_int("MOCK_DEVICE_COUNT", 1);
  return 0;
}

EXPORT int cudaGetDevice(int *device) {
  if (device == NULL) return 1;
  if (env_int("MOCK_DEVICE_COUNT", 1) == 0) return 100; /* cudaErrorNoDevice */
  *device = 0;
  return 0;
}

EXPORT int cudaDeviceGetAttribute(int *value, int attr, int device) {
  if (value == NULL || device < 0 || device >= env_int("MOCK_DEVICE_COUNT", 1)) return 1;
  int sm = env_int("MOCK_DEVICE_SM", 90);
  if (attr == 75) *value = sm / 10;
  else if (attr == 76) *value = sm % 10;
  else return 1;
  return 0;
}

/* ---- what was handed in ----------------------------------------------------------------- */

static uint16_t u16_at(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32_at(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64_at(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* The sm of a CUBIN's ELF header, -1 when it is none: ELF ABI version 8 (CUDA 13's tools,
 * EI_OSABI 65) keeps it in e_flags' bits 8-15, earlier ones in its low byte. */
static int cubin_sm(const unsigned char *elf) {
  if (memcmp(elf, "\x7f" "ELF", 4) != 0 || u16_at(elf + 18) != 190) return -1;
  uint32_t flags = u32_at(elf + (elf[4] == 2 ? 48 : 36));
  return elf[8] >= 8 ? (int)((flags >> 8) & 0xff) : (int)(flags & 0xff);
}

/* Appends what `image` is to `out`. */
static void describe(const unsigned char *image, char *out, size_t size) {
  size_t used = 0;
#define ADD(...) used += (size_t)snprintf(out + used, used < size ? size - used : 0, __VA_ARGS__)
  if (image == NULL) {
    ADD("null");
  } else if (u32_at(image) == 0xBA55ED50) {
    ADD("fatbin");
    uint64_t at = u16_at(image + 6), end = at + u64_at(image + 8);
    for (int i = 0; at + 32 <= end && i < 64; i++) {
      const unsigned char *e = image + at;
      uint16_t kind = u16_at(e);
      uint32_t header = u32_at(e + 4), arch = u32_at(e + 28);
      uint64_t payload = u64_at(e + 8);
      if (kind == 1) {
        ADD(" ptx %u.%u compute_%u", u16_at(e + 26), u16_at(e + 24), arch);
      } else if (kind == 2) {
        int sm = payload >= 64 ? cubin_sm(e + header) : -1;
        ADD(" cubin sm_%u elf=%d", arch, sm == (int)arch);
      } else {
        ADD(" kind %u", kind);
      }
      if (header == 0) break;
      at += header + payload;
    }
  } else if (memcmp(image, "\x7f" "ELF", 4) == 0) {
    int sm = cubin_sm(image);
    if (sm >= 0) ADD("cubin sm_%d", sm);
    else ADD("elf machine %u", u16_at(image + 18));
  } else {
    const char *v = strstr((const char *)image, ".version ");
    if (v != NULL) {
      int major = 0, minor = 0;
      sscanf(v, ".version %d.%d", &major, &minor);
      ADD("ptx %d.%d", major, minor);
    } else {
      ADD("other");
    }
  }
#undef ADD
}

static void log_line(const char *head, const void *image) {
  const char *path = getenv("MOCK_DEVICE_CODE_LOG");
  if (path == NULL || *path == '\0') return;
  char what[2048];
  describe(image, what, sizeof what);
  FILE *f = fopen(path, "a");
  if (f == NULL) return;
  fprintf(f, "%s %s\n", head, what);
  fclose(f);
}

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

static int library_token;

EXPORT int cudaLibraryLoadData(void **library, const void *code, void *jit_options,
                               void **jit_values, unsigned n_jit, void *library_options,
                               void **library_values, unsigned n_library) {
  (void)jit_options, (void)jit_values, (void)n_jit;
  (void)library_options, (void)library_values, (void)n_library;
  char head[64];
  snprintf(head, sizeof head, "cudaLibraryLoadData at %p", code);
  log_line(head, code);
  if (library == NULL || code == NULL) return 1;
  *library = &library_token;
  return 0;
}

EXPORT int cudaLibraryLoadFromFile(void **library, const char *path, void *jit_options,
                                   void **jit_values, unsigned n_jit, void *library_options,
                                   void **library_values, unsigned n_library) {
  (void)jit_options, (void)jit_values, (void)n_jit;
  (void)library_options, (void)library_values, (void)n_library;
  unsigned char *bytes = path != NULL ? read_file(path) : NULL;
  log_line("cudaLibraryLoadFromFile file", bytes);
  free(bytes);
  if (library == NULL || bytes == NULL) return 1;
  *library = &library_token;
  return 0;
}

static void *fatbin_handle[4];

EXPORT void **__cudaRegisterFatBinary(void *fat_cubin) {
  struct {
    int magic, version;
    const unsigned char *data;
    void *filename_or_fatbins;
  } wrapper;
  char head[128];
  if (fat_cubin == NULL) {
    log_line("__cudaRegisterFatBinary", NULL);
    return NULL;
  }
  memcpy(&wrapper, fat_cubin, sizeof wrapper);
  snprintf(head, sizeof head, "__cudaRegisterFatBinary wrapper=%p magic=0x%x version=%d data=%p",
           fat_cubin, (unsigned)wrapper.magic, wrapper.version, (const void *)wrapper.data);
  log_line(head, wrapper.data);
  return fatbin_handle;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
EXPORT void __cudaUnregisterFatBinary(void **handle) { (void)handle; }
