"""Issue 36 on a GPU, a program nobody here wrote: CuPy, as installed on the machine, loads
NVRTC 13.5's PTX (`.version 9.5`, newer than a CUDA 13.0 driver reads) with
`cupy.RawModule(path=...)` (its `cuModuleLoad`) and runs saxpy on 2^20 floats.
tests/gpu/ptx_newer.sh runs it as installed, then with `LD_PRELOAD=libstubs_cuda.so` (the
stubs' testing use: CuPy's own calls into the driver reach the driver stub).

    python3 cupy_ptx.py FILE.ptx
"""
import sys

import cupy as cp

path = sys.argv[1]
with open("/proc/self/maps") as maps:
    mapped = sorted({line.split()[-1].rsplit("/", 1)[-1] for line in maps
                     if "libcuda" in line or "libstubs_cuda" in line})
print(f"cupy {cp.__version__}: mapped {' '.join(mapped)}")
try:
    kernel = cp.RawModule(path=path).get_function("saxpy")
    n = 1 << 20
    x = cp.arange(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    kernel(((n + 255) // 256,), (256,), (cp.float32(2.0), x, y, cp.int32(n)))
    wrong = int((y != 2 * x + 1).sum())
    print(f"cupy: RawModule(path) loaded, launched, wrong={wrong}")
except Exception as e:  # what CuPy raises is the result being compared
    print(f"cupy: {type(e).__name__}: {e}")
