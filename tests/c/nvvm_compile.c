/* libNVVM without a GPU, compiled against NVIDIA's nvvm.h of one major and linked either to
 * libstubs_nvvm.so or, for comparison, to NVIDIA's libnvvm.so.4 itself (tests/nvvm.rs). Prints
 * one line per call: libNVVM's own and its IR's version, every code's text (never NULL), a tiny
 * NVVM IR kernel compiled to PTX (its IR version metadata the loaded library's own, so one
 * source serves 11.8's IR 1.9 and 12.x's and 13.x's 2.0) and the PTX's build line, which names
 * the CUDA release that compiled it; then the error paths: IR that does not parse, an unknown
 * option, no program. Then whether the process has libnvvm.so.4 mapped (dlopen RTLD_NOLOAD).
 * With -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). */
#include <dlfcn.h>
#include <nvvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

static int loaded(const char *soname) {
  void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (h) dlclose(h);
  return h != NULL;
}

/* Compiles `ir` with `option`: prints the codes, the log's first line on failure, and on
 * success whether the PTX has an entry and its build line. */
static void compile(const char *what, const char *ir, const char *option) {
  nvvmProgram prog = NULL;
  int rc = (int)nvvmCreateProgram(&prog);
  printf("%s nvvmCreateProgram rc=%d\n", what, rc);
  if (rc != 0) return;
  rc = (int)nvvmAddModuleToProgram(prog, ir, strlen(ir), "kernel");
  printf("%s nvvmAddModuleToProgram rc=%d\n", what, rc);
  const char *options[] = {option};
  rc = (int)nvvmCompileProgram(prog, 1, options);
  printf("%s nvvmCompileProgram rc=%d\n", what, rc);
  size_t size = 0;
  if (rc != 0) {
    if (nvvmGetProgramLogSize(prog, &size) == NVVM_SUCCESS && size > 0) {
      char *log = malloc(size);
      if (log && nvvmGetProgramLog(prog, log) == NVVM_SUCCESS)
        printf("%s log empty=%d\n", what, log[0] == 0);
      free(log);
    }
  } else if (nvvmGetCompiledResultSize(prog, &size) == NVVM_SUCCESS && size > 0) {
    char *ptx = malloc(size);
    if (ptx && nvvmGetCompiledResult(prog, ptx) == NVVM_SUCCESS) {
      printf("%s ptx entry=%d\n", what, strstr(ptx, ".entry kernel") != NULL);
      const char *build = strstr(ptx, "Cuda compilation tools, release ");
      int cuda_major = 0, cuda_minor = 0;
      if (build && sscanf(build, "Cuda compilation tools, release %d.%d", &cuda_major,
                          &cuda_minor) == 2)
        printf("%s ptx built by CUDA %d.%d\n", what, cuda_major, cuda_minor);
    }
    free(ptx);
  }
  rc = (int)nvvmDestroyProgram(&prog);
  printf("%s nvvmDestroyProgram rc=%d null=%d\n", what, rc, prog == NULL);
}

int main(void) {
  int major = -1, minor = -1;
  int rc = (int)nvvmVersion(&major, &minor);
  printf("nvvmVersion rc=%d version=%d.%d\n", rc, major, minor);
  int ir_major = -1, ir_minor = -1, dbg_major = -1, dbg_minor = -1;
  rc = (int)nvvmIRVersion(&ir_major, &ir_minor, &dbg_major, &dbg_minor);
  printf("nvvmIRVersion rc=%d ir=%d.%d debug=%d.%d\n", rc, ir_major, ir_minor, dbg_major,
         dbg_minor);

  for (int code = 0; code <= 9; code++)
    printf("nvvmGetErrorString(%d) = %s\n", code, text(nvvmGetErrorString((nvvmResult)code)));
  /* Codes no enumerator of every header has (10: 13.x's NVVM_ERROR_CANCELLED): only never
   * NULL, the words are each build's. */
  int null_texts = 0;
  for (int code = 10; code <= 12; code++) null_texts += nvvmGetErrorString((nvvmResult)code) == NULL;
  null_texts += nvvmGetErrorString((nvvmResult)-1) == NULL;
  printf("nvvmGetErrorString null texts=%d\n", null_texts);

  char ir[1024];
  snprintf(ir, sizeof ir,
           /* The layout every release takes (11.8 refuses 12.x's shorter one). */
           "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
           "i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-"
           "n16:32:64\"\n"
           "target triple = \"nvptx64-nvidia-cuda\"\n"
           "define void @kernel() {\n"
           "entry:\n"
           "  ret void\n"
           "}\n"
           "!nvvm.annotations = !{!0}\n"
           "!0 = !{void ()* @kernel, !\"kernel\", i32 1}\n"
           "!nvvmir.version = !{!1}\n"
           "!1 = !{i32 %d, i32 %d, i32 %d, i32 %d}\n",
           ir_major, ir_minor, dbg_major, dbg_minor);
  compile("kernel", ir, "-arch=compute_75");
  compile("bad-ir", "this is not LLVM IR", "-arch=compute_75");
  compile("bad-option", ir, "-no-such-option");

  rc = (int)nvvmAddModuleToProgram(NULL, ir, strlen(ir), "kernel");
  printf("nvvmAddModuleToProgram(no program) rc=%d\n", rc);
  size_t size = 0;
  rc = (int)nvvmGetCompiledResultSize(NULL, &size);
  printf("nvvmGetCompiledResultSize(no program) rc=%d\n", rc);

  printf("mapped libnvvm.so.4=%d\n", loaded("libnvvm.so.4"));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvvm_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
