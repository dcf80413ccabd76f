/* cuDNN without a GPU, compiled against NVIDIA's cudnn.h of one major and linked either to
 * libstubs_cudnn.so or, for comparison, to NVIDIA's libcudnn.so.9 itself (tests/cudnn.rs).
 * Prints one line per call: the versions (cuDNN's own, the runtime it was built with, the
 * newest GPU it knows), every error string, the last error's buffer contract (size 0, size 1,
 * NULL), the property queries, the graph sub-library's
 * version check, what the calls needing CUDA answer without a driver (cudnnCreate) with the last
 * error's text after it, a backend descriptor made and destroyed (no GPU needed), and a NULL
 * handle refused. With a header of cuDNN 9.23 or later, also cudnnGetExecutionPlanWorkspaceSize,
 * which 9.10.2 lacks: what an older cuDNN does with a newer program. With the argument `ops`,
 * also a function of libcudnn_ops.so.9 (9.10.2 aborts when that sub-library is missing, as the
 * tests' layout has it: only the front library and libcudnn_graph.so.9). With -DWITH_STATUS
 * (the stub build), also what the stubs say (cuda_stubs.h) and, with the argument `runtime`,
 * the runtime's version asked after every cuDNN call. */
#include <cudnn.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static const char *text(const char *s) { return s ? s : "(null)"; }

static int has_arg(int argc, char **argv, const char *arg) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], arg) == 0) return 1;
  return 0;
}

/* The last error's message, as a program reads it: into a zeroed buffer. */
static void last_error(const char *when) {
  char message[1024];
  memset(message, 0, sizeof message);
  cudnnGetLastErrorString(message, sizeof message);
  printf("cudnnGetLastErrorString %s = [%s]\n", when, message);
}

int main(int argc, char **argv) {
  printf("cudnnGetVersion = %zu\n", cudnnGetVersion());
  printf("cudnnGetCudartVersion = %zu\n", cudnnGetCudartVersion());
  printf("cudnnGetMaxDeviceVersion = %zu\n", cudnnGetMaxDeviceVersion());

  static const int codes[] = {0,    1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 2000,
                              2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010,
                              2011, 2012, 3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007,
                              3008, 3009, 3010, 3011, 3012, 3013, 3014, 4000, 4001, 4002,
                              4003, 4004, 4005, 4006, 5000, 5001, 5002, 5003, 5004, 7};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    printf("cudnnGetErrorString(%d) = %s\n", codes[i],
           text(cudnnGetErrorString((cudnnStatus_t)codes[i])));
  last_error("before");
  /* The buffer's contract: nothing written for size 0, only the NUL for size 1, nothing
   * through NULL. */
  char small[4] = "xyz";
  cudnnGetLastErrorString(small, 0);
  printf("cudnnGetLastErrorString size 0 = [%s]\n", small);
  cudnnGetLastErrorString(small, 1);
  printf("cudnnGetLastErrorString size 1 = [%s]\n", small);
  cudnnGetLastErrorString(NULL, 16);
  printf("cudnnGetLastErrorString NULL returned\n");

  static const libraryPropertyType properties[] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int i = 0; i < 3; i++) {
    int value = -1;
    int rc = (int)cudnnGetProperty(properties[i], &value);
    printf("cudnnGetProperty(%d) rc=%d value=%d\n", (int)properties[i], rc, value);
  }
  printf("cudnnGraphVersionCheck rc=%d\n", (int)cudnnGraphVersionCheck());

  cudnnHandle_t handle = NULL;
  int rc = (int)cudnnCreate(&handle);
  printf("cudnnCreate rc=%d handle=%s\n", rc, handle ? "set" : "NULL");
  last_error("after cudnnCreate");
  last_error("again");
  printf("cudnnDestroy(NULL) rc=%d\n", (int)cudnnDestroy(NULL));

  cudnnBackendDescriptor_t descriptor = NULL;
  rc = (int)cudnnBackendCreateDescriptor(CUDNN_BACKEND_TENSOR_DESCRIPTOR, &descriptor);
  printf("cudnnBackendCreateDescriptor rc=%d descriptor=%s\n", rc, descriptor ? "set" : "NULL");
  if (descriptor)
    printf("cudnnBackendDestroyDescriptor rc=%d\n", (int)cudnnBackendDestroyDescriptor(descriptor));

#if CUDNN_VERSION >= 92300
  size_t workspace = 0;
  rc = (int)cudnnGetExecutionPlanWorkspaceSize(NULL, NULL, NULL, &workspace);
  printf("cudnnGetExecutionPlanWorkspaceSize (header %d) rc=%d\n", CUDNN_VERSION, rc);
#endif

  if (has_arg(argc, argv, "ops")) {
    cudnnTensorDescriptor_t tensor = NULL;
    rc = (int)cudnnCreateTensorDescriptor(&tensor);
    printf("cudnnCreateTensorDescriptor rc=%d\n", rc);
    if (tensor) cudnnDestroyTensorDescriptor(tensor);
  }

#ifdef WITH_STATUS
  /* The runtime's first call after cuDNN's: its stub reads the release of the cuDNN the
   * process has mapped. */
  if (has_arg(argc, argv, "runtime")) {
    int runtime = -1;
    rc = (int)cudaRuntimeGetVersion(&runtime);
    printf("cudaRuntimeGetVersion rc=%d version=%d\n", rc, runtime);
  }
  cuda_stubs_status s;
  if (cuda_stubs_cudnn_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
