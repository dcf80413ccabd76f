/* GPU proof of the cuDNN stub (tests/gpu/cudnn.sh): a 2-D convolution forward with cuDNN's
 * legacy API (cudnnConvolutionForward: NCHW float, N=2 C=3 H=W=17 input, K=4 3x3 filters,
 * padding 1, stride 1, dilation 1, cross-correlation), once with the implicit-GEMM algorithm and
 * once with the algorithm cudnnGetConvolutionForwardAlgorithm_v7 ranks first, each checked on
 * the host against a plain loop, then a bias and ReLU (cudnnAddTensor, cudnnActivationForward,
 * of libcudnn_ops.so.9). Device memory and the stream come from the runtime. Built against
 * cuDNN's and the machine's headers, linked either to the stubs (libstubs_cudnn,
 * libstubs_cudart) or normally (libcudnn, libcudart). Prints the versions, a checksum of each
 * result and PASS/FAIL lines; exits non-zero on any failure. */
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 2, C = 3, H = 17, W = 17, K = 4, R = 3, S = 3, PAD = 1 };
enum { OH = H, OW = W }; /* stride 1, padding 1, 3x3: same size */

#define CHECK(what, call)                                                                  \
  do {                                                                                     \
    int rc_ = (int)(call);                                                                 \
    if (rc_ != 0) {                                                                        \
      printf("FAIL %s rc=%d\n", what, rc_);                                                \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

#define CHECK_CUDNN(what, call)                                                            \
  do {                                                                                     \
    cudnnStatus_t st_ = (call);                                                            \
    if (st_ != CUDNN_STATUS_SUCCESS) {                                                     \
      char msg_[512];                                                                      \
      cudnnGetLastErrorString(msg_, sizeof msg_);                                          \
      printf("FAIL %s: %s (%s)\n", what, cudnnGetErrorString(st_), msg_);                   \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static float x[N * C * H * W], w[K * C * R * S], bias[K], y[N * K * OH * OW];
static float expect[N * K * OH * OW];

/* The reference: cross-correlation with zero padding, on the host. */
static void reference(void) {
  for (int n = 0; n < N; n++)
    for (int k = 0; k < K; k++)
      for (int oh = 0; oh < OH; oh++)
        for (int ow = 0; ow < OW; ow++) {
          double sum = 0;
          for (int c = 0; c < C; c++)
            for (int r = 0; r < R; r++)
              for (int s = 0; s < S; s++) {
                int ih = oh + r - PAD, iw = ow + s - PAD;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                sum += (double)x[((n * C + c) * H + ih) * W + iw] * w[((k * C + c) * R + r) * S + s];
              }
          expect[((n * K + k) * OH + oh) * OW + ow] = (float)sum;
        }
}

/* Compares y with expect (after `bias_relu`, with the bias added and negatives clipped), prints
 * PASS/FAIL and a checksum. */
static int compare(const char *what, int bias_relu) {
  double worst = 0, checksum = 0;
  for (int i = 0; i < N * K * OH * OW; i++) {
    float e = expect[i];
    if (bias_relu) {
      e += bias[(i / (OH * OW)) % K];
      if (e < 0) e = 0;
    }
    double d = fabs((double)y[i] - e);
    if (d > worst) worst = d;
    checksum += y[i];
  }
  int ok = worst < 1e-3;
  printf("%s %s: max |error| %.2e, checksum %.3f\n", ok ? "PASS" : "FAIL", what, worst, checksum);
  return ok ? 0 : 1;
}

int main(void) {
  printf("cudnnGetVersion %zu (header %d), built with CUDA %zu\n", cudnnGetVersion(), CUDNN_VERSION,
         cudnnGetCudartVersion());
  int runtime = 0, ndev = 0;
  CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime));
  CHECK("cudaGetDeviceCount", cudaGetDeviceCount(&ndev));
  printf("runtime %d, %d device(s)\n", runtime, ndev);
  if (ndev < 1) {
    printf("FAIL no GPU\n");
    return 1;
  }

  /* Deterministic data: small integers and halves, exact in float. */
  for (int i = 0; i < N * C * H * W; i++) x[i] = (float)((i * 7) % 11 - 5) * 0.5f;
  for (int i = 0; i < K * C * R * S; i++) w[i] = (float)((i * 5) % 7 - 3) * 0.25f;
  for (int k = 0; k < K; k++) bias[k] = (float)k - 1.5f;
  reference();

  cudnnHandle_t handle;
  CHECK_CUDNN("cudnnCreate", cudnnCreate(&handle));
  cudaStream_t stream;
  CHECK("cudaStreamCreate", cudaStreamCreate(&stream));
  CHECK_CUDNN("cudnnSetStream", cudnnSetStream(handle, stream));

  cudnnTensorDescriptor_t xd, yd, bd;
  cudnnFilterDescriptor_t wd;
  cudnnConvolutionDescriptor_t cd;
  CHECK_CUDNN("cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&xd));
  CHECK_CUDNN("cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&yd));
  CHECK_CUDNN("cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&bd));
  CHECK_CUDNN("cudnnCreateFilterDescriptor", cudnnCreateFilterDescriptor(&wd));
  CHECK_CUDNN("cudnnCreateConvolutionDescriptor", cudnnCreateConvolutionDescriptor(&cd));
  CHECK_CUDNN("cudnnSetTensor4dDescriptor x",
              cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CHECK_CUDNN("cudnnSetFilter4dDescriptor",
              cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, S));
  CHECK_CUDNN("cudnnSetConvolution2dDescriptor",
              cudnnSetConvolution2dDescriptor(cd, PAD, PAD, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT));
  int on, ok, oh, ow;
  CHECK_CUDNN("cudnnGetConvolution2dForwardOutputDim",
              cudnnGetConvolution2dForwardOutputDim(cd, xd, wd, &on, &ok, &oh, &ow));
  printf("output %dx%dx%dx%d\n", on, ok, oh, ow);
  if (on != N || ok != K || oh != OH || ow != OW) {
    printf("FAIL output dimensions\n");
    return 1;
  }
  CHECK_CUDNN("cudnnSetTensor4dDescriptor y",
              cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, OH, OW));
  CHECK_CUDNN("cudnnSetTensor4dDescriptor bias",
              cudnnSetTensor4dDescriptor(bd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, K, 1, 1));

  float *dx, *dw, *dy, *db;
  CHECK("cudaMalloc x", cudaMalloc((void **)&dx, sizeof x));
  CHECK("cudaMalloc w", cudaMalloc((void **)&dw, sizeof w));
  CHECK("cudaMalloc y", cudaMalloc((void **)&dy, sizeof y));
  CHECK("cudaMalloc bias", cudaMalloc((void **)&db, sizeof bias));
  CHECK("cudaMemcpy x", cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK("cudaMemcpy w", cudaMemcpy(dw, w, sizeof w, cudaMemcpyHostToDevice));
  CHECK("cudaMemcpy bias", cudaMemcpy(db, bias, sizeof bias, cudaMemcpyHostToDevice));

  cudnnConvolutionFwdAlgoPerf_t perf[8];
  int returned = 0;
  CHECK_CUDNN("cudnnGetConvolutionForwardAlgorithm_v7",
              cudnnGetConvolutionForwardAlgorithm_v7(handle, xd, wd, cd, yd, 8, &returned, perf));
  if (returned < 1) {
    printf("FAIL no forward algorithm\n");
    return 1;
  }
  cudnnConvolutionFwdAlgo_t algos[2] = {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, perf[0].algo};
  const char *names[2] = {"implicit GEMM", "heuristics' first"};
  int failures = 0;
  const float one = 1.0f, zero = 0.0f;
  for (int a = 0; a < 2; a++) {
    size_t bytes = 0;
    CHECK_CUDNN("cudnnGetConvolutionForwardWorkspaceSize",
                cudnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd, algos[a], &bytes));
    void *workspace = NULL;
    if (bytes) CHECK("cudaMalloc workspace", cudaMalloc(&workspace, bytes));
    CHECK("cudaMemset y", cudaMemset(dy, 0, sizeof y));
    CHECK_CUDNN("cudnnConvolutionForward",
                cudnnConvolutionForward(handle, &one, xd, dx, wd, dw, cd, algos[a], workspace,
                                        bytes, &zero, yd, dy));
    CHECK("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    CHECK("cudaMemcpy y", cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
    char what[96];
    snprintf(what, sizeof what, "convolution forward, %s (algorithm %d)", names[a], (int)algos[a]);
    failures += compare(what, 0);
    if (workspace) cudaFree(workspace);
  }

  /* y += bias (broadcast over N, H, W), then ReLU in place. */
  cudnnActivationDescriptor_t act;
  CHECK_CUDNN("cudnnCreateActivationDescriptor", cudnnCreateActivationDescriptor(&act));
  CHECK_CUDNN("cudnnSetActivationDescriptor",
              cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
  CHECK_CUDNN("cudnnAddTensor", cudnnAddTensor(handle, &one, bd, db, &one, yd, dy));
  CHECK_CUDNN("cudnnActivationForward",
              cudnnActivationForward(handle, act, &one, yd, dy, &zero, yd, dy));
  CHECK("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  CHECK("cudaMemcpy y", cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
  failures += compare("bias and ReLU", 1);

  cudnnDestroyActivationDescriptor(act);
  cudnnDestroyConvolutionDescriptor(cd);
  cudnnDestroyFilterDescriptor(wd);
  cudnnDestroyTensorDescriptor(bd);
  cudnnDestroyTensorDescriptor(yd);
  cudnnDestroyTensorDescriptor(xd);
  CHECK_CUDNN("cudnnDestroy", cudnnDestroy(handle));
  cudaFree(dx);
  cudaFree(dw);
  cudaFree(dy);
  cudaFree(db);
  cudaStreamDestroy(stream);
  printf("%s\n", failures ? "FAIL" : "PASS all");
  return failures ? 1 : 0;
}
