/* codegen shim: only the OpenGL types cudaGL.h / cuda_gl_interop.h use (Khronos ABI). */
#ifndef __gl_h_
#define __gl_h_
typedef unsigned int GLenum;
typedef unsigned int GLuint;
#endif
