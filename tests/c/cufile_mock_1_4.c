/* A stand-in for a cuFile of CUDA 11 (1.4: cuFileGetVersion answers 1040), built as
 * libcufile.so.0 by tests/tests/cufile.rs: every I/O call it exports answers 4242 bytes, which
 * the stub must never pass on, nor 0, since the stub's declarations give these calls no CUDA 11
 * ABI: the stub's "absent" code, negated. */
#include <stddef.h>
#include <sys/types.h>

typedef struct {
  int err;
  int cu_err;
} CUfileError_t;

CUfileError_t cuFileGetVersion(int *version) {
  CUfileError_t ok = {0, 0};
  if (version) *version = 1040;
  return ok;
}

ssize_t cuFileRead(void *fh, void *buf, size_t size, off_t file_offset, off_t buf_offset) {
  (void)fh, (void)buf, (void)size, (void)file_offset, (void)buf_offset;
  return 4242;
}

ssize_t cuFileReadv(void *fh, const void *iov, int iovcnt, unsigned flags, void *reserved) {
  (void)fh, (void)iov, (void)iovcnt, (void)flags, (void)reserved;
  return 4242;
}
