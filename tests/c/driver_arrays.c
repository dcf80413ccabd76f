/* The driver's CUDA arrays (issue 48 item 5): cuArrayCreate / cuArray3DCreate, descriptors,
 * cuMemcpy2D and cuMemcpy3D to and from them (the bytes come back), texture and surface
 * objects, mipmapped arrays. One `key=value` line per fact, the same on a board
 * (tests/gpu/occupancy.sh) and on the mock (tests/tests/mock_api.rs). */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  cuInit(0);
  CUcontext ctx = NULL;
  cuDevicePrimaryCtxRetain(&ctx, 0);
  cuCtxSetCurrent(ctx);
  enum { W = 16, H = 8, D = 3 };
  static float in[D][H][W * 2], out[D][H][W * 2];
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W * 2; x++) in[z][y][x] = (float)(z * 10000 + y * 100 + x);

  CUDA_ARRAY_DESCRIPTOR ad;
  memset(&ad, 0, sizeof ad);
  ad.Width = W;
  ad.Height = H;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 2;
  CUarray a = NULL;
  int rc = (int)cuArrayCreate(&a, &ad);
  CUDA_ARRAY_DESCRIPTOR back;
  memset(&back, 0, sizeof back);
  int rc1 = (int)cuArrayGetDescriptor(&back, a);
  printf("cuArrayCreate rc=%d descriptor rc=%d %zux%zu format=%d channels=%u\n", rc, rc1,
         back.Width, back.Height, (int)back.Format, back.NumChannels);
  ad.NumChannels = 3;
  CUarray bad = NULL;
  printf("three channels rc=%d\n", (int)cuArrayCreate(&bad, &ad));

  CUDA_MEMCPY2D c;
  memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = in[0];
  c.srcPitch = sizeof in[0][0];
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = a;
  c.WidthInBytes = sizeof in[0][0];
  c.Height = H;
  int to = (int)cuMemcpy2D(&c);
  memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = a;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = out[0];
  c.dstPitch = sizeof out[0][0];
  c.WidthInBytes = sizeof out[0][0];
  c.Height = H;
  int from = (int)cuMemcpy2D(&c);
  printf("2D round trip rc=%d,%d same=%d\n", to, from, memcmp(in[0], out[0], sizeof in[0]) == 0);
  c.WidthInBytes += 8;
  printf("past the width rc=%d\n", (int)cuMemcpy2D(&c));

  CUDA_ARRAY3D_DESCRIPTOR d3;
  memset(&d3, 0, sizeof d3);
  d3.Width = W;
  d3.Height = H;
  d3.Depth = D;
  d3.Format = CU_AD_FORMAT_FLOAT;
  d3.NumChannels = 2;
  d3.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray v = NULL;
  rc = (int)cuArray3DCreate(&v, &d3);
  CUDA_ARRAY3D_DESCRIPTOR back3;
  memset(&back3, 0, sizeof back3);
  rc1 = (int)cuArray3DGetDescriptor(&back3, v);
  printf("cuArray3DCreate rc=%d descriptor rc=%d %zux%zux%zu flags=%u\n", rc, rc1, back3.Width,
         back3.Height, back3.Depth, back3.Flags);
  CUDA_MEMCPY3D c3;
  memset(&c3, 0, sizeof c3);
  c3.srcMemoryType = CU_MEMORYTYPE_HOST;
  c3.srcHost = in;
  c3.srcPitch = sizeof in[0][0];
  c3.srcHeight = H;
  c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c3.dstArray = v;
  c3.WidthInBytes = sizeof in[0][0];
  c3.Height = H;
  c3.Depth = D;
  to = (int)cuMemcpy3D(&c3);
  memset(&c3, 0, sizeof c3);
  c3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c3.srcArray = v;
  c3.dstMemoryType = CU_MEMORYTYPE_HOST;
  c3.dstHost = out;
  c3.dstPitch = sizeof out[0][0];
  c3.dstHeight = H;
  c3.WidthInBytes = sizeof out[0][0];
  c3.Height = H;
  c3.Depth = D;
  from = (int)cuMemcpy3D(&c3);
  printf("3D round trip rc=%d,%d same=%d\n", to, from, memcmp(in, out, sizeof in) == 0);

  CUDA_RESOURCE_DESC res;
  memset(&res, 0, sizeof res);
  res.resType = CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = v;
  CUDA_TEXTURE_DESC td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_POINT;
  td.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject tex = 0;
  rc = (int)cuTexObjectCreate(&tex, &res, &td, NULL);
  CUDA_TEXTURE_DESC tback;
  memset(&tback, 0, sizeof tback);
  rc1 = (int)cuTexObjectGetTextureDesc(&tback, tex);
  printf("texture rc=%d desc rc=%d address=%d flags=%u\n", rc, rc1, (int)tback.addressMode[0],
         tback.flags);
  CUsurfObject surf = 0;
  rc = (int)cuSurfObjectCreate(&surf, &res);
  res.res.array.hArray = a;
  CUsurfObject nosurf = 0;
  rc1 = (int)cuSurfObjectCreate(&nosurf, &res);
  printf("surface rc=%d without the flag rc=%d\n", rc, rc1);

  CUmipmappedArray mip = NULL;
  d3.Depth = 0;
  d3.Flags = 0;
  rc = (int)cuMipmappedArrayCreate(&mip, &d3, 3);
  CUarray l2 = NULL;
  rc1 = (int)cuMipmappedArrayGetLevel(&l2, mip, 2);
  memset(&back3, 0, sizeof back3);
  cuArray3DGetDescriptor(&back3, l2);
  printf("mipmapped rc=%d level 2 rc=%d %zux%zux%zu\n", rc, rc1, back3.Width, back3.Height,
         back3.Depth);

  printf("destroy rc=%d,%d,%d,%d,%d\n", (int)cuSurfObjectDestroy(surf),
         (int)cuTexObjectDestroy(tex), (int)cuArrayDestroy(a), (int)cuArrayDestroy(v),
         (int)cuMipmappedArrayDestroy(mip));
  return 0;
}
