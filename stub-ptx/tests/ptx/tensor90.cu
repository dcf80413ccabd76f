// nvrtc: --gpu-architecture=compute_90
// stmatrix (sm_90) for stub-ptx's tests (tests/nvrtc_tensor.rs), compiled by nvrtc.py to
// tensor90.ptx. One warp: the registers' values (lane * 16 + j * 4 + h pattern) stored as four
// 8x8 b16 matrices, plain to out[0..256], .trans to out[256..512].
extern "C" __global__ void stmatrix_x4(unsigned short* out) {
    __shared__ __align__(16) unsigned short s[2 * 4 * 64];
    int lane = threadIdx.x & 31;
    unsigned r[4];
    for (int j = 0; j < 4; ++j) r[j] = (lane * 16 + j * 4) | ((lane * 16 + j * 4 + 1) << 16);
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(lane / 8) * 64 + (lane % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                 :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                 :: "r"(addr + 512), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    __syncwarp();
    for (int i = lane; i < 512; i += 32) out[i] = s[i];
}
