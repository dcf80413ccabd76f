/* GPU proof of the cuFile stub (tests/gpu/cufile.sh): GPUDirect Storage I/O between a file and
 * GPU memory, in compatibility mode where the machine has no nvidia-fs (allowed here through
 * cuFileSetParameterBool before the driver opens). Usage: cufile_io DIR. Writes DIR/in.bin (4 MiB
 * of a known pattern) with POSIX I/O; opens the cuFile driver, registers a 1 MiB device buffer
 * and the file, reads 1 MiB at offset 64 KiB into GPU memory (cuFileRead) and checks it on the
 * host; changes the buffer on the GPU, writes it to DIR/out.bin (cuFileWrite) and checks the
 * file with POSIX I/O; deregisters and closes. Built against the machine's headers, linked
 * either to the stubs (libstubs_cufile, libstubs_cudart) or normally (libcufile, libcudart).
 * Prints every call's answer (both codes of cuFile's status struct) and PASS/FAIL lines; exits
 * non-zero on any failure. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <cufile.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_SIZE (4 << 20)
#define IO_SIZE (1 << 20)
#define OFFSET (64 << 10)

static int failed;

static int check(const char *call, CUfileError_t e) {
  printf("%s err=%d cu_err=%d\n", call, (int)e.err, (int)e.cu_err);
  if (e.err != CU_FILE_SUCCESS) {
    printf("FAIL %s\n", call);
    failed = 1;
  }
  return e.err != CU_FILE_SUCCESS;
}

static unsigned char pattern(long i) { return (unsigned char)((i * 7 + (i >> 12)) & 0xff); }

/* O_DIRECT where the file system has it (GPUDirect Storage needs it), else plain. */
static int open_file(const char *path, int flags) {
  int fd = open(path, flags | O_DIRECT, 0644);
  if (fd < 0 && errno == EINVAL) fd = open(path, flags, 0644);
  return fd;
}

static CUfileHandle_t register_file(int fd) {
  CUfileDescr_t d;
  memset(&d, 0, sizeof d);
  d.type = CU_FILE_HANDLE_TYPE_OPAQUE_FD;
  d.handle.fd = fd;
  CUfileHandle_t fh = NULL;
  check("cuFileHandleRegister", cuFileHandleRegister(&fh, &d));
  return fh;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: cufile_io DIR\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  char in[4096], out[4096];
  snprintf(in, sizeof in, "%s/in.bin", argv[1]);
  snprintf(out, sizeof out, "%s/out.bin", argv[1]);
  unsigned char *host = malloc(FILE_SIZE);
  if (!host) return 1;
  for (long i = 0; i < FILE_SIZE; i++) host[i] = pattern(i);
  FILE *f = fopen(in, "wb");
  if (!f || fwrite(host, 1, FILE_SIZE, f) != FILE_SIZE || fclose(f) != 0) {
    printf("FAIL writing %s\n", in);
    return 1;
  }

  int version = -1;
  check("cuFileGetVersion", cuFileGetVersion(&version));
  printf("cuFile version %d\n", version);
  check("cuFileSetParameterBool(ALLOW_COMPAT_MODE)",
        cuFileSetParameterBool(CUFILE_PARAM_PROPERTIES_ALLOW_COMPAT_MODE, true));
  if (cudaSetDevice(0) != cudaSuccess) {
    printf("FAIL cudaSetDevice\n");
    return 1;
  }
  if (check("cuFileDriverOpen", cuFileDriverOpen())) return 1;
  void *dev = NULL;
  if (cudaMalloc(&dev, IO_SIZE) != cudaSuccess) {
    printf("FAIL cudaMalloc\n");
    return 1;
  }
  check("cuFileBufRegister", cuFileBufRegister(dev, IO_SIZE, 0));

  int fd = open_file(in, O_RDONLY);
  CUfileHandle_t fh = fd >= 0 ? register_file(fd) : NULL;
  if (fh) {
    cudaMemset(dev, 0, IO_SIZE);
    ssize_t n = cuFileRead(fh, dev, IO_SIZE, OFFSET, 0);
    printf("cuFileRead %zd\n", n);
    unsigned char *back = malloc(IO_SIZE);
    int wrong = 0;
    if (back && cudaMemcpy(back, dev, IO_SIZE, cudaMemcpyDeviceToHost) == cudaSuccess)
      for (long i = 0; i < IO_SIZE; i++) wrong += back[i] != pattern(OFFSET + i);
    else
      wrong = -1;
    printf("%s cuFileRead into GPU memory: %zd bytes, %d wrong\n",
           n == IO_SIZE && wrong == 0 ? "PASS" : "FAIL", n, wrong);
    failed |= !(n == IO_SIZE && wrong == 0);
    free(back);
    cuFileHandleDeregister(fh);
  } else {
    printf("FAIL no file handle for in.bin\n");
    failed = 1;
  }
  if (fd >= 0) close(fd);

  fd = open_file(out, O_RDWR | O_CREAT | O_TRUNC);
  fh = fd >= 0 ? register_file(fd) : NULL;
  if (fh) {
    cudaMemset(dev, 0x5a, IO_SIZE);
    cudaDeviceSynchronize();
    ssize_t n = cuFileWrite(fh, dev, IO_SIZE, 0, 0);
    printf("cuFileWrite %zd\n", n);
    cuFileHandleDeregister(fh);
    close(fd);
    fd = -1;
    FILE *g = fopen(out, "rb");
    size_t got = g ? fread(host, 1, FILE_SIZE, g) : 0;
    if (g) fclose(g);
    int wrong = 0;
    for (size_t i = 0; i < got; i++) wrong += host[i] != 0x5a;
    printf("%s cuFileWrite from GPU memory: %zd bytes, file %zu bytes, %d wrong\n",
           n == IO_SIZE && got == IO_SIZE && wrong == 0 ? "PASS" : "FAIL", n, got, wrong);
    failed |= !(n == IO_SIZE && got == IO_SIZE && wrong == 0);
  } else {
    printf("FAIL no file handle for out.bin\n");
    failed = 1;
  }
  if (fd >= 0) close(fd);

  check("cuFileBufDeregister", cuFileBufDeregister(dev));
  cudaFree(dev);
  check("cuFileDriverClose", cuFileDriverClose());
  free(host);
  return failed;
}
