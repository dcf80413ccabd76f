/* Read before NVIDIA's nvjpeg2k.h (codegen/src/read/headers.rs). nvJPEG2000 0.9's header names
 * two of its enums by their tag without `enum` (`nvjpeg2kProgOrder prog_order;`,
 * `nvjpeg2kQualityType quality_type`), which is C++, not C; a C program including it must
 * declare those names first, as this does (forward declarations of the enums, completed by
 * the header). Later headers name the `_t` typedefs only, and these names stay unused. */
typedef enum nvjpeg2kProgOrder nvjpeg2kProgOrder;
typedef enum nvjpeg2kQualityType nvjpeg2kQualityType;
