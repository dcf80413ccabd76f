"""GPU proof of the compatibility folder next to PyTorch cu13 (tests/gpu/compat.sh runs it):
``libgpu12.so`` (tests/gpu/abi_versions.c against CUDA 12.9's headers, linked against NVIDIA's
own ``libcudart.so.12``: a binary nobody rebuilds) is loaded after ``cuda_stubs.compat.enable()``
into a process whose one runtime is PyTorch's CUDA 13; its calls run on the GPU through the
compatibility ``libcudart.so.12``, a torch computation runs before and after, and
``/proc/self/maps`` holds exactly one real libcudart. ``argv[2]``: ``before`` imports torch
before ``enable()``, ``after`` after it (the stub then binds the runtime wheel torch loads
itself)."""

import ctypes
import os
import sys

lib, order = sys.argv[1], sys.argv[2]


def torch_step():
    import torch

    x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    s = float((x * 2).sum().item())
    ok = s == float((1 << 20) * ((1 << 20) - 1))
    print(f"torch {torch.__version__} cuda {torch.version.cuda}: sum {'PASS' if ok else 'FAIL'} {s}")
    return ok


import cuda_stubs  # noqa: E402

ok = True
if order == "before":
    ok &= torch_step()
done = cuda_stubs.compat.enable(("cudart",))
print("enabled:", done)
failed = ctypes.CDLL(lib).run_cuda12()
print(f"libgpu12.so: {'ALL PASS' if failed == 0 else f'{failed} FAILED'}")
ok &= failed == 0
if order == "after":
    ok &= torch_step()
ok &= torch_step()
maps = {l.split(None, 5)[5].strip() for l in open("/proc/self/maps") if len(l.split(None, 5)) == 6}
runtimes = sorted(p for p in maps if "/libcudart.so" in p)
real = [p for p in runtimes if "/cuda-stubs-compat/" not in p]
print("libcudart mapped:", runtimes)
if len(real) != 1:
    print(f"FAIL: {len(real)} real runtimes: {real}")
    ok = False
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
