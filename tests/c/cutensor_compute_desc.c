/* cuTENSOR's compute descriptors (CUTENSOR_COMPUTE_DESC_32F …: `const cutensorComputeDescriptor_t`
 * data, pointers into the library) as a program uses them, compiled against NVIDIA's cutensor.h
 * of one major and linked either to libstubs_cutensor.so or to NVIDIA's libcutensor.so.2
 * (tests/cutensor.rs builds it with -fno-pic -no-pie: the descriptors are copy-relocated into
 * the executable, as in any program linked without PIC).
 *
 * What reaches the library is observed without a GPU through cuTENSOR's own API log: at level 5
 * every call is logged with its arguments ("... descCompute=0X7F..."), before the NULL handle
 * is refused (CUTENSOR_STATUS_INVALID_VALUE). A logger callback catches that value, which is
 * compared with the library's own descriptors: dlsym of each name in the libcutensor.so.2 the
 * process has (the stub loads it on the first call). Each line names what arrived, so both
 * builds print the same lines: through the stub, the stand-in the program read must arrive as
 * the real library's object of the same name; a pointer that is no stand-in (a descriptor of the
 * program's own, NULL) must arrive as given; a descriptor the loaded cuTENSOR lacks is refused
 * by the stub, never passed on ("not called"). With -DWITH_STATUS (the stub build), also whether
 * the program's values differ from the library's (they must: the stub's own stand-ins). */
#include <cutensor.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_VALUE UINT64_MAX

/* The descriptor value the last logged API call received, NO_VALUE when none was logged. */
static uint64_t logged = NO_VALUE;

static void logger(int32_t level, const char *function, const char *message) {
  (void)level;
  (void)function;
  const char *at = message ? strstr(message, "descCompute=") : NULL;
  if (at)
    logged = strtoull(at + strlen("descCompute="), NULL, 16);
}

struct named {
  const char *name;
  cutensorComputeDescriptor_t value; /* the program's: a stand-in in the stub build */
};

/* Every descriptor the header declares (2.2.0's six; 2.8's nine). */
static const char *const NAMES[] = {
    "CUTENSOR_COMPUTE_DESC_16F",  "CUTENSOR_COMPUTE_DESC_16BF", "CUTENSOR_COMPUTE_DESC_TF32",
    "CUTENSOR_COMPUTE_DESC_3XTF32", "CUTENSOR_COMPUTE_DESC_32F", "CUTENSOR_COMPUTE_DESC_64F",
#if CUTENSOR_VERSION >= 20500
    "CUTENSOR_COMPUTE_DESC_9X16BF", "CUTENSOR_COMPUTE_DESC_8XINT8", "CUTENSOR_COMPUTE_DESC_4X16F",
#endif
};
#define COUNT (sizeof NAMES / sizeof NAMES[0])

/* The library's own value of each name, 0 where the loaded cuTENSOR lacks it. */
static uint64_t real[COUNT];
static int bogus_target;

/* What `logged` is, in words both builds print alike. */
static void describe(const char *call, const char *arg, int rc) {
  printf("%s(%s) rc=%d descCompute=", call, arg, rc);
  if (logged == NO_VALUE) {
    printf("(not called)\n");
    return;
  }
  if (logged == 0) {
    printf("NULL\n");
    return;
  }
  if (logged == (uint64_t)(uintptr_t)&bogus_target) {
    printf("the program's own pointer\n");
    return;
  }
  for (size_t i = 0; i < COUNT; i++)
    if (real[i] && logged == real[i]) {
      printf("the library's %s\n", NAMES[i]);
      return;
    }
  printf("unknown to the library\n");
}

#define CALL(call, arg, ...)                                                                  \
  do {                                                                                       \
    cutensorOperationDescriptor_t op = NULL;                                                 \
    logged = NO_VALUE;                                                                       \
    int rc = (int)call(NULL, &op, __VA_ARGS__);                                              \
    describe(#call, arg, rc);                                                                \
  } while (0)

static void contraction(const char *arg, cutensorComputeDescriptor_t d) {
  CALL(cutensorCreateContraction, arg, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL, d);
}

int main(void) {
  struct named program[] = {
      {"CUTENSOR_COMPUTE_DESC_16F", CUTENSOR_COMPUTE_DESC_16F},
      {"CUTENSOR_COMPUTE_DESC_16BF", CUTENSOR_COMPUTE_DESC_16BF},
      {"CUTENSOR_COMPUTE_DESC_TF32", CUTENSOR_COMPUTE_DESC_TF32},
      {"CUTENSOR_COMPUTE_DESC_3XTF32", CUTENSOR_COMPUTE_DESC_3XTF32},
      {"CUTENSOR_COMPUTE_DESC_32F", CUTENSOR_COMPUTE_DESC_32F},
      {"CUTENSOR_COMPUTE_DESC_64F", CUTENSOR_COMPUTE_DESC_64F},
#if CUTENSOR_VERSION >= 20500
      {"CUTENSOR_COMPUTE_DESC_9X16BF", CUTENSOR_COMPUTE_DESC_9X16BF},
      {"CUTENSOR_COMPUTE_DESC_8XINT8", CUTENSOR_COMPUTE_DESC_8XINT8},
      {"CUTENSOR_COMPUTE_DESC_4X16F", CUTENSOR_COMPUTE_DESC_4X16F},
#endif
  };

  /* The first call: the stub build finds and loads the real library here. */
  printf("cutensorGetVersion version=%zu\n", cutensorGetVersion());
  printf("cutensorLoggerSetCallback rc=%d\n", (int)cutensorLoggerSetCallback(logger));
  /* The log's own lines (timestamps) kept off the output, before any is written. */
  printf("cutensorLoggerOpenFile rc=%d\n", (int)cutensorLoggerOpenFile("/dev/null"));
  printf("cutensorLoggerSetLevel rc=%d\n", (int)cutensorLoggerSetLevel(5));

  void *library = dlopen("libcutensor.so.2", RTLD_NOW | RTLD_NOLOAD);
  printf("libcutensor.so.2 loaded=%d\n", library != NULL);
  for (size_t i = 0; i < COUNT; i++) {
    void *object = library ? dlsym(library, NAMES[i]) : NULL;
    real[i] = object ? (uint64_t)(uintptr_t) * (cutensorComputeDescriptor_t *)object : 0;
#ifdef WITH_STATUS
    if (real[i])
      printf("stand-in %s differs=%d\n", NAMES[i],
             (uint64_t)(uintptr_t)program[i].value != real[i]);
#endif
  }

  /* Every descriptor through one call. */
  for (size_t i = 0; i < COUNT; i++)
    contraction(program[i].name, program[i].value);
  /* Pointers that are no stand-in pass as they are. */
  contraction("the program's own pointer", (cutensorComputeDescriptor_t)&bogus_target);
  contraction("NULL", NULL);

  /* Every other call taking a compute descriptor, with CUTENSOR_COMPUTE_DESC_32F. */
  const char *f32 = "CUTENSOR_COMPUTE_DESC_32F";
  cutensorComputeDescriptor_t d = CUTENSOR_COMPUTE_DESC_32F;
  CALL(cutensorCreateContractionTrinary, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_IDENTITY,
       NULL, NULL, d);
  CALL(cutensorCreateElementwiseBinary, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_ADD, d);
  CALL(cutensorCreateElementwiseTrinary, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_ADD,
       CUTENSOR_OP_ADD, d);
  CALL(cutensorCreatePermutation, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL, d);
  CALL(cutensorCreateReduction, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_ADD, d);
#if CUTENSOR_VERSION >= 20300
  CALL(cutensorCreateBlockSparseContraction, f32, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL,
       CUTENSOR_OP_IDENTITY, NULL, NULL, CUTENSOR_OP_IDENTITY, NULL, NULL, d);
#endif
  return 0;
}
