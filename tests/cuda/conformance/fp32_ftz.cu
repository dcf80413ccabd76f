// fp32.cu's kernel compiled with -ftz=true: every fp32 instruction .ftz (subnormal inputs and
// results flushed to sign-preserving zero, PTX ISA 9.2 "Floating-Point Instructions"), the rest
// as in fp32.cu.
//! options -ftz=true
//! kernel fp32 3 256 32256
#include "fp32.cu"
