/* GPU proof of the NPP stubs (tests/gpu/npp.sh): a 640x480 8-bit gray image made on the host
 * (a deterministic pattern), uploaded into NPP's own pitched allocation (nppiMalloc_8u_C1,
 * libnppisu), resized to 320x240 with linear and cubic interpolation (nppiResize_8u_C1R_Ctx,
 * libnppig), the linear result brightened in place (nppiAddC_8u_C1IRSfs_Ctx, libnppial), each
 * result downloaded and checksummed (FNV-1a over the bytes); the final image is written to the
 * file named by the first argument, for a byte comparison of the two builds. The stream context
 * is filled from the runtime, as NVIDIA documents (hStream 0, the legacy default stream).
 * Built against the machine's NPP and runtime headers, linked either to the stubs
 * (libstubs_nppig, _nppial, _nppisu, _nppc, _cudart) or normally. Prints PASS/FAIL lines;
 * exits non-zero on any failure. */
#include <cuda_runtime_api.h>
#include <npp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW 640
#define SH 480
#define DW 320
#define DH 240

#define CHECK(what, call)                                   \
  do {                                                      \
    int rc_ = (int)(call);                                  \
    if (rc_ != 0) {                                         \
      printf("FAIL %s rc=%d\n", what, rc_);                 \
      return 1;                                             \
    }                                                       \
  } while (0)

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/* The stream context NPP's _Ctx functions take, from the current device (NVIDIA's recipe). */
static int stream_context(NppStreamContext *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->hStream = 0;
  CHECK("cudaGetDevice", cudaGetDevice(&ctx->nCudaDeviceId));
  CHECK("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&ctx->nMultiProcessorCount,
                                                          cudaDevAttrMultiProcessorCount,
                                                          ctx->nCudaDeviceId));
  CHECK("cudaDeviceGetAttribute",
        cudaDeviceGetAttribute(&ctx->nMaxThreadsPerMultiProcessor,
                               cudaDevAttrMaxThreadsPerMultiProcessor, ctx->nCudaDeviceId));
  CHECK("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&ctx->nMaxThreadsPerBlock,
                                                          cudaDevAttrMaxThreadsPerBlock,
                                                          ctx->nCudaDeviceId));
  int shared = 0;
  CHECK("cudaDeviceGetAttribute",
        cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, ctx->nCudaDeviceId));
  ctx->nSharedMemPerBlock = (size_t)shared;
  CHECK("cudaDeviceGetAttribute",
        cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMajor,
                               cudaDevAttrComputeCapabilityMajor, ctx->nCudaDeviceId));
  CHECK("cudaDeviceGetAttribute",
        cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMinor,
                               cudaDevAttrComputeCapabilityMinor, ctx->nCudaDeviceId));
  CHECK("cudaStreamGetFlags", cudaStreamGetFlags(ctx->hStream, &ctx->nStreamFlags));
  return 0;
}

/* Resizes `src` into `dst` with `mode`, downloads it into `host` and prints its checksum. */
static int resize(const Npp8u *src, int src_step, Npp8u *dst, int dst_step, int mode,
                  const char *name, unsigned char *host, NppStreamContext ctx) {
  NppiSize ssize = {SW, SH}, dsize = {DW, DH};
  NppiRect sroi = {0, 0, SW, SH}, droi = {0, 0, DW, DH};
  CHECK(name, nppiResize_8u_C1R_Ctx(src, src_step, ssize, sroi, dst, dst_step, dsize, droi, mode,
                                    ctx));
  CHECK("cudaMemcpy2D", cudaMemcpy2D(host, DW, dst, (size_t)dst_step, DW, DH,
                                     cudaMemcpyDeviceToHost));
  printf("%s %dx%d -> %dx%d fnv1a=%016llx corner=%u centre=%u\n", name, SW, SH, DW, DH,
         (unsigned long long)fnv1a(host, (size_t)DW * DH), host[0], host[(DH / 2) * DW + DW / 2]);
  return 0;
}

int main(int argc, char **argv) {
  const NppLibraryVersion *v = nppGetLibVersion();
  int runtime = 0, ndev = 0;
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  CHECK("cudaGetDeviceCount", cudaGetDeviceCount(&ndev));
  printf("NPP %d.%d.%d (header %d.%d.%d), runtime %d, %d device(s)\n", v->major, v->minor,
         v->build, NPP_VER_MAJOR, NPP_VER_MINOR, NPP_VER_PATCH, runtime, ndev);
  if (ndev < 1) {
    printf("FAIL no GPU\n");
    return 1;
  }
  NppStreamContext ctx;
  if (stream_context(&ctx)) return 1;

  static unsigned char image[SH][SW], out[DH * DW];
  for (int y = 0; y < SH; y++)
    for (int x = 0; x < SW; x++) image[y][x] = (unsigned char)((x * 7 + y * 13 + (x * y) / 97) & 0xff);
  int src_step = 0, dst_step = 0;
  Npp8u *src = nppiMalloc_8u_C1(SW, SH, &src_step);
  Npp8u *dst = nppiMalloc_8u_C1(DW, DH, &dst_step);
  if (!src || !dst) {
    printf("FAIL nppiMalloc_8u_C1\n");
    return 1;
  }
  printf("nppiMalloc_8u_C1 steps %d %d\n", src_step, dst_step);
  CHECK("cudaMemcpy2D", cudaMemcpy2D(src, (size_t)src_step, image, SW, SW, SH,
                                     cudaMemcpyHostToDevice));

  if (resize(src, src_step, dst, dst_step, NPPI_INTER_CUBIC, "nppiResize_8u_C1R_Ctx(cubic)", out,
             ctx))
    return 1;
  if (resize(src, src_step, dst, dst_step, NPPI_INTER_LINEAR, "nppiResize_8u_C1R_Ctx(linear)",
             out, ctx))
    return 1;
  /* The linear result's mean, by hand, must be near the source's: a resize that did nothing
   * (zeros) or wrote garbage fails here, in both builds. */
  double in_mean = 0, out_mean = 0;
  for (int y = 0; y < SH; y++)
    for (int x = 0; x < SW; x++) in_mean += image[y][x];
  for (int i = 0; i < DW * DH; i++) out_mean += out[i];
  in_mean /= (double)SW * SH;
  out_mean /= (double)DW * DH;
  printf("%s mean source %.2f resized %.2f\n",
         out_mean > in_mean - 8 && out_mean < in_mean + 8 ? "PASS" : "FAIL", in_mean, out_mean);

  NppiSize dsize = {DW, DH};
  CHECK("nppiAddC_8u_C1IRSfs_Ctx", nppiAddC_8u_C1IRSfs_Ctx(20, dst, dst_step, dsize, 0, ctx));
  CHECK("cudaMemcpy2D", cudaMemcpy2D(out, DW, dst, (size_t)dst_step, DW, DH,
                                     cudaMemcpyDeviceToHost));
  printf("nppiAddC_8u_C1IRSfs_Ctx(+20) fnv1a=%016llx corner=%u\n",
         (unsigned long long)fnv1a(out, sizeof out), out[0]);
  nppiFree(src);
  nppiFree(dst);

  if (argc > 1) {
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(out, 1, sizeof out, f) != sizeof out) {
      printf("FAIL writing %s\n", argv[1]);
      return 1;
    }
    fclose(f);
  }
  printf("PASS done\n");
  return 0;
}
