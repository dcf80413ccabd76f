/* libNVVM on Windows (tests/windows/win_math.c runs it as the command `nvvm`): `nvvm64_40_0.dll`,
 * one name in every major. Compiles without a device: its own and its IR's version, a tiny NVVM
 * IR kernel compiled to PTX (its IR version metadata the loaded DLL's own, as
 * tests/c/nvvm_compile.c does on Linux), and the release the PTX's build line names, printed as
 * the library's version; then an error path and a code's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvvm.h>

void cmd_nvvm(void) {
  int major = -1, minor = -1;
  printf("nvvmVersion rc=%d version=%d.%d\n", (int)nvvmVersion(&major, &minor), major, minor);
  int ir_major = -1, ir_minor = -1, dbg_major = -1, dbg_minor = -1;
  int rc = (int)nvvmIRVersion(&ir_major, &ir_minor, &dbg_major, &dbg_minor);
  printf("nvvmIRVersion rc=%d ir=%d.%d\n", rc, ir_major, ir_minor);
  char ir[1024];
  snprintf(ir, sizeof ir,
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
  nvvmProgram prog = NULL;
  printf("nvvmCreateProgram rc=%d\n", (int)nvvmCreateProgram(&prog));
  printf("nvvmAddModuleToProgram rc=%d\n",
         (int)nvvmAddModuleToProgram(prog, ir, strlen(ir), "kernel"));
  const char *options[] = {"-arch=compute_75"};
  rc = (int)nvvmCompileProgram(prog, 1, options);
  printf("nvvmCompileProgram rc=%d\n", rc);
  size_t size = 0;
  if (rc == 0 && nvvmGetCompiledResultSize(prog, &size) == NVVM_SUCCESS && size > 0) {
    char *ptx = malloc(size);
    if (ptx && nvvmGetCompiledResult(prog, ptx) == NVVM_SUCCESS) {
      printf("ptx entry=%d\n", strstr(ptx, ".entry kernel") != NULL);
      const char *build = strstr(ptx, "Cuda compilation tools, release ");
      int cuda_major = 0, cuda_minor = 0;
      if (build && sscanf(build, "Cuda compilation tools, release %d.%d", &cuda_major,
                          &cuda_minor) == 2)
        printf("version nvvm %d.%d\n", cuda_major, cuda_minor);
    }
    free(ptx);
  }
  printf("nvvmDestroyProgram rc=%d\n", (int)nvvmDestroyProgram(&prog));
  printf("nvvmAddModuleToProgram(no program) rc=%d\n",
         (int)nvvmAddModuleToProgram(NULL, ir, strlen(ir), "kernel"));
  const char *text = nvvmGetErrorString(NVVM_ERROR_INVALID_INPUT);
  printf("text nvvmGetErrorString %s\n", text ? text : "(null)");
}
