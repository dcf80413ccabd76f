// Texture and surface objects on the mock device's kernel executor (issues 47, 48), as
// simpleTexture and simpleSurfaceWrite use them: each case fetches on the device, checks on the
// host against the CUDA C++ Programming Guide's "Texture Fetching" formulas (linear filtering's
// weights in 9-bit fixed point, 8 fraction bits) and prints `<case> ok` or `<case> FAILED ...`,
// then its values (`v` lines, as %a) so that a board's run and the mock's can be compared line
// by line (tests/gpu/mock_textures.sh). tests/tests/mock_textures.rs builds it with nvcc 13.5
// (PTX only) and runs each case under the mock.
//   mock_textures CASE   CASE: nearest | linear | normalized_uchar | surface
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define OK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      printf("FAILED %s: %d (%s) at line %d\n", #call, (int)e_,                    \
             cudaGetErrorName(e_), __LINE__);                                      \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

// 8 x 4 floats: texel (x, y) = 7x + 3y + 1 (below 64: linear results are exact in a float).
static const int W = 8, H = 4;
static float texel(int x, int y) { return (float)(7 * x + 3 * y + 1); }

__global__ void fetch2d(cudaTextureObject_t t, const float2 *at, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void fetch2d4(cudaTextureObject_t t, const float2 *at, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

// An array of W x H floats and a texture object over it.
static int make_texture(cudaArray_t *a, cudaTextureObject_t *t, cudaTextureFilterMode filter,
                        cudaTextureAddressMode mode, int normalized) {
  std::vector<float> h(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) h[y * W + x] = texel(x, y);
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  OK(cudaMallocArray(a, &f, W, H));
  OK(cudaMemcpy2DToArray(*a, 0, 0, h.data(), W * sizeof(float), W * sizeof(float), H,
                         cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = *a;
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = mode;
  d.filterMode = filter;
  d.readMode = cudaReadModeElementType;
  d.normalizedCoords = normalized;
  OK(cudaCreateTextureObject(t, &r, &d, nullptr));
  return 0;
}

// Runs fetch2d at `at`; the values in `out`.
static int run(cudaTextureObject_t t, const std::vector<float2> &at, std::vector<float> &out) {
  int n = (int)at.size();
  float2 *dat;
  float *dout;
  OK(cudaMalloc(&dat, n * sizeof(float2)));
  OK(cudaMalloc(&dout, n * sizeof(float)));
  OK(cudaMemcpy(dat, at.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  fetch2d<<<1, 64>>>(t, dat, dout, n);
  OK(cudaGetLastError());
  out.resize(n);
  OK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  OK(cudaFree(dat));
  OK(cudaFree(dout));
  return 0;
}

static void values(const std::vector<float> &v) {
  printf("v");
  for (float x : v) printf(" %a", x);
  printf("\n");
}

static int clampi(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
static int wrapi(int i, int n) { return ((i % n) + n) % n; }

// --- nearest: unnormalized coordinates, clamp: T[floor(x), floor(y)], clamped.
static int case_nearest() {
  cudaArray_t a;
  cudaTextureObject_t t;
  if (make_texture(&a, &t, cudaFilterModePoint, cudaAddressModeClamp, 0)) return 1;
  std::vector<float2> at = {{0.5f, 0.5f}, {7.99f, 3.2f}, {-5.f, 1.5f}, {100.f, 100.f},
                            {1.f, 1.f},   {2.999f, 0.f}, {4.5f, -0.01f}};
  std::vector<float> out;
  if (run(t, at, out)) return 1;
  int wrong = 0;
  for (size_t i = 0; i < at.size(); i++) {
    float want = texel(clampi((int)floorf(at[i].x), W), clampi((int)floorf(at[i].y), H));
    if (out[i] != want) {
      if (!wrong++) printf("nearest FAILED at (%g, %g): %g, want %g\n", at[i].x, at[i].y, out[i], want);
    }
  }
  if (!wrong) printf("nearest ok\n");
  values(out);
  return wrong != 0;
}

// --- linear: normalized coordinates, wrap; weights frac(x - 0.5) rounded to 1/256.
static int case_linear() {
  cudaArray_t a;
  cudaTextureObject_t t;
  if (make_texture(&a, &t, cudaFilterModeLinear, cudaAddressModeWrap, 1)) return 1;
  std::vector<float2> at = {{0.3f, 0.6f},  {-0.1f, 0.45f},   {1.3f, 0.77f}, {0.f, 0.f},
                            {0.9999f, 0.01f}, {0.126f, 0.374f}, {0.55f, 0.2f}, {0.0117f, 0.9f}};
  std::vector<float> out;
  if (run(t, at, out)) return 1;
  int wrong = 0;
  for (size_t k = 0; k < at.size(); k++) {
    double x = (double)at[k].x * W - 0.5, y = (double)at[k].y * H - 0.5;
    int i = (int)floor(x), j = (int)floor(y);
    double a8 = round((x - floor(x)) * 256.0) / 256.0, b8 = round((y - floor(y)) * 256.0) / 256.0;
    auto T = [&](int di, int dj) { return (double)texel(wrapi(i + di, W), wrapi(j + dj, H)); };
    double want = (1 - a8) * (1 - b8) * T(0, 0) + a8 * (1 - b8) * T(1, 0) +
                  (1 - a8) * b8 * T(0, 1) + a8 * b8 * T(1, 1);
    if (out[k] != (float)want) {
      if (!wrong++)
        printf("linear FAILED at (%g, %g): %a, want %a\n", at[k].x, at[k].y, out[k], (float)want);
    }
  }
  if (!wrong) printf("linear ok\n");
  values(out);
  return wrong != 0;
}

// --- normalized_uchar: a uchar4 array read as normalized floats (v / 255), point sampling.
static int case_normalized_uchar() {
  const int w = 4, h = 2;
  std::vector<uchar4> px(w * h);
  for (int i = 0; i < w * h; i++)
    px[i] = make_uchar4((unsigned char)(i * 37), (unsigned char)(255 - i), (unsigned char)(i * 3),
                        (unsigned char)(128 + i));
  cudaChannelFormatDesc f = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  OK(cudaMallocArray(&a, &f, w, h));
  OK(cudaMemcpy2DToArray(a, 0, 0, px.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.filterMode = cudaFilterModePoint;
  d.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t;
  OK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  std::vector<float2> at;
  for (int i = 0; i < w * h; i++) at.push_back(make_float2(i % w + 0.5f, i / w + 0.5f));
  float2 *dat;
  float4 *dout;
  OK(cudaMalloc(&dat, at.size() * sizeof(float2)));
  OK(cudaMalloc(&dout, at.size() * sizeof(float4)));
  OK(cudaMemcpy(dat, at.data(), at.size() * sizeof(float2), cudaMemcpyHostToDevice));
  fetch2d4<<<1, 32>>>(t, dat, dout, (int)at.size());
  OK(cudaGetLastError());
  std::vector<float4> out(at.size());
  OK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  int wrong = 0;
  std::vector<float> flat;
  for (size_t i = 0; i < out.size(); i++) {
    float want[4] = {px[i].x / 255.0f, px[i].y / 255.0f, px[i].z / 255.0f, px[i].w / 255.0f};
    float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
    for (int c = 0; c < 4; c++) {
      flat.push_back(got[c]);
      if (got[c] != want[c] && !wrong++)
        printf("normalized_uchar FAILED texel %zu.%d: %a, want %a\n", i, c, got[c], want[c]);
    }
  }
  if (!wrong) printf("normalized_uchar ok\n");
  values(flat);
  return wrong != 0;
}

// --- surface: surf2Dread, add 1000, surf2Dwrite (byte-addressed x), then read back by copy
// and by a texture over the same array; a zero-mode read outside answers 0.
__global__ void surface_add(cudaSurfaceObject_t s, int w, int h, int *outside) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    int v = surf2Dread<int>(s, x * 4, y);
    surf2Dwrite(v + 1000, s, x * 4, y);
  }
  if (x == 0 && y == 0) *outside = surf2Dread<int>(s, -4, 0, cudaBoundaryModeZero) + 7;
}

__global__ void read_int(cudaTextureObject_t t, int *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
}

static int case_surface() {
  const int w = 5, h = 3;
  std::vector<int> in(w * h), back(w * h), viatex(w * h);
  for (int i = 0; i < w * h; i++) in[i] = (i / w) * 10 + i % w;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
  cudaArray_t a;
  OK(cudaMallocArray(&a, &f, w, h, cudaArraySurfaceLoadStore));
  OK(cudaMemcpy2DToArray(a, 0, 0, in.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s;
  OK(cudaCreateSurfaceObject(&s, &r));
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.filterMode = cudaFilterModePoint;
  d.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  OK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  int *dout, *doutside, outside = -1;
  OK(cudaMalloc(&dout, w * h * sizeof(int)));
  OK(cudaMalloc(&doutside, sizeof(int)));
  surface_add<<<h, 8>>>(s, w, h, doutside);
  OK(cudaGetLastError());
  read_int<<<h, 8>>>(t, dout, w, h);
  OK(cudaGetLastError());
  OK(cudaMemcpy2DFromArray(back.data(), w * 4, a, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  OK(cudaMemcpy(viatex.data(), dout, w * h * sizeof(int), cudaMemcpyDeviceToHost));
  OK(cudaMemcpy(&outside, doutside, sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = outside != 7;
  for (int i = 0; i < w * h; i++) wrong += back[i] != in[i] + 1000 || viatex[i] != in[i] + 1000;
  if (wrong)
    printf("surface FAILED: back[0]=%d tex[0]=%d outside=%d\n", back[0], viatex[0], outside);
  else
    printf("surface ok\n");
  printf("v");
  for (int i = 0; i < w * h; i++) printf(" %d", viatex[i]);
  printf(" %d\n", outside);
  return wrong != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  const char *c = argv[1];
  if (!strcmp(c, "nearest")) return case_nearest();
  if (!strcmp(c, "linear")) return case_linear();
  if (!strcmp(c, "normalized_uchar")) return case_normalized_uchar();
  if (!strcmp(c, "surface")) return case_surface();
  fprintf(stderr, "unknown case %s\n", c);
  return 2;
}
