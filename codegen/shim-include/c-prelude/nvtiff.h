/* Read before NVIDIA's nvtiff.h (codegen/src/read/headers.rs). nvTIFF 0.8's header names its
 * tag type enum by its tag without `enum` in `nvtiffEncodeParamsSetTag` (`nvtiffTagDataType
 * type`), which is C++, not C; a C program including it must declare that name first, as this
 * does (a forward declaration of the enum, completed by the header). */
typedef enum nvtiffTagDataType nvtiffTagDataType;
