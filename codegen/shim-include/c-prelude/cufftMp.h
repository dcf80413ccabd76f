/* Read before NVIDIA's cufftMp.h (codegen/src/read/headers.rs). cuFFTMp 11.4's and 12.1's
 * header is C++ in its inline helpers: cufftMpMakePlanDecomposition tests its pointers against
 * `nullptr`, which C (before C23) lacks; a C program including it must define the name first,
 * as this does. (Its non-static `inline` helpers, cufftMpMakePlan2d / 3d, emit no definition in
 * C: a C program calling them gets an undefined reference; none of them is exported.) */
#define nullptr ((void *)0)
