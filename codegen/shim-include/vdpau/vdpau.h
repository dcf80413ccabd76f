/* codegen shim: only the VDPAU types cudaVDPAU.h / cuda_vdpau_interop.h use (libvdpau ABI). */
#ifndef _VDPAU_H
#define _VDPAU_H
#include <stdint.h>
typedef uint32_t VdpDevice;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef uint32_t VdpFuncId;
typedef uint32_t VdpChromaType;
typedef uint32_t VdpRGBAFormat;
typedef int VdpStatus;
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, void **function_pointer);
#endif
