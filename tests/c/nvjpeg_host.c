/* nvJPEG, compiled against NVIDIA's nvjpeg.h of one major and linked either to
 * libstubs_nvjpeg.so or, for comparison, to NVIDIA's libnvjpeg.so.<major> itself
 * (tests/nvjpeg.rs). Prints one line per call: nvJPEG's own version and its runtime's, handle
 * creation (simple, with the program's allocators, with V2 allocators: nvJPEG's own answer
 * without a GPU), nvjpegGetImageInfo of a tiny JPEG (tests/c/tiny_jpeg.h) on the handle (or,
 * where none could be made, on NULL), what a handle-less call answers, and with a header of
 * 12.x or later nvjpegJpegStreamGetSamplePrecision (not in 11.x), with 11.x's or 12.x's
 * nvjpegEncoderParamsCopyHuffmanTables (not in 13.x). The allocators count their calls: nvJPEG
 * calls the program's functions itself, the stub passes the structs on untouched. With
 * -DWITH_STATUS (the stub build), also what the stubs say (cuda_stubs.h). */
#include <nvjpeg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tiny_jpeg.h"

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

static int allocator_calls;

static int dev_malloc(void **p, size_t n) {
  allocator_calls++;
  *p = malloc(n);
  return *p ? 0 : 1;
}
static int dev_free(void *p) {
  allocator_calls++;
  free(p);
  return 0;
}
static int pinned_malloc(void **p, size_t n, unsigned int flags) {
  (void)flags;
  allocator_calls++;
  *p = malloc(n);
  return *p ? 0 : 1;
}
static int pinned_free(void *p) {
  allocator_calls++;
  free(p);
  return 0;
}
static int dev_malloc_v2(void *ctx, void **p, size_t n, cudaStream_t s) {
  (void)s;
  (*(int *)ctx)++;
  *p = malloc(n);
  return *p ? 0 : 1;
}
static int dev_free_v2(void *ctx, void *p, size_t n, cudaStream_t s) {
  (void)n, (void)s;
  (*(int *)ctx)++;
  free(p);
  return 0;
}

int main(void) {
  const char *names[] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int i = 0; i < 3; i++) {
    int value = -1;
    int rc = (int)nvjpegGetProperty((libraryPropertyType)i, &value);
    printf("nvjpegGetProperty(%s) rc=%d value=%d\n", names[i], rc, value);
    value = -1;
    rc = (int)nvjpegGetCudartProperty((libraryPropertyType)i, &value);
    printf("nvjpegGetCudartProperty(%s) rc=%d value=%d\n", names[i], rc, value);
  }

  nvjpegHandle_t handle = NULL;
  int rc = (int)nvjpegCreateSimple(&handle);
  printf("nvjpegCreateSimple rc=%d\n", rc);
  if (rc == 0) nvjpegDestroy(handle);

  nvjpegDevAllocator_t dev = {dev_malloc, dev_free};
  nvjpegPinnedAllocator_t pinned = {pinned_malloc, pinned_free};
  handle = NULL;
  rc = (int)nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, &dev, &pinned, NVJPEG_FLAGS_DEFAULT, &handle);
  printf("nvjpegCreateEx rc=%d\n", rc);

  int v2_calls = 0;
  nvjpegDevAllocatorV2_t dev_v2 = {dev_malloc_v2, dev_free_v2, &v2_calls};
  nvjpegPinnedAllocatorV2_t pinned_v2 = {dev_malloc_v2, dev_free_v2, &v2_calls};
  nvjpegHandle_t handle_v2 = NULL;
  rc = (int)nvjpegCreateExV2(NVJPEG_BACKEND_DEFAULT, &dev_v2, &pinned_v2, NVJPEG_FLAGS_DEFAULT,
                             &handle_v2);
  printf("nvjpegCreateExV2 rc=%d\n", rc);
  if (rc == 0) nvjpegDestroy(handle_v2);

  static uint8_t jpeg[4096];
  size_t size = tiny_jpeg(jpeg, sizeof jpeg, 48, 32);
  int components = 0, widths[NVJPEG_MAX_COMPONENT] = {0}, heights[NVJPEG_MAX_COMPONENT] = {0};
  nvjpegChromaSubsampling_t subsampling = NVJPEG_CSS_UNKNOWN;
  rc = (int)nvjpegGetImageInfo(handle, jpeg, size, &components, &subsampling, widths, heights);
  printf("nvjpegGetImageInfo(%s) rc=%d components=%d subsampling=%d size=%dx%d\n",
         handle ? "handle" : "NULL", rc, components, (int)subsampling, widths[0], heights[0]);
  nvjpegJpegStream_t stream = NULL;
  rc = (int)nvjpegJpegStreamCreate(handle, &stream);
  printf("nvjpegJpegStreamCreate rc=%d\n", rc);
  if (rc == 0) nvjpegJpegStreamDestroy(stream);
  size_t padding = 0;
  printf("nvjpegGetDeviceMemoryPadding(NULL) rc=%d\n",
         (int)nvjpegGetDeviceMemoryPadding(&padding, NULL));
#if NVJPEG_VER_MAJOR >= 12
  unsigned int precision = 0;
  printf("nvjpegJpegStreamGetSamplePrecision (header %d) rc=%d\n", NVJPEG_VER_MAJOR,
         (int)nvjpegJpegStreamGetSamplePrecision(NULL, &precision));
#endif
#if NVJPEG_VER_MAJOR <= 12
  printf("nvjpegEncoderParamsCopyHuffmanTables (header %d) rc=%d\n", NVJPEG_VER_MAJOR,
         (int)nvjpegEncoderParamsCopyHuffmanTables(NULL, NULL, NULL, NULL));
#endif
  if (handle) printf("nvjpegDestroy rc=%d\n", (int)nvjpegDestroy(handle));
  printf("nvjpeg allocator calls: %s\n", allocator_calls + v2_calls ? "some" : "none");

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvjpeg_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
