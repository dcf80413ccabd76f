// Texture and surface objects for stub-ptx's tests (tests/textures.rs), compiled by nvrtc.py to
// textures.ptx. Each thread samples at the coordinates it is given and writes what it read.

// tex2D<float4> at (xs[i], ys[i]): float coordinates (normalized or not, by the object).
extern "C" __global__ void fetch2d(cudaTextureObject_t t, const float* xs, const float* ys,
                                   float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, xs[i], ys[i]);
}

// tex1D<float> and tex1Dfetch<float>.
extern "C" __global__ void fetch1d(cudaTextureObject_t t, const float* xs, float* out,
                                   float* fetched, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = tex1D<float>(t, xs[i]);
        fetched[i] = tex1Dfetch<float>(t, i);
    }
}

// An 8-bit texture read as element type (uchar4) and as normalized float (float4: the object
// decides which; the kernel reads through the type nvcc's header chooses).
extern "C" __global__ void fetch_uchar(cudaTextureObject_t t, const float* xs, const float* ys,
                                       uchar4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<uchar4>(t, xs[i], ys[i]);
}

// Layered, 3D, cubemap, gather (layer 0 of the layered object) and an explicit level (the
// layer number less 1: the host answers a different view per level).
extern "C" __global__ void fetch_shapes(cudaTextureObject_t layered, cudaTextureObject_t vol,
                                        cudaTextureObject_t cube, const float* c, float* out) {
    int i = threadIdx.x;
    float x = c[4 * i], y = c[4 * i + 1], z = c[4 * i + 2];
    int layer = (int)c[4 * i + 3];
    out[6 * i] = tex2DLayered<float>(layered, x, y, layer);
    out[6 * i + 1] = tex3D<float>(vol, x, y, z);
    out[6 * i + 2] = texCubemap<float>(cube, x, y, z);
    float4 g = tex2Dgather<float4>(layered, x, y, 0);
    out[6 * i + 3] = g.x;
    out[6 * i + 4] = g.w;
    out[6 * i + 5] = tex2DLod<float>(layered, x, y, c[4 * i + 3] - 1.0f);
}

// surf2Dwrite of each element plus 1000, then surf2Dread back (through the other object), the
// width and height queried; out-of-range reads with zero and clamp.
extern "C" __global__ void surface2d(cudaSurfaceObject_t s, cudaSurfaceObject_t r, int* out,
                                     int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) {
        int v = surf2Dread<int>(s, x * 4, y);
        surf2Dwrite(v + 1000, s, x * 4, y);
    }
    __syncthreads();
    if (x < w && y < h) out[y * w + x] = surf2Dread<int>(r, x * 4, y);
    if (x == 0 && y == 0) {
        out[w * h] = surf2Dread<int>(r, -4, 0, cudaBoundaryModeZero);
        out[w * h + 1] = surf2Dread<int>(r, w * 4 + 8, -3, cudaBoundaryModeClamp);
    }
}

// An out-of-range surf2Dwrite under the default trap mode.
extern "C" __global__ void surface_trap(cudaSurfaceObject_t s) {
    surf2Dwrite(1, s, 4096, 0);
}
