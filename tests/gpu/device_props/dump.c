/* Dump a real GPU's values as TOML, one document per device, to stdout (run by dump.sh, which
 * generates attrs.h and props.h from the machine's own cuda.h and driver_types.h).
 * Sections: [device] (driver API basics), [attributes] (every CU_DEVICE_ATTRIBUTE_* that
 * cuDeviceGetAttribute answers; failures as comments), [properties] (every cudaDeviceProp field
 * from cudaGetDeviceProperties), [nvml] (NVML's view of the same device).
 * Every call's return code is checked; a failing call becomes a comment line, never a crash.
 * With several devices the documents follow each other, separated by a "# ----" line. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvml.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct attr_entry {
  const char *name;
  int value;
  int deprecated; /* the header's comment says "deprecated" */
};
#include "attrs.h"

#define NATTRS (sizeof ATTRS / sizeof ATTRS[0])

static const char *cu_err(CUresult r) {
  const char *s = NULL;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "unknown";
  return s;
}

/* TOML basic string of at most n bytes of s. */
static void put_str(const char *key, const char *s, size_t n) {
  printf("%s = \"", key);
  for (size_t i = 0; i < n && s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20 || c == 0x7f)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  printf("\"\n");
}

static void put_hex(const char *key, const unsigned char *b, size_t n) {
  printf("%s = \"", key);
  for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
  printf("\"\n");
}

/* nvidia-smi's form: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx */
static void format_uuid(char *out, size_t outlen, const unsigned char *b) {
  snprintf(out, outlen,
           "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
           b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void print_props(const struct cudaDeviceProp *p) {
#include "props.h"
}

static void print_attributes(CUdevice dev) {
  int ok = 0, failed = 0, maxval = 0;
  printf("[attributes]\n");
  for (size_t i = 0; i < NATTRS; i++) {
    if (ATTRS[i].value > maxval) maxval = ATTRS[i].value;
    /* A deprecated enumerator names the current one with its value; a current one repeating
     * an earlier current one's value names that. */
    const char *alias = NULL;
    for (size_t j = 0; j < NATTRS; j++)
      if (j != i && ATTRS[j].value == ATTRS[i].value && !ATTRS[j].deprecated &&
          (ATTRS[i].deprecated || j < i)) {
        alias = ATTRS[j].name;
        break;
      }
    int v = 0;
    CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)ATTRS[i].value, dev);
    if (r == CUDA_SUCCESS) {
      ok++;
      printf("%s = %d", ATTRS[i].name, v);
      if (alias || ATTRS[i].deprecated) {
        printf("  #");
        if (ATTRS[i].deprecated) printf(" deprecated");
        if (alias) printf(" alias of %s", alias);
      }
      printf("\n");
    } else {
      failed++;
      printf("# %s (%d): error %d %s\n", ATTRS[i].name, ATTRS[i].value, (int)r, cu_err(r));
    }
  }
  /* Values the header does not name, a little past the highest named one. */
  int unnamed = 0;
  for (int a = 0; a <= maxval + 32; a++) {
    int named = 0;
    for (size_t i = 0; i < NATTRS; i++)
      if (ATTRS[i].value == a) named = 1;
    if (named) continue;
    int v = 0;
    CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
    if (r == CUDA_SUCCESS) {
      unnamed++;
      printf("# unnamed attribute value %d answers %d\n", a, v);
    }
  }
  printf("# unnamed attribute values 0..%d probed: %d answered\n", maxval + 32, unnamed);
  printf("# attributes: %d answered, %d errors, %zu enumerators in this cuda.h\n", ok, failed,
         (size_t)NATTRS);
}

static void nv_fail(const char *key, nvmlReturn_t r) {
  printf("# %s: NVML error %d %s\n", key, (int)r, nvmlErrorString(r));
}

static void nv_uint(const char *key, nvmlReturn_t r, unsigned long long v) {
  if (r == NVML_SUCCESS)
    printf("%s = %llu\n", key, v);
  else
    nv_fail(key, r);
}

static void nv_int(const char *key, nvmlReturn_t r, long long v) {
  if (r == NVML_SUCCESS)
    printf("%s = %lld\n", key, v);
  else
    nv_fail(key, r);
}

static void nv_str(const char *key, nvmlReturn_t r, const char *s, size_t n) {
  if (r == NVML_SUCCESS)
    put_str(key, s, n);
  else
    nv_fail(key, r);
}

static void print_nvml(nvmlReturn_t init, int index, const char *cuda_bus_id) {
  printf("[nvml]\n");
  if (init != NVML_SUCCESS) {
    nv_fail("nvmlInit_v2", init);
    return;
  }
  char buf[256];
  unsigned int u = 0, u2 = 0;
  int i1 = 0, i2 = 0;
  nvmlReturn_t r;

  r = nvmlSystemGetDriverVersion(buf, sizeof buf);
  nv_str("driver_version", r, buf, sizeof buf);
  r = nvmlSystemGetNVMLVersion(buf, sizeof buf);
  nv_str("nvml_version", r, buf, sizeof buf);
  r = nvmlSystemGetCudaDriverVersion_v2(&i1);
  nv_int("cuda_driver_version", r, i1);
  r = nvmlDeviceGetCount_v2(&u);
  nv_uint("device_count", r, u);

  /* Same device as CUDA's: by PCI bus id (CUDA and NVML can order devices differently),
   * else by index. */
  nvmlDevice_t d;
  const char *how = "pci_bus_id";
  r = cuda_bus_id[0] ? nvmlDeviceGetHandleByPciBusId_v2(cuda_bus_id, &d) : NVML_ERROR_NOT_FOUND;
  if (r != NVML_SUCCESS) {
    how = "index";
    r = nvmlDeviceGetHandleByIndex_v2((unsigned int)index, &d);
  }
  if (r != NVML_SUCCESS) {
    nv_fail("nvmlDeviceGetHandle", r);
    return;
  }
  printf("handle_by = \"%s\"\n", how);
  r = nvmlDeviceGetIndex(d, &u);
  nv_uint("index", r, u);
  r = nvmlDeviceGetName(d, buf, sizeof buf);
  nv_str("name", r, buf, sizeof buf);
  r = nvmlDeviceGetUUID(d, buf, sizeof buf);
  nv_str("uuid", r, buf, sizeof buf);

  nvmlPciInfo_t pci;
  memset(&pci, 0, sizeof pci);
  r = nvmlDeviceGetPciInfo_v3(d, &pci);
  if (r == NVML_SUCCESS) {
    put_str("pci_bus_id", pci.busId, sizeof pci.busId);
    printf("pci_domain = %u\npci_bus = %u\npci_device = %u\n", pci.domain, pci.bus, pci.device);
    printf("pci_device_id = 0x%08x\npci_subsystem_id = 0x%08x\n", pci.pciDeviceId,
           pci.pciSubSystemId);
  } else {
    nv_fail("pci_info", r);
  }

  nvmlMemory_t mem;
  memset(&mem, 0, sizeof mem);
  r = nvmlDeviceGetMemoryInfo(d, &mem);
  if (r == NVML_SUCCESS)
    printf("memory_total = %llu\nmemory_free = %llu\nmemory_used = %llu\n", mem.total, mem.free,
           mem.used);
  else
    nv_fail("memory_info", r);
#ifdef nvmlMemory_v2
  nvmlMemory_v2_t mem2;
  memset(&mem2, 0, sizeof mem2);
  mem2.version = nvmlMemory_v2;
  r = nvmlDeviceGetMemoryInfo_v2(d, &mem2);
  if (r == NVML_SUCCESS)
    printf("memory_v2_total = %llu\nmemory_v2_reserved = %llu\nmemory_v2_free = %llu\n"
           "memory_v2_used = %llu\n",
           mem2.total, mem2.reserved, mem2.free, mem2.used);
  else
    nv_fail("memory_info_v2", r);
#endif
  nvmlBAR1Memory_t bar1;
  memset(&bar1, 0, sizeof bar1);
  r = nvmlDeviceGetBAR1MemoryInfo(d, &bar1);
  if (r == NVML_SUCCESS)
    printf("bar1_total = %llu\nbar1_free = %llu\nbar1_used = %llu\n", bar1.bar1Total,
           bar1.bar1Free, bar1.bar1Used);
  else
    nv_fail("bar1_memory_info", r);

  r = nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &u);
  nv_uint("temperature_gpu_c", r, u);
#ifdef nvmlTemperature_v1
  nvmlTemperature_t t;
  memset(&t, 0, sizeof t);
  t.version = nvmlTemperature_v1;
  t.sensorType = NVML_TEMPERATURE_GPU;
  r = nvmlDeviceGetTemperatureV(d, &t);
  nv_int("temperature_v_gpu_c", r, t.temperature);
#endif

  r = nvmlDeviceGetPowerUsage(d, &u);
  nv_uint("power_usage_mw", r, u);
  r = nvmlDeviceGetPowerManagementLimit(d, &u);
  nv_uint("power_limit_mw", r, u);
  r = nvmlDeviceGetPowerManagementDefaultLimit(d, &u);
  nv_uint("power_default_limit_mw", r, u);
  r = nvmlDeviceGetEnforcedPowerLimit(d, &u);
  nv_uint("enforced_power_limit_mw", r, u);

  nvmlUtilization_t util;
  memset(&util, 0, sizeof util);
  r = nvmlDeviceGetUtilizationRates(d, &util);
  if (r == NVML_SUCCESS)
    printf("utilization_gpu = %u\nutilization_memory = %u\n", util.gpu, util.memory);
  else
    nv_fail("utilization", r);

  static const struct {
    nvmlClockType_t type;
    const char *name;
  } clocks[] = {{NVML_CLOCK_GRAPHICS, "graphics"}, {NVML_CLOCK_SM, "sm"}, {NVML_CLOCK_MEM, "mem"}};
  for (size_t k = 0; k < sizeof clocks / sizeof clocks[0]; k++) {
    char key[64];
    snprintf(key, sizeof key, "clock_%s_mhz", clocks[k].name);
    r = nvmlDeviceGetClockInfo(d, clocks[k].type, &u);
    nv_uint(key, r, u);
    snprintf(key, sizeof key, "max_clock_%s_mhz", clocks[k].name);
    r = nvmlDeviceGetMaxClockInfo(d, clocks[k].type, &u);
    nv_uint(key, r, u);
  }

  r = nvmlDeviceGetCudaComputeCapability(d, &i1, &i2);
  if (r == NVML_SUCCESS)
    printf("compute_capability_major = %d\ncompute_capability_minor = %d\n", i1, i2);
  else
    nv_fail("compute_capability", r);

  nvmlEnableState_t e1 = NVML_FEATURE_DISABLED, e2 = NVML_FEATURE_DISABLED;
  r = nvmlDeviceGetPersistenceMode(d, &e1);
  nv_int("persistence_mode", r, e1);
  nvmlPstates_t ps = NVML_PSTATE_UNKNOWN;
  r = nvmlDeviceGetPerformanceState(d, &ps);
  nv_int("performance_state", r, ps);

  nvmlDeviceAttributes_t da;
  memset(&da, 0, sizeof da);
  r = nvmlDeviceGetAttributes_v2(d, &da);
  if (r == NVML_SUCCESS)
    printf("multiprocessor_count = %u\nshared_copy_engine_count = %u\nattributes_memory_size_mb = %llu\n",
           da.multiprocessorCount, da.sharedCopyEngineCount, da.memorySizeMB);
  else
    nv_fail("multiprocessor_count (nvmlDeviceGetAttributes_v2)", r);

  r = nvmlDeviceGetNumGpuCores(d, &u);
  nv_uint("num_gpu_cores", r, u);
  r = nvmlDeviceGetMemoryBusWidth(d, &u);
  nv_uint("memory_bus_width", r, u);
  nvmlDeviceArchitecture_t arch = 0;
  r = nvmlDeviceGetArchitecture(d, &arch);
  nv_uint("architecture", r, arch);
  r = nvmlDeviceGetCurrPcieLinkGeneration(d, &u);
  nv_uint("pcie_link_gen_current", r, u);
  r = nvmlDeviceGetMaxPcieLinkGeneration(d, &u);
  nv_uint("pcie_link_gen_max", r, u);
  r = nvmlDeviceGetCurrPcieLinkWidth(d, &u);
  nv_uint("pcie_link_width_current", r, u);
  r = nvmlDeviceGetMaxPcieLinkWidth(d, &u);
  nv_uint("pcie_link_width_max", r, u);
  nvmlComputeMode_t cm = NVML_COMPUTEMODE_DEFAULT;
  r = nvmlDeviceGetComputeMode(d, &cm);
  nv_int("compute_mode", r, cm);
  r = nvmlDeviceGetEccMode(d, &e1, &e2);
  if (r == NVML_SUCCESS)
    printf("ecc_mode_current = %d\necc_mode_pending = %d\n", (int)e1, (int)e2);
  else
    nv_fail("ecc_mode", r);
  r = nvmlDeviceGetMigMode(d, &u, &u2);
  if (r == NVML_SUCCESS)
    printf("mig_mode_current = %u\nmig_mode_pending = %u\n", u, u2);
  else
    nv_fail("mig_mode", r);
  r = nvmlDeviceGetVbiosVersion(d, buf, sizeof buf);
  nv_str("vbios_version", r, buf, sizeof buf);
  r = nvmlDeviceGetBoardPartNumber(d, buf, sizeof buf);
  nv_str("board_part_number", r, buf, sizeof buf);
}

int main(void) {
  int drv = 0, rt = 0, count = 0;
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) {
    printf("# cuInit failed: error %d %s\n", (int)r, cu_err(r));
    return 1;
  }
  r = cuDriverGetVersion(&drv);
  if (r != CUDA_SUCCESS) printf("# cuDriverGetVersion: error %d %s\n", (int)r, cu_err(r));
  cudaError_t ce = cudaRuntimeGetVersion(&rt);
  if (ce != cudaSuccess) printf("# cudaRuntimeGetVersion: error %d %s\n", (int)ce, cudaGetErrorName(ce));
  r = cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) {
    printf("# cuDeviceGetCount: error %d %s\n", (int)r, cu_err(r));
    return 1;
  }
  if (count == 0) printf("# no CUDA devices\n");
  nvmlReturn_t ninit = nvmlInit_v2();

  for (int i = 0; i < count; i++) {
    if (i) printf("\n# ---- next device ----\n\n");
    printf("# real device %d, driver %d, runtime %d\n", i, drv, rt);
    printf("# built with CUDA_VERSION %d, CUDART_VERSION %d, sizeof(cudaDeviceProp) %zu\n",
           CUDA_VERSION, CUDART_VERSION, sizeof(struct cudaDeviceProp));
    printf("[device]\n");
    CUdevice dev;
    r = cuDeviceGet(&dev, i);
    if (r != CUDA_SUCCESS) {
      printf("# cuDeviceGet(%d): error %d %s\n", i, (int)r, cu_err(r));
      continue;
    }
    char name[256] = {0};
    r = cuDeviceGetName(name, sizeof name - 1, dev);
    if (r == CUDA_SUCCESS)
      put_str("name", name, sizeof name);
    else
      printf("# name: error %d %s\n", (int)r, cu_err(r));
    CUuuid uu;
    memset(&uu, 0, sizeof uu);
    r = cuDeviceGetUuid(&uu, dev);
    if (r == CUDA_SUCCESS) {
      char s[64];
      format_uuid(s, sizeof s, (const unsigned char *)uu.bytes);
      put_str("uuid", s, sizeof s);
    } else {
      printf("# uuid: error %d %s\n", (int)r, cu_err(r));
    }
    char bus[64] = {0};
    ce = cudaDeviceGetPCIBusId(bus, (int)sizeof bus - 1, i);
    if (ce == cudaSuccess)
      put_str("pci_bus_id", bus, sizeof bus);
    else {
      bus[0] = 0;
      printf("# pci_bus_id: error %d %s\n", (int)ce, cudaGetErrorName(ce));
    }
    size_t total = 0;
    r = cuDeviceTotalMem(&total, dev);
    if (r == CUDA_SUCCESS)
      printf("total_memory = %zu\n", total);
    else
      printf("# total_memory: error %d %s\n", (int)r, cu_err(r));
    printf("driver_version = %d\n", drv);
    printf("runtime_version = %d\n", rt);
    printf("\n");

    print_attributes(dev);
    printf("\n");

    printf("[properties]\n");
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    ce = cudaGetDeviceProperties(&p, i);
    if (ce == cudaSuccess)
      print_props(&p);
    else
      printf("# cudaGetDeviceProperties: error %d %s\n", (int)ce, cudaGetErrorName(ce));
    printf("\n");

    print_nvml(ninit, i, bus);
  }
  if (ninit == NVML_SUCCESS) nvmlShutdown();
  fflush(stdout);
  return 0;
}
