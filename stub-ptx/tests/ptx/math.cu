// CUDA's math library (long PTX sequences of fma, cvt, bit tricks and branches), for stub-ptx's
// tests (tests/nvrtc_math.rs), compiled by nvrtc.py to math.ptx.
extern "C" __global__ void math_f32(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float* o = out + 12 * i;
    o[0] = sinf(v);
    o[1] = cosf(v);
    o[2] = expf(v * 0.25f);
    o[3] = logf(fabsf(v) + 1e-3f);
    o[4] = powf(fabsf(v), 1.7f);
    o[5] = tanhf(v * 0.3f);
    o[6] = erff(v * 0.2f);
    o[7] = atan2f(v, 1.5f);
    o[8] = cbrtf(v);
    o[9] = fmodf(v, 1.3f);
    o[10] = rsqrtf(fabsf(v) + 1.f);
    o[11] = (float)lrintf(v * 3.3f);
}

extern "C" __global__ void math_f64(const double* x, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double* o = out + 8 * i;
    o[0] = sin(v);
    o[1] = cos(v);
    o[2] = exp(v * 0.25);
    o[3] = log(fabs(v) + 1e-3);
    o[4] = pow(fabs(v), 1.7);
    o[5] = tanh(v * 0.3);
    o[6] = atan2(v, 1.5);
    o[7] = sqrt(fabs(v)) / (1.0 + v * v);
}

// A switch the compiler may lower to a branch tree, and a loop with a data-dependent trip count.
extern "C" __global__ void switches(const int* in, int* out) {
    int t = threadIdx.x, v = in[t], r;
    switch (v % 7) {
        case 0: r = v * 3; break;
        case 1: r = v - 11; break;
        case 2: r = v ^ 0x55; break;
        case 3: r = v << 2; break;
        case 4: r = -v; break;
        case 5: r = v / 3; break;
        default: r = 12345;
    }
    out[t] = r;
}
