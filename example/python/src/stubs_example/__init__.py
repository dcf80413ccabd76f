"""An extension linked to cuda-stubs instead of NVIDIA's libraries (``stubs_example._native``).

The same built module runs with NVIDIA's CUDA 11.8, 12.x or 13.x wheels in its environment, or
with none: then every call fails with the stubs' typed errors (``cudaErrorStubLibrary`` = 34,
``NVRTC_ERROR_INTERNAL_ERROR`` = 11), raised here as :class:`CudaError`.
"""

from __future__ import annotations

from . import _native

__all__ = [
    "CudaError",
    "compile_cubin",
    "compute_capability",
    "device_count",
    "launch_scale",
    "nvrtc_version",
    "runtime_version",
    "scale_device_buffer",
    "status",
]


class CudaError(RuntimeError):
    """A CUDA call failed: ``library`` ("cudart", "nvrtc", "cuda"), its ``code`` and ``name``
    (``cudaGetErrorName``, ``cuGetErrorName``; for NVRTC, which has no name function,
    ``nvrtcGetErrorString``: the stub's "not found" text when no NVRTC is bound)."""

    def __init__(self, library: str, code: int, call: str, detail: str = "") -> None:
        self.library = library
        self.code = code
        self.name = _native.error_name(library, code)
        text = f"{call}: {self.name} ({code})"
        # Without a real NVRTC, nvrtcGetErrorString's text is already the search message.
        super().__init__(f"{text}\n{detail}" if detail and detail != self.name else text)


def status(name: str) -> dict[str, object]:
    """What the stub ``name`` ("cudart", "nvrtc", "cuda") linked by this extension bound:
    ``bound``, ``version``, ``path``, ``found_by``, ``message`` (cuda_stubs.h's status API)."""
    return _native.status(name)


def runtime_version() -> int:
    """``cudaRuntimeGetVersion``: ``1000 * major + 10 * minor`` of the bound runtime."""
    rc, version = _native.runtime_version()
    if rc:
        raise CudaError("cudart", rc, "cudaRuntimeGetVersion", status("cudart")["message"])
    return version


def nvrtc_version() -> tuple[int, int]:
    """``nvrtcVersion``: (major, minor) of the bound NVRTC."""
    rc, major, minor = _native.nvrtc_version()
    if rc:
        raise CudaError("nvrtc", rc, "nvrtcVersion", status("nvrtc")["message"])
    return major, minor


def compile_cubin(arch: int = 80) -> bytes:
    """A small kernel (``scale``: ``x[i] *= a``) compiled by NVRTC to a CUBIN for ``sm_<arch>``."""
    rc, cubin, log = _native.compile_cubin(arch)
    if rc:
        detail = log or str(status("nvrtc")["message"])
        raise CudaError("nvrtc", rc, f"NVRTC compile for sm_{arch}", detail)
    return cubin


def device_count() -> int:
    """``cudaGetDeviceCount``; raises without a usable driver or GPU."""
    rc, count = _native.device_count()
    if rc:
        raise CudaError("cudart", rc, "cudaGetDeviceCount")
    return count


def compute_capability(device: int = 0) -> tuple[int, int]:
    """(major, minor) of ``device``: ``compile_cubin(10 * major + minor)`` runs on it."""
    rc, major, minor = _native.compute_capability(device)
    if rc:
        raise CudaError("cudart", rc, "cudaDeviceGetAttribute")
    return major, minor


def launch_scale(cubin: bytes, n: int = 1 << 20, factor: float = 2.0) -> list[float]:
    """Runs the CUBIN from :func:`compile_cubin` on device 0 over ``x[i] = i`` and returns
    ``x[i] * factor`` (needs a GPU; compile for its :func:`compute_capability`). The runtime owns the
    context and memory, the driver API (``cuModuleLoadData``, ``cuLaunchKernel``) loads and
    launches the CUBIN: that works on every major, 11.x included."""
    library, rc, values = _native.launch(cubin, n, factor)
    if rc:
        raise CudaError(library, rc, "launch_scale")
    return values


def scale_device_buffer(cubin: bytes, device_pointer: int, n: int, factor: float) -> None:
    """Runs the CUBIN's ``scale`` kernel in place over ``n`` float32 values at ``device_pointer``
    on device 0 (e.g. ``torch_tensor.data_ptr()`` of a contiguous CUDA float32 tensor), in device
    0's primary context, the one PyTorch uses, and waits for it (``cudaDeviceSynchronize``)."""
    library, rc = _native.scale(cubin, device_pointer, n, factor)
    if rc:
        raise CudaError(library, rc, "scale_device_buffer")
