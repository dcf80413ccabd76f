// CUDA arrays, mipmapped arrays, copies to and from them, texture and surface objects (issue 48
// item 5), from the host: what each call answers and the bytes a round trip brings back. One
// `key=value` line per fact: on a board (tests/gpu/occupancy.sh) and on the mock
// (tests/tests/mock_api.rs), compared line by line.
#include <cuda_runtime.h>
#include <stdio.h>

int main() {
  const int w = 100, h = 37;
  static float in[37][100], out[37][100];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) in[y][x] = (float)(y * 1000 + x);

  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  printf("channel desc x=%d y=%d z=%d w=%d f=%d\n", f.x, f.y, f.z, f.w, (int)f.f);
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  printf("uchar4 desc x=%d y=%d z=%d w=%d f=%d\n", u4.x, u4.y, u4.z, u4.w, (int)u4.f);

  cudaArray_t a = NULL, b = NULL, one = NULL;
  int rc = (int)cudaMallocArray(&a, &f, w, h, cudaArraySurfaceLoadStore);
  int rc1 = (int)cudaMallocArray(&b, &f, w, h, 0);
  int rc2 = (int)cudaMallocArray(&one, &f, w, 0, 0);
  printf("cudaMallocArray rc=%d,%d,%d\n", rc, rc1, rc2);
  cudaChannelFormatDesc got;
  cudaExtent e;
  unsigned flags = 99;
  rc = (int)cudaArrayGetInfo(&got, &e, &flags, a);
  printf("info rc=%d x=%d f=%d extent=%zux%zux%zu flags=%u\n", rc, got.x, (int)got.f, e.width,
         e.height, e.depth, flags);
  rc = (int)cudaArrayGetInfo(&got, &e, &flags, one);
  printf("1D info rc=%d extent=%zux%zux%zu\n", rc, e.width, e.height, e.depth);

  // Host -> array, array -> array, array -> host.
  int to = (int)cudaMemcpy2DToArray(a, 0, 0, in, w * sizeof(float), w * sizeof(float), h,
                                    cudaMemcpyHostToDevice);
  int across = (int)cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, w * sizeof(float), h,
                                             cudaMemcpyDeviceToDevice);
  int from = (int)cudaMemcpy2DFromArray(out, w * sizeof(float), b, 0, 0, w * sizeof(float), h,
                                        cudaMemcpyDeviceToHost);
  int same = 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) same &= out[y][x] == in[y][x];
  printf("round trip rc=%d,%d,%d same=%d\n", to, across, from, same);
  // A window: 10 floats of row 5 from byte offset of x=20.
  float row[10] = {0};
  rc = (int)cudaMemcpy2DFromArray(row, sizeof row, a, 20 * sizeof(float), 5, sizeof row, 1,
                                  cudaMemcpyDeviceToHost);
  printf("window rc=%d first=%.0f last=%.0f\n", rc, row[0], row[9]);
  // Past the array's extent.
  rc = (int)cudaMemcpy2DToArray(a, 4, 0, in, w * sizeof(float), w * sizeof(float), 1,
                                cudaMemcpyHostToDevice);
  printf("past the width rc=%d\n", rc);
  cudaGetLastError();
  rc = (int)cudaMemcpy2DToArray(a, 0, h, in, w * sizeof(float), 4, 1, cudaMemcpyHostToDevice);
  printf("past the height rc=%d\n", rc);
  cudaGetLastError();

  // A texture object over the array.
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeWrap;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex = 0;
  rc = (int)cudaCreateTextureObject(&tex, &res, &td, NULL);
  printf("texture rc=%d nonzero=%d\n", rc, tex != 0);
  cudaResourceDesc rback = {};
  cudaTextureDesc tback = {};
  rc1 = (int)cudaGetTextureObjectResourceDesc(&rback, tex);
  rc2 = (int)cudaGetTextureObjectTextureDesc(&tback, tex);
  printf("texture descs rc=%d,%d type=%d same array=%d address=%d,%d filter=%d normalized=%d\n",
         rc1, rc2, (int)rback.resType, rback.res.array.array == a, (int)tback.addressMode[0],
         (int)tback.addressMode[1], (int)tback.filterMode, tback.normalizedCoords);
  // Over pitched linear memory.
  float *lin = NULL;
  size_t pitch = 0;
  cudaMallocPitch(&lin, &pitch, w * sizeof(float), h);
  cudaResourceDesc pres = {};
  pres.resType = cudaResourceTypePitch2D;
  pres.res.pitch2D.devPtr = lin;
  pres.res.pitch2D.desc = f;
  pres.res.pitch2D.width = w;
  pres.res.pitch2D.height = h;
  pres.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t ptex = 0;
  rc = (int)cudaCreateTextureObject(&ptex, &pres, &td, NULL);
  printf("pitched texture rc=%d\n", rc);

  // Surfaces: an array made for load/store only.
  cudaSurfaceObject_t surf = 0, nosurf = 0;
  rc1 = (int)cudaCreateSurfaceObject(&surf, &res);
  res.res.array.array = b;
  rc2 = (int)cudaCreateSurfaceObject(&nosurf, &res);
  printf("surface rc=%d without the flag rc=%d\n", rc1, rc2);
  cudaGetLastError();
  rc = (int)cudaGetSurfaceObjectResourceDesc(&rback, surf);
  printf("surface desc rc=%d same array=%d\n", rc, rback.res.array.array == a);

  // Mipmapped: 4 levels of 64x32.
  cudaMipmappedArray_t mip = NULL;
  rc = (int)cudaMallocMipmappedArray(&mip, &f, make_cudaExtent(64, 32, 0), 4, 0);
  printf("mipmapped rc=%d\n", rc);
  for (unsigned l = 0; l < 5; l++) {
    cudaArray_t level = NULL;
    rc = (int)cudaGetMipmappedArrayLevel(&level, mip, l);
    e = make_cudaExtent(0, 0, 0);
    if (rc == 0) cudaArrayGetInfo(NULL, &e, NULL, level);
    printf("level %u rc=%d extent=%zux%zux%zu\n", l, rc, e.width, e.height, e.depth);
    cudaGetLastError();
  }

  printf("destroy rc=%d,%d,%d\n", (int)cudaDestroySurfaceObject(surf),
         (int)cudaDestroyTextureObject(tex), (int)cudaDestroyTextureObject(ptex));
  printf("free rc=%d,%d,%d,%d\n", (int)cudaFreeArray(a), (int)cudaFreeArray(b),
         (int)cudaFreeArray(one), (int)cudaFreeMipmappedArray(mip));
  cudaFree(lin);
  return 0;
}
