/* codegen shim: only the EGL extension types cudaEGL.h / cuda_egl_interop.h use (Khronos ABI). */
#ifndef __eglext_h_
#define __eglext_h_
typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLSyncKHR;
#endif
