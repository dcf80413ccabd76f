/* codegen shim: only the OpenCL handle types nvToolsExtOpenCL.h names (Khronos ABI: pointers to
 * opaque structs). */
#ifndef __OPENCL_CL_H
#define __OPENCL_CL_H
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_sampler *cl_sampler;
typedef struct _cl_event *cl_event;
#endif
