/* What the compatibility libraries answer for names their stub does not export (a stub older
 * than the compatibility files beside it; tests/compat.rs, issue 38): argv[1] is a
 * compatibility libcudart.so.12, argv[2] a compatibility libnvrtc.so.12, each opened by path
 * beside a stand-in stub that exports next to nothing. Each refusal answers in its function's
 * own return type: NULL for a pointer, a text for an error-text function, all zero for a struct
 * returned by value, the runtime's last error for what says nothing itself. No CUDA headers:
 * these prototypes are the same in every CUDA version. */
#include <dlfcn.h>
#include <stdio.h>

/* cudaChannelFormatDesc: four ints and an int-sized enum, returned by value in memory. */
struct channel_desc {
  int x, y, z, w, f;
};

static void *need(void *library, const char *name) {
  void *f = dlsym(library, name);
  if (!f) {
    printf("missing %s\n", name);
  }
  return f;
}

/* A text as the caller sees it: "(NULL)" for NULL. */
static const char *shown(const char *text) { return text ? text : "(NULL)"; }

int main(int argc, char **argv) {
  if (argc != 3) {
    return 2;
  }
  void *runtime = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  void *nvrtc = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (!runtime || !nvrtc) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int (*get_last_error)(void) = (int (*)(void))need(runtime, "cudaGetLastError");
  int (*peek_at_last_error)(void) = (int (*)(void))need(runtime, "cudaPeekAtLastError");
  void **(*register_fat_binary)(void *) =
      (void **(*)(void *))need(runtime, "__cudaRegisterFatBinary");
  struct channel_desc (*create_channel_desc)(int, int, int, int, int) =
      (struct channel_desc(*)(int, int, int, int, int))need(runtime, "cudaCreateChannelDesc");
  const char *(*get_error_string)(int) = (const char *(*)(int))need(runtime, "cudaGetErrorString");
  const char *(*get_error_name)(int) = (const char *(*)(int))need(runtime, "cudaGetErrorName");
  const char *(*nvrtc_error_string)(int) = (const char *(*)(int))need(nvrtc, "nvrtcGetErrorString");
  if (!get_last_error || !peek_at_last_error || !register_fat_binary || !create_channel_desc ||
      !get_error_string || !get_error_name || !nvrtc_error_string) {
    return 1;
  }
  printf("last_error.before=%d\n", get_last_error());
  void **handle = register_fat_binary(NULL);
  printf("__cudaRegisterFatBinary=%s\n", handle ? "non-NULL" : "NULL");
  printf("last_error.peek=%d\n", peek_at_last_error());
  printf("last_error.take=%d\n", get_last_error());
  printf("last_error.after=%d\n", get_last_error());
  struct channel_desc desc = {7, 7, 7, 7, 7};
  desc = create_channel_desc(1, 2, 3, 4, 0);
  printf("cudaCreateChannelDesc=%d,%d,%d,%d,%d\n", desc.x, desc.y, desc.z, desc.w, desc.f);
  printf("last_error.desc=%d\n", get_last_error());
  printf("cudaGetErrorString=%s\n", shown(get_error_string(2)));
  printf("cudaGetErrorName=%s\n", shown(get_error_name(2)));
  printf("nvrtcGetErrorString=%s\n", shown(nvrtc_error_string(5)));
  /* An error text is an answer, never a refused call. */
  printf("last_error.texts=%d\n", get_last_error());
  return 0;
}
