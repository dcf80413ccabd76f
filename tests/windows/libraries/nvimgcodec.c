/* nvImageCodec on Windows (tests/windows/win_math.c runs it as the command `nvimgcodec`): its own
 * version and the runtime it was built with (nvimgcodecGetProperties, a self-describing struct),
 * an instance with the builtin modules only, and a CPU-only decoder, none of which needs a
 * device. */
#include <stdio.h>
#include <string.h>

#include <nvimgcodec.h>

void cmd_nvimgcodec(void) {
  nvimgcodecProperties_t p;
  memset(&p, 0, sizeof p);
  p.struct_type = NVIMGCODEC_STRUCTURE_TYPE_PROPERTIES;
  p.struct_size = sizeof p;
  nvimgcodecStatus_t rc = nvimgcodecGetProperties(&p);
  printf("nvimgcodecGetProperties rc=%d cudart=%u\n", (int)rc, p.cudart_version);
  /* Its own version, 1000 * major + 100 * minor + patch (900 for 0.9.0). */
  if (rc == NVIMGCODEC_STATUS_SUCCESS)
    printf("version nvimgcodec %u.%u.%u\n", p.version / 1000, p.version % 1000 / 100, p.version % 100);
  nvimgcodecInstanceCreateInfo_t info;
  memset(&info, 0, sizeof info);
  info.struct_type = NVIMGCODEC_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.struct_size = sizeof info;
  info.load_builtin_modules = 1;
  nvimgcodecInstance_t instance = NULL;
  rc = nvimgcodecInstanceCreate(&instance, &info);
  printf("nvimgcodecInstanceCreate rc=%d\n", (int)rc);
  nvimgcodecExecutionParams_t exec;
  memset(&exec, 0, sizeof exec);
  exec.struct_type = NVIMGCODEC_STRUCTURE_TYPE_EXECUTION_PARAMS;
  exec.struct_size = sizeof exec;
  exec.device_id = NVIMGCODEC_DEVICE_CPU_ONLY;
  nvimgcodecDecoder_t decoder = NULL;
  rc = nvimgcodecDecoderCreate(instance, &decoder, &exec, NULL);
  printf("nvimgcodecDecoderCreate(cpu only) rc=%d\n", (int)rc);
  if (decoder) nvimgcodecDecoderDestroy(decoder);
  if (instance) nvimgcodecInstanceDestroy(instance);
}
