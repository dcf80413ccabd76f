/* nvJPEG2000, compiled against NVIDIA's nvjpeg2k.h of one major and linked either to
 * libstubs_nvjpeg2k.so or, for comparison, to NVIDIA's libnvjpeg2k.so.0 itself
 * (tests/nvjpeg2k.rs). Prints one line per call: nvJPEG2000's own version and its runtime's,
 * handle creation (nvJPEG2000's own answer without a GPU), host-side objects (a bitstream
 * handle, decode and encode parameters), parsing a truncated codestream, and with a 0.9 header
 * nvjpeg2kEncodeParamsSetQuality (gone in 0.11), with a later one
 * nvjpeg2kEncodeParamsSetNLTInfo (0.11+). With -DWITH_STATUS (the stub build), also what the
 * stub says (cuda_stubs.h). */
/* nvJPEG2000 0.9's header is C++ where it names two enums by their tag alone: declared first,
 * as codegen does (codegen/shim-include/c-prelude/nvjpeg2k.h). */
#include "c-prelude/nvjpeg2k.h"
#include <nvjpeg2k.h>
#include <stdio.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  const char *names[] = {"MAJOR_VERSION", "MINOR_VERSION", "PATCH_LEVEL"};
  for (int i = 0; i < 3; i++) {
    int value = -1;
    int rc = (int)nvjpeg2kGetProperty((libraryPropertyType)i, &value);
    printf("nvjpeg2kGetProperty(%s) rc=%d value=%d\n", names[i], rc, value);
    value = -1;
    rc = (int)nvjpeg2kGetCudartProperty((libraryPropertyType)i, &value);
    printf("nvjpeg2kGetCudartProperty(%s) rc=%d value=%d\n", names[i], rc, value);
  }

  nvjpeg2kHandle_t handle = NULL;
  int rc = (int)nvjpeg2kCreateSimple(&handle);
  printf("nvjpeg2kCreateSimple rc=%d\n", rc);

  nvjpeg2kStream_t stream = NULL;
  rc = (int)nvjpeg2kStreamCreate(&stream);
  printf("nvjpeg2kStreamCreate rc=%d\n", rc);
  if (rc == 0) {
    /* A JPEG 2000 codestream's SOC and SIZ markers, cut short. */
    static const unsigned char truncated[] = {0xff, 0x4f, 0xff, 0x51, 0x00, 0x29, 0x00, 0x00};
    rc = (int)nvjpeg2kStreamParse(handle, truncated, sizeof truncated, 0, 0, stream);
    printf("nvjpeg2kStreamParse(truncated, %s) rc=%d\n", handle ? "handle" : "NULL", rc);
    printf("nvjpeg2kStreamDestroy rc=%d\n", (int)nvjpeg2kStreamDestroy(stream));
  }
  nvjpeg2kDecodeParams_t decode = NULL;
  rc = (int)nvjpeg2kDecodeParamsCreate(&decode);
  printf("nvjpeg2kDecodeParamsCreate rc=%d\n", rc);
  if (rc == 0) printf("nvjpeg2kDecodeParamsDestroy rc=%d\n", (int)nvjpeg2kDecodeParamsDestroy(decode));
  nvjpeg2kEncodeParams_t encode = NULL;
  rc = (int)nvjpeg2kEncodeParamsCreate(&encode);
  printf("nvjpeg2kEncodeParamsCreate rc=%d\n", rc);
  if (rc == 0) printf("nvjpeg2kEncodeParamsDestroy rc=%d\n", (int)nvjpeg2kEncodeParamsDestroy(encode));
  nvjpeg2kDecodeState_t state = NULL;
  printf("nvjpeg2kDecodeStateCreate(no handle) rc=%d\n",
         (int)nvjpeg2kDecodeStateCreate(NULL, &state));
#if NVJPEG2K_VER_MAJOR == 0 && NVJPEG2K_VER_MINOR < 11
  printf("nvjpeg2kEncodeParamsSetQuality (header 0.%d) rc=%d\n", NVJPEG2K_VER_MINOR,
         (int)nvjpeg2kEncodeParamsSetQuality(NULL, 40.0));
#else
  printf("nvjpeg2kEncodeParamsSetNLTInfo (header 0.%d) rc=%d\n", NVJPEG2K_VER_MINOR,
         (int)nvjpeg2kEncodeParamsSetNLTInfo(NULL, NULL, 0));
#endif
  if (handle) printf("nvjpeg2kDestroy rc=%d\n", (int)nvjpeg2kDestroy(handle));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvjpeg2k_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
