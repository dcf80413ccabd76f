/* The plain program of tests/gpu/compat.sh: runs libgpu12.so's GPU checks (tests/gpu/abi_versions.c
 * built against CUDA 12.9's headers, linked against NVIDIA's libcudart.so.12), then prints every
 * mapped file whose name holds "libcudart" (`mapped <path>`, from /proc/self/maps); exits
 * non-zero on a FAIL. */
#include <stdio.h>
#include <string.h>

int run_cuda12(void);

int main(void) {
  int failed = run_cuda12();
  printf("%s\n", failed ? "FAILED" : "ALL PASS");
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
    char *path = strchr(line, '/');
    if (path == NULL || strstr(path, "libcudart") == NULL || strcmp(path, last) == 0) continue;
    strcpy(last, path);
    printf("mapped %s", path);
  }
  if (maps != NULL) fclose(maps);
  return failed != 0;
}
