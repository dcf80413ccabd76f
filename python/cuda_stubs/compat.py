"""Compatibility libraries for binaries nobody can rebuild (Linux only).

A prebuilt extension or wheel linked against NVIDIA's ``libcudart.so.12`` fails to import next
to PyTorch for CUDA 13, or, once ``nvidia-cuda-runtime-cu12`` is installed, loads a second
runtime into the process. ``lib/cuda-stubs-compat/`` (:func:`compat_dir`, ``python -m
cuda_stubs --compatdir``) holds ``libcudart.so.12``, ``libcudart.so.13``, ``libnvrtc.so.12``
and ``libnvrtc.so.13``: NVIDIA's sonames and symbol versions, exactly that major's exports,
each call forwarded to the stub (``libstubs_cudart.so``, ``libstubs_nvrtc.so``), whose one
binding serves the whole process (translated where the prototype changed between 12.x and
13.x); and ``libnvidia-ml.so.1``, forwarded to ``libstubs_nvml.so``, for programs that load
NVML by name (pynvml) where the driver's is absent, as under the mock device. The folder is on
no search path: nothing uses it until :func:`enable` (or ``LD_LIBRARY_PATH``) does.

:func:`enable` makes each stub bind its real library now (the copy the process already has,
else the stubs' search order), then loads, by path, the compatibility file of every *other*
major: an extension imported afterwards that needs ``libcudart.so.12`` gets the compatibility
file (the dynamic loader matches an already-loaded soname before searching), one that needs the
bound runtime's own soname gets the real runtime. A real library of a major already in the
process is never shadowed.

Use it for extensions you cannot rebuild; build your own against the stubs instead
(``--ldflags``, ``--linkdir``), and do not use it when every extension matches the runtime you
have.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

from . import _on_windows, library_path, lib_dir
from ._compat_libraries import COMPAT_LIBRARIES

__all__ = ["COMPAT_LIBRARIES", "compat_dir", "enable", "loaded"]


def compat_dir() -> str:
    """The compatibility folder, ``lib/cuda-stubs-compat`` (on no search path). Raises
    ``OSError`` on Windows (a DLL has no soname to match)."""
    if _on_windows():
        raise OSError("no compatibility libraries on Windows")
    return str(Path(lib_dir()) / "cuda-stubs-compat")


def _mapped_files() -> list[str]:
    """The files this process has mapped (``/proc/self/maps``), in order, once each."""
    seen: dict[str, None] = {}
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].startswith("/"):
                seen.setdefault(parts[5].rstrip("\n").removesuffix(" (deleted)"), None)
    return list(seen)


def loaded() -> list[str]:
    """The compatibility files this process has loaded (by path)."""
    folder = os.path.realpath(compat_dir())
    return [f for f in _mapped_files() if os.path.dirname(os.path.realpath(f)) == folder]


def _real_of_soname(soname: str) -> bool:
    """Whether the process has an object of ``soname`` that is NVIDIA's (not a compatibility
    library, not a stub): ``dlopen`` with ``RTLD_NOLOAD`` matches loaded objects by soname."""
    try:
        lib = ctypes.CDLL(soname, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except OSError:
        return False
    return not hasattr(lib, "cuda_stubs_compat_major") and not hasattr(lib, "cuda_stubs_marker")


def _bind(name: str) -> int:
    """Makes the stub of ``name`` bind its real library now; its CUDA major, 0 if none."""
    from . import _Status

    stub = ctypes.CDLL(library_path(name))
    fn = getattr(stub, f"cuda_stubs_{name}_status")
    fn.argtypes = [ctypes.POINTER(_Status)]
    fn.restype = ctypes.c_int
    s = _Status()
    if fn(ctypes.byref(s)) != 0 or not s.bound:
        return 0
    return s.version // 1000


def enable(libraries: tuple[str, ...] = ("cudart", "nvrtc")) -> dict[str, list[str]]:
    """Loads the compatibility files an extension imported afterwards may need; returns, per
    library, the paths loaded now (empty when the bound major's real library serves every
    other one too, or when called again).

    For each of ``libraries`` (``cudart``, ``nvrtc``; ``nvml`` on request, for programs that
    load ``libnvidia-ml.so.1`` by name, as pynvml does, where the driver's is absent, as under
    the mock device): its stub binds first (the copy of the
    real library the process already has, else the stubs' search order: NVIDIA's wheels of
    this environment, ``LD_LIBRARY_PATH``, the toolkit); then every compatibility file is loaded
    by path (``RTLD_LOCAL``: the dynamic loader matches an extension's ``DT_NEEDED
    libcudart.so.12`` to it by soname, and resolves the extension's references in it as its
    dependency) unless a real library of that soname is already loaded, as the bound major's
    is. Nothing bound (no CUDA at all), or the mock device bound: every file, so that
    extensions import and their calls reach the stub. Raises ``OSError`` on Windows, ``KeyError``
    for a library without compatibility files."""
    folder = Path(compat_dir())
    done: dict[str, list[str]] = {}
    already = {os.path.realpath(f) for f in loaded()}
    for name in libraries:
        sonames = COMPAT_LIBRARIES[name]
        _bind(name)
        done[name] = []
        for major, soname in sonames.items():
            path = folder / soname
            # The bound major's real library is in the process under its soname, which
            # `_real_of_soname` sees; the mock device (`CUDA_STUBS_MOCK`) is not, so under it
            # every file is loaded and reaches the mock through the stub.
            if os.path.realpath(path) in already or _real_of_soname(soname):
                continue
            ctypes.CDLL(str(path), mode=os.RTLD_LOCAL | os.RTLD_NOW)
            done[name].append(str(path))
    return done
