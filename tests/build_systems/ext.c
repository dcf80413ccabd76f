/* A CPython extension linked by NVIDIA's link names (setup.py): versions() returns what the
 * runtime and cuBLAS answer, as (runtime rc, runtime version, cuBLAS rc, cuBLAS major). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

int cudaRuntimeGetVersion(int *runtimeVersion);
int cublasGetProperty(int type, int *value);

static PyObject *versions(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  int runtime = 0, cublas = 0;
  int rc = cudaRuntimeGetVersion(&runtime);
  int status = cublasGetProperty(0, &cublas);
  return Py_BuildValue("(iiii)", rc, runtime, status, cublas);
}

static PyMethodDef methods[] = {{"versions", versions, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "probe_ext", NULL, -1, methods};

PyMODINIT_FUNC PyInit_probe_ext(void) { return PyModule_Create(&module); }
