/* stubs_example._native: the CUDA runtime, NVRTC and (for the GPU path only) the driver API,
 * called through the cuda-stubs libraries this module links instead of NVIDIA's. Every function
 * returns the library's own status code to Python (stubs_example/__init__.py turns non-zero
 * codes into typed exceptions), so a caller sees the same codes with or without CUDA.
 *
 * No CUDA headers at build time: the few prototypes used are declared below with their C ABI
 * (enums are int-sized, handles are pointers), exactly as NVIDIA's headers declare them. The
 * stubs' own status API comes from cuda_stubs.h, which the cuda-stubs CMake targets put on the
 * include path.
 *
 * Built against CPython's stable ABI (Py_LIMITED_API 3.8, set by CMakeLists.txt): the one wheel
 * installs on every CPython from 3.8, next to whatever PyTorch the environment has. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_stubs.h"

/* cuda_runtime_api.h */
typedef int cudaError_t;
extern cudaError_t cudaRuntimeGetVersion(int *version);
extern const char *cudaGetErrorName(cudaError_t error);
extern cudaError_t cudaGetDeviceCount(int *count);
extern cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
extern cudaError_t cudaSetDevice(int device);
extern cudaError_t cudaFree(void *ptr);
extern cudaError_t cudaMalloc(void **ptr, size_t size);
extern cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
extern cudaError_t cudaDeviceSynchronize(void);
enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
enum { cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76 };

/* nvrtc.h */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
extern nvrtcResult nvrtcVersion(int *major, int *minor);
extern const char *nvrtcGetErrorString(nvrtcResult result);
extern nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int num_headers,
                                      const char *const *headers, const char *const *include_names);
extern nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int num_options, const char *const *options);
extern nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *size);
extern nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log);
extern nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *size);
extern nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin);
extern nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog);

/* cuda.h: unversioned names (no _v2 macro renames apply to these five). */
typedef int CUresult;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
extern CUresult cuModuleLoadData(CUmodule *module, const void *image);
extern CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name);
extern CUresult cuLaunchKernel(CUfunction fn, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                               unsigned block_y, unsigned block_z, unsigned shared_bytes, void *stream, void **params,
                               void **extra);
extern CUresult cuModuleUnload(CUmodule module);
extern CUresult cuGetErrorName(CUresult error, const char **name);

/* The kernel NVRTC compiles: extern "C" keeps the name unmangled for cuModuleGetFunction. */
static const char KERNEL[] =
    "extern \"C\" __global__ void scale(float *x, float a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n";

static PyObject *text_or_none(const char *s) {
  if (s == NULL) Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* status(name) -> dict: what the stub `name` ("cudart", "nvrtc", "cuda") bound, from the stubs'
 * own C API (cuda_stubs.h), i.e. the answer of the very library this module links. */
static PyObject *py_status(PyObject *self, PyObject *arg) {
  (void)self;
  const char *name;
  if (!PyArg_Parse(arg, "s", &name)) return NULL;
  cuda_stubs_status s;
  int rc;
  if (strcmp(name, "cudart") == 0) {
    rc = cuda_stubs_cudart_status(&s);
  } else if (strcmp(name, "nvrtc") == 0) {
    rc = cuda_stubs_nvrtc_status(&s);
  } else if (strcmp(name, "cuda") == 0) {
    rc = cuda_stubs_cuda_status(&s);
  } else {
    return PyErr_Format(PyExc_ValueError, "no stub named %R (cudart, nvrtc, cuda)", arg);
  }
  if (rc != 0) return PyErr_Format(PyExc_RuntimeError, "cuda_stubs_%s_status returned %d", name, rc);
  PyObject *path = text_or_none(s.path), *found_by = text_or_none(s.found_by), *message = text_or_none(s.message);
  PyObject *out = NULL;
  if (path && found_by && message) {
    out = Py_BuildValue("{s:O,s:i,s:O,s:O,s:O}", "bound", s.bound ? Py_True : Py_False, "version", s.version, "path",
                        path, "found_by", found_by, "message", message);
  }
  Py_XDECREF(path);
  Py_XDECREF(found_by);
  Py_XDECREF(message);
  return out;
}

/* runtime_version() -> (rc, version): cudaRuntimeGetVersion as the linked runtime answers. */
static PyObject *py_runtime_version(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  int version = 0;
  cudaError_t rc = cudaRuntimeGetVersion(&version);
  return Py_BuildValue("(ii)", (int)rc, version);
}

/* nvrtc_version() -> (rc, major, minor) */
static PyObject *py_nvrtc_version(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  int major = 0, minor = 0;
  nvrtcResult rc = nvrtcVersion(&major, &minor);
  return Py_BuildValue("(iii)", (int)rc, major, minor);
}

/* error_name(library, code) -> str: the library's own name for a code (answered by the stubs
 * even when no real library is bound). */
static PyObject *py_error_name(PyObject *self, PyObject *args) {
  (void)self;
  const char *library;
  int code;
  if (!PyArg_ParseTuple(args, "si", &library, &code)) return NULL;
  const char *name = NULL;
  if (strcmp(library, "cudart") == 0) {
    name = cudaGetErrorName(code);
  } else if (strcmp(library, "nvrtc") == 0) {
    name = nvrtcGetErrorString(code);
  } else if (strcmp(library, "cuda") == 0) {
    if (cuGetErrorName(code, &name) != 0) name = NULL;
  } else {
    return PyErr_Format(PyExc_ValueError, "no library named %s (cudart, nvrtc, cuda)", library);
  }
  return text_or_none(name);
}

/* compile_cubin(arch) -> (rc, cubin bytes or None, log): KERNEL compiled by NVRTC for sm_<arch>.
 * `--gpu-architecture=sm_XX` (a real architecture, not compute_XX) makes NVRTC produce SASS in a CUBIN. */
static PyObject *py_compile_cubin(PyObject *self, PyObject *args) {
  (void)self;
  int arch;
  if (!PyArg_ParseTuple(args, "i", &arch)) return NULL;
  char option[32];
  snprintf(option, sizeof option, "--gpu-architecture=sm_%d", arch);
  const char *options[] = {option};
  nvrtcProgram prog = NULL;
  char *log = NULL, *cubin = NULL;
  size_t log_size = 0, cubin_size = 0;
  PyObject *out = NULL;

  nvrtcResult rc = nvrtcCreateProgram(&prog, KERNEL, "scale.cu", 0, NULL, NULL);
  if (rc != 0) return Py_BuildValue("(iOs)", (int)rc, Py_None, "");
  nvrtcResult compiled = nvrtcCompileProgram(prog, 1, options);
  /* The log explains a failed compile; read it either way. */
  if (nvrtcGetProgramLogSize(prog, &log_size) == 0 && log_size > 0 && (log = calloc(log_size, 1)) != NULL &&
      nvrtcGetProgramLog(prog, log) != 0) {
    log[0] = '\0';
  }
  rc = compiled;
  if (rc == 0) rc = nvrtcGetCUBINSize(prog, &cubin_size);
  if (rc == 0 && (cubin = malloc(cubin_size ? cubin_size : 1)) == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  if (rc == 0) rc = nvrtcGetCUBIN(prog, cubin);
  if (rc == 0) {
    out = Py_BuildValue("(iy#s)", 0, cubin, (Py_ssize_t)cubin_size, log ? log : "");
  } else {
    out = Py_BuildValue("(iOs)", (int)rc, Py_None, log ? log : "");
  }
done:
  nvrtcDestroyProgram(&prog);
  free(cubin);
  free(log);
  return out;
}

/* device_count() -> (rc, count) */
static PyObject *py_device_count(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  return Py_BuildValue("(ii)", (int)rc, count);
}

/* compute_capability(device) -> (rc, major, minor): the arch a CUBIN for this device needs. */
static PyObject *py_compute_capability(PyObject *self, PyObject *args) {
  (void)self;
  int device, major = 0, minor = 0;
  if (!PyArg_ParseTuple(args, "i", &device)) return NULL;
  cudaError_t rc = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (rc == 0) rc = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  return Py_BuildValue("(iii)", (int)rc, major, minor);
}

/* The CUBIN's `scale` kernel over n floats at the device pointer `device`, in the calling
 * thread's current context (the caller made device 0's primary context current), on the legacy
 * default stream, then cudaDeviceSynchronize. On the first failing call it returns that
 * library's code and sets `library` to its name; 0 and "" on success. */
static int scale_on_device(const char *image, void *device, int n, float factor, const char **library) {
  CUmodule module = NULL;
  CUfunction fn = NULL;
  int rc;
  *library = "cuda";
  if ((rc = cuModuleLoadData(&module, image)) || (rc = cuModuleGetFunction(&fn, module, "scale"))) goto done;
  void *params[] = {&device, &factor, &n};
  if ((rc = cuLaunchKernel(fn, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0, NULL, params, NULL))) goto done;
  *library = "cudart";
  rc = cudaDeviceSynchronize();
done:
  if (module) cuModuleUnload(module);
  if (rc == 0) *library = "";
  return rc;
}

/* scale(cubin, device, n, factor) -> (library, rc): scale_on_device in device 0's primary context
 * (cudaSetDevice(0) and cudaFree(0) make it current: the context PyTorch and every runtime user
 * share). */
static PyObject *py_scale(PyObject *self, PyObject *args) {
  (void)self;
  const char *image;
  Py_ssize_t image_size;
  unsigned long long device;
  int n;
  float factor;
  if (!PyArg_ParseTuple(args, "y#Kif", &image, &image_size, &device, &n, &factor)) return NULL;
  if (n <= 0 || device == 0) return PyErr_Format(PyExc_ValueError, "need n > 0 and a device pointer");
  const char *library = "cudart";
  int rc = cudaSetDevice(0);
  if (rc == 0) rc = cudaFree(NULL);
  if (rc == 0) rc = scale_on_device(image, (void *)(uintptr_t)device, n, factor, &library);
  return Py_BuildValue("(si)", library, rc);
}

/* launch(cubin, n, factor) -> (library, rc, list or None): x[i] = i in memory of its own
 * (cudaMalloc), scaled by scale_on_device and copied back. */
static PyObject *py_launch(PyObject *self, PyObject *args) {
  (void)self;
  const char *image;
  Py_ssize_t image_size;
  int n;
  float factor;
  if (!PyArg_ParseTuple(args, "y#if", &image, &image_size, &n, &factor)) return NULL;
  if (n <= 0) return PyErr_Format(PyExc_ValueError, "n must be positive, not %d", n);
  size_t bytes = (size_t)n * sizeof(float);
  float *host = malloc(bytes);
  void *device = NULL;
  const char *library = "cudart";
  int rc;
  PyObject *out = NULL;
  if (host == NULL) return PyErr_NoMemory();
  for (int i = 0; i < n; i++) host[i] = (float)i;

  if ((rc = cudaSetDevice(0)) || (rc = cudaFree(NULL)) || (rc = cudaMalloc(&device, bytes)) ||
      (rc = cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice)))
    goto done;
  if ((rc = scale_on_device(image, device, n, factor, &library))) goto done;
  library = "cudart";
  if ((rc = cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost))) goto done;
  PyObject *values = PyList_New(n);
  if (values == NULL) goto done;
  for (int i = 0; i < n; i++) {
    PyObject *v = PyFloat_FromDouble(host[i]);
    if (v == NULL || PyList_SetItem(values, i, v) != 0) {
      Py_DECREF(values);
      goto done;
    }
  }
  out = Py_BuildValue("(siN)", "", 0, values);
done:
  if (out == NULL && !PyErr_Occurred()) out = Py_BuildValue("(siO)", library, rc, Py_None);
  if (device) cudaFree(device);
  free(host);
  return out;
}

static PyMethodDef methods[] = {
    {"status", py_status, METH_O, "status(name) -> dict: what the stub `name` bound"},
    {"runtime_version", py_runtime_version, METH_NOARGS, "runtime_version() -> (rc, version)"},
    {"nvrtc_version", py_nvrtc_version, METH_NOARGS, "nvrtc_version() -> (rc, major, minor)"},
    {"error_name", py_error_name, METH_VARARGS, "error_name(library, code) -> str"},
    {"compile_cubin", py_compile_cubin, METH_VARARGS, "compile_cubin(arch) -> (rc, cubin, log)"},
    {"device_count", py_device_count, METH_NOARGS, "device_count() -> (rc, count)"},
    {"compute_capability", py_compute_capability, METH_VARARGS, "compute_capability(device) -> (rc, major, minor)"},
    {"launch", py_launch, METH_VARARGS, "launch(cubin, n, factor) -> (library, rc, values)"},
    {"scale", py_scale, METH_VARARGS, "scale(cubin, device_pointer, n, factor) -> (library, rc)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_native", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module_def); }
