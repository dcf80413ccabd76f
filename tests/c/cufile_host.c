/* cuFile (GPUDirect Storage), compiled against NVIDIA's cufile.h of one major and linked either
 * to libstubs_cufile.so or, for comparison, to NVIDIA's libcufile.so.0 itself
 * (tests/cufile.rs). Runs the calls its arguments name, in order, one line each: the status
 * struct's two codes (err, cu_err) or the returned value. Calls of cuFile 1.15+ (CUDA 13) are
 * declared weak here: a program linked normally to 1.14 has none, and says so. With
 * -DWITH_STATUS (the stub build), also what the stub says (cuda_stubs.h). The file the handle
 * calls register is the program itself (/proc/self/exe), opened O_RDONLY. */
#define _GNU_SOURCE
#include <cufile.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef WITH_STATUS
#include "cuda_stubs.h"
#endif

/* cuFile 1.15+ (cufile.h of CUDA 13), weak: NULL where nothing defines them. The vector is
 * named by its struct tag, which 1.14's header lacks (CUfileIOVec_t is its typedef in 13.x's). */
struct CUfileIOVec;
CUfileError_t cuFileGetStatsLevel(int *level);
ssize_t cuFileReadv(CUfileHandle_t fh, const struct CUfileIOVec *iov, size_t iovcnt,
                    off_t file_offset, unsigned flags);
#pragma weak cuFileGetStatsLevel
#pragma weak cuFileReadv

static void status(const char *call, CUfileError_t e) {
  printf("%s err=%d cu_err=%d\n", call, (int)e.err, (int)e.cu_err);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  CUfileHandle_t fh = NULL;
  for (int i = 1; i < argc; i++) {
    const char *c = argv[i];
    if (!strcmp(c, "version")) {
      int v = -1;
      CUfileError_t e = cuFileGetVersion(&v);
      printf("cuFileGetVersion err=%d cu_err=%d version=%d\n", (int)e.err, (int)e.cu_err, v);
    } else if (!strcmp(c, "open")) {
      status("cuFileDriverOpen", cuFileDriverOpen());
    } else if (!strcmp(c, "close")) {
      /* cufile.h maps cuFileDriverClose to cuFileDriverClose_v2. */
      status("cuFileDriverClose", cuFileDriverClose());
    } else if (!strcmp(c, "usecount")) {
      printf("cuFileUseCount %ld\n", cuFileUseCount());
    } else if (!strcmp(c, "properties")) {
      CUfileDrvProps_t p;
      memset(&p, 0, sizeof p);
      status("cuFileDriverGetProperties", cuFileDriverGetProperties(&p));
    } else if (!strcmp(c, "parameters")) {
      size_t size = 12345;
      bool flag = true;
      char text[64] = "unset";
      CUfileError_t e =
          cuFileGetParameterSizeT(CUFILE_PARAM_PROPERTIES_MAX_DIRECT_IO_SIZE_KB, &size);
      printf("cuFileGetParameterSizeT err=%d cu_err=%d value=%zu\n", (int)e.err, (int)e.cu_err,
             size);
      e = cuFileGetParameterBool(CUFILE_PARAM_PROPERTIES_ALLOW_COMPAT_MODE, &flag);
      printf("cuFileGetParameterBool err=%d cu_err=%d value=%d\n", (int)e.err, (int)e.cu_err,
             (int)flag);
      e = cuFileGetParameterString(CUFILE_PARAM_LOGGING_LEVEL, text, (int)sizeof text);
      printf("cuFileGetParameterString err=%d cu_err=%d value=[%s]\n", (int)e.err,
             (int)e.cu_err, text);
      status("cuFileSetParameterSizeT",
             cuFileSetParameterSizeT(CUFILE_PARAM_PROPERTIES_MAX_DIRECT_IO_SIZE_KB, 16384));
    } else if (!strcmp(c, "register")) {
      int fd = open("/proc/self/exe", O_RDONLY);
      CUfileDescr_t d;
      memset(&d, 0, sizeof d);
      d.type = CU_FILE_HANDLE_TYPE_OPAQUE_FD;
      d.handle.fd = fd;
      status("cuFileHandleRegister", cuFileHandleRegister(&fh, &d));
    } else if (!strcmp(c, "buffer")) {
      static char buf[4096];
      status("cuFileBufRegister", cuFileBufRegister(buf, sizeof buf, 0));
    } else if (!strcmp(c, "read")) {
      char buf[64];
      printf("cuFileRead(%s) %zd\n", fh ? "handle" : "NULL", cuFileRead(fh, buf, 16, 0, 0));
    } else if (!strcmp(c, "write")) {
      char buf[64] = {0};
      printf("cuFileWrite(%s) %zd\n", fh ? "handle" : "NULL", cuFileWrite(fh, buf, 16, 0, 0));
    } else if (!strcmp(c, "v2")) {
      /* 1.15+: what the program has of them. */
      if (&cuFileGetStatsLevel != NULL) {
        int level = -1;
        CUfileError_t e = cuFileGetStatsLevel(&level);
        printf("v2 cuFileGetStatsLevel err=%d cu_err=%d level=%d\n", (int)e.err, (int)e.cu_err,
               level);
      } else {
        printf("v2 cuFileGetStatsLevel not in the program\n");
      }
      if (&cuFileReadv != NULL) {
        printf("v2 cuFileReadv(NULL) %zd\n", cuFileReadv(NULL, NULL, 0, 0, 0));
      } else {
        printf("v2 cuFileReadv not in the program\n");
      }
    } else {
      fprintf(stderr, "unknown call %s\n", c);
      return 2;
    }
  }

#ifdef WITH_STATUS
  cuda_stubs_status s;
  if (cuda_stubs_cufile_status(&s) == 0) {
    printf("status bound=%d version=%d found_by=%s\n", s.bound, s.version,
           s.found_by ? s.found_by : "(null)");
    printf("status message=%s\n", s.message ? s.message : "(null)");
  }
#endif
  return 0;
}
