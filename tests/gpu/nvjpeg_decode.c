/* GPU proof of the nvJPEG stub (tests/gpu/nvjpeg.sh): a 256x128 baseline JPEG of flat colour
 * blocks (tests/c/tiny_jpeg.h) decoded to planar RGB (nvjpegDecode, NVJPEG_OUTPUT_RGB) on the
 * GPU, twice: with a handle of nvJPEG's own allocators (nvjpegCreateSimple) and with one of the
 * program's (nvjpegCreateEx: cudaMalloc / cudaFree and cudaMallocHost / cudaFreeHost; how often
 * nvJPEG calls them is printed). Each result is checked on the host against the JFIF conversion
 * of the blocks' levels, and hashed (FNV-1a over the three planes). Built against the machine's CUDA
 * headers, linked either to the stubs (libstubs_nvjpeg, libstubs_cudart) or normally (libnvjpeg,
 * libcudart). Prints PASS/FAIL lines; exits non-zero on any failure. */
#include <cuda_runtime_api.h>
#include <nvjpeg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../c/tiny_jpeg.h"

#define WIDTH 256
#define HEIGHT 128

#define CHECK(what, call)                                                                  \
  do {                                                                                     \
    int rc_ = (int)(call);                                                                 \
    if (rc_ != 0) {                                                                        \
      printf("FAIL %s rc=%d\n", what, rc_);                                                \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static int device_calls, pinned_calls;

static int dev_malloc(void **p, size_t n) {
  device_calls++;
  return (int)cudaMalloc(p, n);
}
static int dev_free(void *p) {
  device_calls++;
  return (int)cudaFree(p);
}
static int pinned_malloc(void **p, size_t n, unsigned int flags) {
  pinned_calls++;
  return (int)cudaHostAlloc(p, n, flags);
}
static int pinned_free(void *p) {
  pinned_calls++;
  return (int)cudaFreeHost(p);
}

static int clamp(double v) {
  int i = (int)(v + 0.5);
  return i < 0 ? 0 : i > 255 ? 255 : i;
}

/* Decodes `jpeg` with `handle` to RGB and checks the pixels; 0 on success. */
static int decode(const char *name, nvjpegHandle_t handle, const uint8_t *jpeg, size_t size) {
  nvjpegJpegState_t state = NULL;
  CHECK("nvjpegJpegStateCreate", nvjpegJpegStateCreate(handle, &state));
  int components = 0, widths[NVJPEG_MAX_COMPONENT], heights[NVJPEG_MAX_COMPONENT];
  nvjpegChromaSubsampling_t subsampling;
  CHECK("nvjpegGetImageInfo",
        nvjpegGetImageInfo(handle, jpeg, size, &components, &subsampling, widths, heights));
  printf("%s: nvjpegGetImageInfo components=%d subsampling=%d size=%dx%d\n", name, components,
         (int)subsampling, widths[0], heights[0]);
  nvjpegImage_t image = {{0}, {0}};
  for (int c = 0; c < 3; c++) {
    CHECK("cudaMalloc", cudaMalloc((void **)&image.channel[c], WIDTH * HEIGHT));
    image.pitch[c] = WIDTH;
  }
  CHECK("nvjpegDecode", nvjpegDecode(handle, state, jpeg, size, NVJPEG_OUTPUT_RGB, &image, 0));
  CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
  static uint8_t planes[3][WIDTH * HEIGHT];
  uint64_t hash = 1469598103934665603ULL;
  for (int c = 0; c < 3; c++) {
    CHECK("cudaMemcpy", cudaMemcpy(planes[c], image.channel[c], WIDTH * HEIGHT,
                                   cudaMemcpyDeviceToHost));
    for (int i = 0; i < WIDTH * HEIGHT; i++) hash = (hash ^ planes[c][i]) * 1099511628211ULL;
    cudaFree(image.channel[c]);
  }
  int worst = 0;
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) {
      int l[3];
      tiny_jpeg_block(x / 8, y / 8, l);
      int want[3] = {clamp(l[0] + 1.402 * (l[2] - 128)),
                     clamp(l[0] - 0.344136 * (l[1] - 128) - 0.714136 * (l[2] - 128)),
                     clamp(l[0] + 1.772 * (l[1] - 128))};
      for (int c = 0; c < 3; c++) {
        int d = abs((int)planes[c][y * WIDTH + x] - want[c]);
        if (d > worst) worst = d;
      }
    }
  nvjpegJpegStateDestroy(state);
  printf("%s %s: RGB %dx%d, largest difference from the JFIF colours %d, fnv1a %016llx\n",
         worst <= 3 ? "PASS" : "FAIL", name, WIDTH, HEIGHT, worst, (unsigned long long)hash);
  return worst > 3;
}

int main(void) {
  int major = -1, minor = -1, patch = -1, runtime = 0;
  CHECK("nvjpegGetProperty", nvjpegGetProperty(MAJOR_VERSION, &major));
  CHECK("nvjpegGetProperty", nvjpegGetProperty(MINOR_VERSION, &minor));
  CHECK("nvjpegGetProperty", nvjpegGetProperty(PATCH_LEVEL, &patch));
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  printf("nvJPEG %d.%d.%d, runtime %d\n", major, minor, patch, runtime);
  static uint8_t jpeg[1 << 16];
  size_t size = tiny_jpeg(jpeg, sizeof jpeg, WIDTH, HEIGHT);
  if (size > sizeof jpeg) return 1;
  printf("JPEG %zu bytes\n", size);

  nvjpegHandle_t simple = NULL;
  CHECK("nvjpegCreateSimple", nvjpegCreateSimple(&simple));
  int failed = decode("nvjpegCreateSimple", simple, jpeg, size);
  CHECK("nvjpegDestroy", nvjpegDestroy(simple));

  nvjpegDevAllocator_t dev = {dev_malloc, dev_free};
  nvjpegPinnedAllocator_t pinned = {pinned_malloc, pinned_free};
  nvjpegHandle_t own = NULL;
  CHECK("nvjpegCreateEx", nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, &dev, &pinned,
                                         NVJPEG_FLAGS_DEFAULT, &own));
  failed |= decode("nvjpegCreateEx (program's allocators)", own, jpeg, size);
  CHECK("nvjpegDestroy", nvjpegDestroy(own));
  /* Whether nvJPEG calls the program's allocators is its own choice (13.0's default backend
   * allocated none of its buffers through them on an H200 for this image, linked normally too):
   * the counts are a result line, which the two builds must print alike. */
  printf("program's allocators called by nvJPEG: %d device, %d pinned\n", device_calls,
         pinned_calls);
  return failed;
}
