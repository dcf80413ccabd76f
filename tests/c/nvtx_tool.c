/* A tool for NVTX 2, of our own: the library NVIDIA's libnvToolsExt.so.1 loads from
 * NVTX_INJECTION64_PATH at its first call, as it loads Nsight Systems' (tests/nvtx.rs). Through
 * NVTX's export table (nvtx3/nvtxDetail/nvtxTypes.h: NVTX_ETID_CALLBACKS, the core module's
 * function table) it takes the core calls and prints each one with what it was given; pushes
 * and pops answer the nesting level, ranges an id counting from 100, which NVIDIA's library
 * passes back to the program. So a program's output says that its calls reached NVIDIA's library
 * and through it the tool, with the arguments it passed. */
/* NVTX 3's header-only implementation, which this file never calls, needs PATH_MAX. */
#define _GNU_SOURCE
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

static int depth;
static nvtxRangeId_t next_id = 100;

static void mark_a(const char *message) { printf("tool mark %s\n", message); }

static int push_a(const char *message) {
  printf("tool push %s\n", message);
  return depth++;
}

static int push_ex(const nvtxEventAttributes_t *attributes) {
  printf("tool push %s\n", attributes->message.ascii);
  return depth++;
}

static int pop(void) { return --depth; }

static nvtxRangeId_t start_a(const char *message) {
  printf("tool start %s\n", message);
  return next_id++;
}

static void end(nvtxRangeId_t id) { printf("tool end %llu\n", (unsigned long long)id); }

static void name_os_thread_a(uint32_t thread, const char *name) {
  printf("tool name thread %u %s\n", thread, name);
}

/* Replaces the core module's entries this tool implements. */
static int take(NvtxGetExportTableFunc_t get_export_table) {
  const NvtxExportTableCallbacks *callbacks =
      (const NvtxExportTableCallbacks *)get_export_table(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable table = 0;
  unsigned int size = 0;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) ||
      size < NVTX_CBID_CORE_NameOsThreadA + 1)
    return 0;
  *table[NVTX_CBID_CORE_MarkA] = (NvtxFunctionPointer)mark_a;
  *table[NVTX_CBID_CORE_RangePushA] = (NvtxFunctionPointer)push_a;
  *table[NVTX_CBID_CORE_RangePushEx] = (NvtxFunctionPointer)push_ex;
  *table[NVTX_CBID_CORE_RangePop] = (NvtxFunctionPointer)pop;
  *table[NVTX_CBID_CORE_RangeStartA] = (NvtxFunctionPointer)start_a;
  *table[NVTX_CBID_CORE_RangeEnd] = (NvtxFunctionPointer)end;
  *table[NVTX_CBID_CORE_NameOsThreadA] = (NvtxFunctionPointer)name_os_thread_a;
  return 1;
}

/* NVTX's injection entry point (NvtxInitializeInjectionNvtxFunc_t): nonzero for success. */
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("tool attached\n");
  return take(get_export_table);
}
