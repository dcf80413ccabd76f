/* nvCOMP 5.0.0.6's nvcomp.h (NVIDIA's nvidia-nvcomp-cu11 wheel) includes nvcomp/version.h,
 * which that wheel does not ship (6.0's nvidia-libnvcomp-* wheels do, found first: beside
 * nvcomp.h). Its version macros are used by no declaration; this shim defines none of them, so
 * a program can tell the header that lacked it (`#ifndef NVCOMP_VER_MAJOR`). */
#ifndef NVCOMP_VERSION_H
#define NVCOMP_VERSION_H
#endif
