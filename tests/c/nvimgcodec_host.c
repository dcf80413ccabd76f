/* nvImageCodec, compiled against NVIDIA's nvimgcodec.h of one major (0.6 for CUDA 11, 0.9 for 12
 * and 13) and linked either to libstubs_nvimgcodec.so or, for comparison, to NVIDIA's
 * libnvimgcodec.so.0 itself (tests/nvimgcodec.rs). Prints one line per call: the library's
 * properties (its version and its runtime's), an instance (builtin modules only: no extension is
 * loaded), a CPU-only decoder, a code stream over a few bytes of host memory (whose prototype
 * and structs 0.9 changed: "codestream" lines, which the stub refuses on another major's
 * library), and the instance destroyed. With -DWITH_STATUS (the stub build), also what the stub
 * says (cuda_stubs.h). */
#include <nvimgcodec.h>
#include <stdio.h>
#include <string.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

int main(void) {
  nvimgcodecProperties_t properties;
  memset(&properties, 0, sizeof properties);
  properties.struct_type = NVIMGCODEC_STRUCTURE_TYPE_PROPERTIES;
  properties.struct_size = sizeof properties;
  int rc = (int)nvimgcodecGetProperties(&properties);
  printf("nvimgcodecGetProperties rc=%d version=%u cudart_version=%u\n", rc, properties.version,
         properties.cudart_version);

  nvimgcodecInstanceCreateInfo_t info;
  memset(&info, 0, sizeof info);
  info.struct_type = NVIMGCODEC_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.struct_size = sizeof info;
  info.load_builtin_modules = 1;
  info.load_extension_modules = 0;
  nvimgcodecInstance_t instance = NULL;
  rc = (int)nvimgcodecInstanceCreate(&instance, &info);
  printf("nvimgcodecInstanceCreate rc=%d instance=%s\n", rc, instance ? "set" : "NULL");

  nvimgcodecExecutionParams_t exec;
  memset(&exec, 0, sizeof exec);
  exec.struct_type = NVIMGCODEC_STRUCTURE_TYPE_EXECUTION_PARAMS;
  exec.struct_size = sizeof exec;
  exec.device_id = NVIMGCODEC_DEVICE_CPU_ONLY;
  nvimgcodecDecoder_t decoder = NULL;
  rc = (int)nvimgcodecDecoderCreate(instance, &decoder, &exec, NULL);
  printf("nvimgcodecDecoderCreate(cpu only) rc=%d decoder=%s\n", rc, decoder ? "set" : "NULL");
  if (decoder) printf("nvimgcodecDecoderDestroy rc=%d\n", (int)nvimgcodecDecoderDestroy(decoder));

  /* A BMP signature cut short: no parser of the builtin modules takes it. */
  static const unsigned char bytes[] = {'B', 'M', 0x3a, 0, 0, 0};
  nvimgcodecCodeStream_t stream = NULL;
#if NVIMGCODEC_VER_MAJOR == 0 && NVIMGCODEC_VER_MINOR < 7
  rc = (int)nvimgcodecCodeStreamCreateFromHostMem(instance, &stream, bytes, sizeof bytes);
#else
  rc = (int)nvimgcodecCodeStreamCreateFromHostMem(instance, &stream, bytes, sizeof bytes, NULL);
#endif
  printf("codestream nvimgcodecCodeStreamCreateFromHostMem (header 0.%d) rc=%d\n",
         NVIMGCODEC_VER_MINOR, rc);
  if (stream) nvimgcodecCodeStreamDestroy(stream);

  if (instance) printf("nvimgcodecInstanceDestroy rc=%d\n", (int)nvimgcodecInstanceDestroy(instance));
  printf("nvimgcodecInstanceDestroy(NULL) rc=%d\n", (int)nvimgcodecInstanceDestroy(NULL));

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_nvimgcodec_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
