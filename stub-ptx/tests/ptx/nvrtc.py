#!/usr/bin/env python3
"""Compiles the CUDA sources beside this script to PTX with NVIDIA's NVRTC (the wheel that
scripts/fetch-cuda.py caches), so that the parser is tested on what NVRTC really emits:

    python3 stub-ptx/tests/ptx/nvrtc.py [path/to/libnvrtc.so.13] [--arch compute_80] [NAME.cu ...]

Each NAME.cu (or only those named) becomes NAME.ptx (with a header comment naming NVRTC's
version and options); a first line `// nvrtc: --gpu-architecture=compute_90` sets that file's
architecture (instructions newer than compute_80, e.g. stmatrix). CUDA_STUBS_NVRTC_INCLUDE
(directories, ':'-separated) adds include directories: cooperative groups' headers need CCCL's
(`nv/target`, `cuda/std/...`), which NVIDIA ships in its own wheel (nvidia-cuda-cccl:
`.../nvidia/cu13/include/cccl`).
The crate's tests read the .ptx files; they never need NVRTC."""
import ctypes, glob, os, sys

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.endswith(".cu")]
only = [os.path.basename(a) for a in sys.argv[1:] if a.endswith(".cu")]
arch = "compute_80"
if "--arch" in args:
    i = args.index("--arch"); arch = args[i + 1]; del args[i:i + 2]
lib = args[0] if args else os.path.expanduser("~/.cache/cuda-stubs/cuda-13/nvidia/cu13/lib/libnvrtc.so.13")
nvrtc = ctypes.CDLL(lib)
major, minor = ctypes.c_int(), ctypes.c_int()
nvrtc.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
opts = [f"--gpu-architecture={arch}".encode(), b"-default-device", b"--std=c++17"]
inc = os.path.join(os.path.dirname(os.path.dirname(lib)), "include")
if os.path.isdir(inc):
    opts.append(f"-I{inc}".encode())
for d in filter(None, os.environ.get("CUDA_STUBS_NVRTC_INCLUDE", "").split(":")):
    opts.append(f"-I{d}".encode())
base_opts = opts
for cu in sorted(glob.glob(os.path.join(here, "*.cu"))):
    if only and os.path.basename(cu) not in only:
        continue
    src = open(cu, "rb").read()
    first = src.split(b"\n", 1)[0].decode()
    opts = base_opts
    if first.startswith("// nvrtc: --gpu-architecture="):
        opts = [first[len("// nvrtc: "):].strip().encode()] + base_opts[1:]
    prog = ctypes.c_void_p()
    name = os.path.basename(cu).encode()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, name, 0, None, None) == 0
    copts = (ctypes.c_char_p * len(opts))(*opts)
    rc = nvrtc.nvrtcCompileProgram(prog, len(opts), copts)
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(prog, log)
    if rc != 0:
        sys.exit(f"{cu}: {log.value.decode()}")
    nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(prog, ptx)
    out = cu[:-3] + ".ptx"
    with open(out, "w") as f:
        f.write(f"// Made from {os.path.basename(cu)} by NVRTC {major.value}.{minor.value} "
                f"({' '.join(o.decode() for o in opts if not o.startswith(b'-I'))}): stub-ptx/tests/ptx/nvrtc.py\n")
        f.write(ptx.value.decode())
    print(out)
