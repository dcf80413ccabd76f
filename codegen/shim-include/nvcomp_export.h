/* nvCOMP 5.0.0.6's nvcomp.h (NVIDIA's nvidia-nvcomp-cu11 wheel) includes nvcomp_export.h, which
 * that wheel does not ship (6.0's nvidia-libnvcomp-* wheels do, found first: beside nvcomp.h).
 * What NVIDIA's 6.0 one defines for a program using the shared library: the default
 * visibility, nothing a C declaration's ABI depends on. */
#ifndef NVCOMP_EXPORT_H
#define NVCOMP_EXPORT_H
#ifndef NVCOMP_EXPORT
#define NVCOMP_EXPORT __attribute__((visibility("default")))
#endif
#endif
