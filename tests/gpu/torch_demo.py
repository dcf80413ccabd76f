"""GPU demo (device machine): the example wheel next to PyTorch. usage: torch_demo.py before|after
before: the extension makes the process's first CUDA runtime call, then `import torch`;
after: `import torch` and a CUDA tensor first, then the extension. Either way the extension's
kernel (compiled by NVRTC through the stub) scales a torch tensor in place, and /proc/self/maps
must hold exactly one libcudart."""
import os, sys

def mapped(word):
    with open("/proc/self/maps") as f:
        return sorted({l.split()[-1] for l in f if word in l.split()[-1]})

order = sys.argv[1]
if order == "before":
    import stubs_example
    print("runtime version via stub (first CUDA call in the process):", stubs_example.runtime_version())
    print("libcudart mapped before import torch:", mapped("libcudart"))
    import torch
    x = torch.arange(1 << 20, dtype=torch.float32, device="cuda")
else:
    import torch
    x = torch.arange(1 << 20, dtype=torch.float32, device="cuda")
    print("libcudart mapped after torch's first tensor:", mapped("libcudart"))
    import stubs_example
    print("runtime version via stub:", stubs_example.runtime_version())
major, minor = stubs_example.compute_capability()
cubin = stubs_example.compile_cubin(10 * major + minor)
stubs_example.scale_device_buffer(cubin, x.data_ptr(), x.numel(), 3.0)
torch.cuda.synchronize()
expected = torch.arange(1 << 20, dtype=torch.float32) * 3.0
ok = torch.equal(x.cpu(), expected)
print("torch", torch.__version__, "torch.version.cuda", torch.version.cuda, "device", torch.cuda.get_device_name())
for name in ("cudart", "nvrtc", "cuda"):
    s = stubs_example.status(name)
    print(f"stub {name}: bound={s['bound']} version={s['version']} found_by={s['found_by']!r} path={s['path']}")
cudart = mapped("libcudart")
print("libcudart mapped at the end:", cudart)
print("libnvrtc mapped:", mapped("libnvrtc"), " libcuda mapped:", mapped("libcuda.so"))
print(f"kernel on torch tensor: {'correct' if ok else 'WRONG'} (x[:4] = {x[:4].tolist()})")
sys.exit(0 if ok and len(cudart) == 1 else 1)
