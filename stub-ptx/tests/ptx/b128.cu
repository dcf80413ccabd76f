// 128-bit registers for stub-ptx's tests (tests/nvrtc_b128.rs), compiled by nvrtc.py to
// b128.ptx: ld.global.b128 / st.global.b128 and mov.b128 (unpack, pack, copy) as inline PTX
// (CUDA C++ has no 128-bit load of its own). Thread t swaps the halves of the 16 bytes at
// in + 2 * t + skip (skip 1: a misaligned address) into out + 2 * t.
extern "C" __global__ void swap128(const unsigned long long* in, unsigned long long* out, int skip) {
    int t = threadIdx.x;
    unsigned long long lo, hi;
    asm volatile("{ .reg .b128 q; ld.global.b128 q, [%2]; mov.b128 {%0, %1}, q; }"
                 : "=l"(lo), "=l"(hi) : "l"(in + 2 * t + skip));
    asm volatile("{ .reg .b128 q, r; mov.b128 q, {%0, %1}; mov.b128 r, q; st.global.b128 [%2], r; }"
                 :: "l"(hi), "l"(lo), "l"(out + 2 * t) : "memory");
}
