# A setuptools extension with the link arguments torch.utils.cpp_extension.CUDAExtension passes:
# NVIDIA's link names and the toolkit's lib64. Switched to the stubs only from the environment:
# LDFLAGS="-L<linkdir> ..." (setuptools puts LDFLAGS before the extension's -L folders).
import os

from setuptools import Extension, setup

cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
setup(
    name="probe-ext",
    version="0",
    ext_modules=[
        Extension(
            "probe_ext",
            sources=["ext.c"],
            libraries=["cudart", "cublas"],
            library_dirs=[os.path.join(cuda, "lib64")],
        )
    ],
)
