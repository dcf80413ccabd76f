"""Checks the installed stubs_example in the current environment (run by
scripts/test-example-python.sh in fresh venvs, with a clean environment).

    python check.py --runtime 12090 --nvrtc 12.9   # NVIDIA's 12.9 wheels are installed
    python check.py --none                         # no NVIDIA wheel: the typed errors

Asserts which real library each stub bound (a file of this environment's NVIDIA wheels, found
beside the stub), the versions they answer, and that NVRTC compiles a kernel to a CUBIN; with a
GPU it also launches that CUBIN. Exits non-zero on the first mismatch.
"""

from __future__ import annotations

import argparse
import os
import struct
import sysconfig

import stubs_example
from stubs_example import CudaError

EM_CUDA = 190  # ELF e_machine of NVIDIA CUBINs
ARCH = 80  # sm_80: an architecture NVRTC 11.8, 12.x and 13.x all compile for


def check_cubin(cubin: bytes) -> None:
    assert cubin[:4] == b"\x7fELF", f"not ELF: {cubin[:16]!r}"
    (machine,) = struct.unpack_from("<H", cubin, 18)
    assert machine == EM_CUDA, f"e_machine {machine}, not EM_CUDA"


def bound(name: str, wheel_file: str) -> dict[str, object]:
    """The stub's status, asserting it bound ``wheel_file`` of this environment's NVIDIA wheels."""
    s = stubs_example.status(name)
    assert s["bound"], s
    expected = os.path.join(sysconfig.get_paths()["platlib"], "nvidia", wheel_file)
    assert os.path.realpath(str(s["path"])) == os.path.realpath(expected), (s, expected)
    assert s["found_by"] == "wheel layout beside the stub", s
    return s


def with_cuda(runtime: int, nvrtc: tuple[int, int]) -> None:
    major = runtime // 1000
    # NVIDIA's wheel layouts: nvidia/cuda_runtime/lib, nvidia/cuda_nvrtc/lib up to 12.x,
    # one nvidia/cu13/lib from 13.0.
    rt_file = {
        11: "cuda_runtime/lib/libcudart.so.11.0",
        12: "cuda_runtime/lib/libcudart.so.12",
    }.get(major, f"cu{major}/lib/libcudart.so.{major}")
    nvrtc_file = {
        11: "cuda_nvrtc/lib/libnvrtc.so.11.2",
        12: "cuda_nvrtc/lib/libnvrtc.so.12",
    }.get(major, f"cu{major}/lib/libnvrtc.so.{major}")
    try:
        version = stubs_example.runtime_version()
        assert version == runtime, f"cudaRuntimeGetVersion {version}, expected {runtime}"
        print(f"cudaRuntimeGetVersion: {version}")
    except CudaError as e:
        # Real 11.8 answers cudaErrorInsufficientDriver (35) without a driver; 12.x and 13.x
        # answer without one. A stub error (34) here would mean nothing was bound.
        assert major == 11 and e.code == 35, f"{e} (runtime {runtime})"
        print(f"cudaRuntimeGetVersion: {e.name} ({e.code}), the real 11.8 runtime without a driver")
    s = bound("cudart", rt_file)
    assert s["version"] // 1000 == major, s
    print(f"cudart bound {s['path']} (version {s['version']}, {s['found_by']})")

    assert stubs_example.nvrtc_version() == nvrtc, stubs_example.nvrtc_version()
    s = bound("nvrtc", nvrtc_file)
    assert s["version"] == nvrtc[0] * 1000 + nvrtc[1] * 10, s
    cubin = stubs_example.compile_cubin(ARCH)
    check_cubin(cubin)
    print(f"NVRTC {nvrtc[0]}.{nvrtc[1]} compiled scale to a sm_{ARCH} CUBIN ({len(cubin)} bytes)")
    print(f"nvrtc bound {s['path']}")
    # A bad input gets the real NVRTC's own code and log, through the same stub.
    try:
        stubs_example.compile_cubin(1)
    except CudaError as e:
        assert (e.code, e.name) == (5, "NVRTC_ERROR_INVALID_OPTION"), (e.code, e.name)
        assert "--gpu-architecture" in str(e), str(e)
    else:
        raise AssertionError("NVRTC compiled for sm_1")
    launch_if_gpu(cubin)


def launch_if_gpu(cubin: bytes) -> None:
    """The GPU path (no GPU in CI): a CUBIN for device 0's own arch (which this NVRTC must
    know), launched and checked. Without a GPU, launch_scale fails at its first runtime call
    with the runtime's own error, the one cudaGetDeviceCount gave."""
    try:
        count = stubs_example.device_count()
    except CudaError as e:
        try:
            stubs_example.launch_scale(cubin, 16)
        except CudaError as launch:
            assert (launch.library, launch.code) == ("cudart", e.code), (launch, e)
        else:
            raise AssertionError("launch_scale succeeded without a device") from None
        print(f"no GPU ({e.name}): launch_scale raised it, nothing launched")
        return
    if count == 0:
        print("no GPU: launch not run")
        return
    major, minor = stubs_example.compute_capability(0)
    cubin = stubs_example.compile_cubin(10 * major + minor)
    n = 1 << 20
    values = stubs_example.launch_scale(cubin, n, 2.0)
    assert values[:3] == [0.0, 2.0, 4.0] and values[-1] == 2.0 * (n - 1), values[:3]
    print(f"launched scale on device 0 (sm_{major}{minor}): {n} values checked")


def without_cuda() -> None:
    for name, soname in [("cudart", "libcudart"), ("nvrtc", "libnvrtc")]:
        s = stubs_example.status(name)
        assert not s["bound"] and s["path"] is None and s["version"] == 0, s
        assert str(s["message"]).startswith(f"cuda-stubs: {soname} not found (searched "), s
    # cudaErrorStubLibrary (34) is the runtime's own code; NVRTC has none for "no library", so
    # the stub answers NVRTC_ERROR_INTERNAL_ERROR (11) and its error string says what it searched.
    nvrtc_text = "cuda-stubs: libnvrtc not found (searched "
    calls = [
        (stubs_example.runtime_version, "cudart", 34, "cudaErrorStubLibrary"),
        (stubs_example.device_count, "cudart", 34, "cudaErrorStubLibrary"),
        (stubs_example.nvrtc_version, "nvrtc", 11, nvrtc_text),
        (lambda: stubs_example.compile_cubin(ARCH), "nvrtc", 11, nvrtc_text),
        (lambda: stubs_example.launch_scale(b"\0", 16), "cudart", 34, "cudaErrorStubLibrary"),
    ]
    for call, library, code, name in calls:
        try:
            call()
        except CudaError as e:
            got = (e.library, e.code, e.name)
            assert got[:2] == (library, code) and e.name.startswith(name), got
            print(f"{library} {code}: {str(e).splitlines()[0]}")
        else:
            raise AssertionError(f"{call} succeeded without CUDA")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runtime", type=int, help="expected cudaRuntimeGetVersion, e.g. 12090")
    parser.add_argument("--nvrtc", help="expected nvrtcVersion, e.g. 12.9")
    parser.add_argument("--none", action="store_true", help="no NVIDIA wheel installed")
    args = parser.parse_args()
    assert "LD_LIBRARY_PATH" not in os.environ, "run with a clean environment"
    if args.none:
        without_cuda()
    else:
        major, minor = (int(x) for x in args.nvrtc.split("."))
        with_cuda(args.runtime, (major, minor))
    print("check: ok")


if __name__ == "__main__":
    main()
