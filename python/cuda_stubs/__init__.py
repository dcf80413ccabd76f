"""Stub CUDA libraries (``libstubs_cudart.so``, ``libstubs_nvrtc.so``, ``libstubs_cuda.so``,
``libstubs_nvjitlink.so``, ...; on Windows ``stubs_cudart.dll``, ``stubs_nvrtc.dll``,
``stubs_cuda.dll``, ``stubs_nvjitlink.dll``, ``stubs_cublas.dll``, ...).

Link an extension or a program against the stubs instead of NVIDIA's libraries; on the first
call a stub finds the real library (a copy the process already has, ``CUDA_STUBS_*_PATH``,
NVIDIA's wheels of this Python environment, the dynamic loader's search, the CUDA toolkit)
and forwards to it. This package holds the stubs, ``cuda_stubs.h``, a CMake package and
pkg-config files (Windows: the DLLs in ``bin``, their import libraries in ``lib``, no pkg-config
files); the functions below say where they are (``python -m cuda_stubs --help``).
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

# Which stubs exist, written by codegen from the specs: LIBRARIES (short name -> file name =
# SONAME), WINDOWS_LIBRARIES (the ones with a Windows DLL: short name -> DLL name) and
# CUDART_ABIS (the CUDA majors whose headers' runtime ABI the cudart stub exports, oldest first:
# ``libstubs_cudart.so`` the newest, the last; ``libstubs_cudart_abi<N>.so``, a link-time stub of
# the same SONAME, the others).
from ._libraries import CUDART_ABIS, LIBRARIES, LINK_NAMES, WINDOWS_LIBRARIES

__all__ = [
    "CUDART_ABIS",
    "LIBRARIES",
    "LINK_NAMES",
    "WINDOWS_LIBRARIES",
    "cudart_abi_of_headers",
    "cmake_dir",
    "compat",
    "implib_dir",
    "include_dir",
    "ldflags",
    "lib_dir",
    "library_path",
    "link_dir",
    "pkgconfig_dir",
    "status",
    "stubs",
]

_ROOT = Path(__file__).resolve().parent


def _on_windows() -> bool:
    """Whether this is the Windows package (DLLs in ``bin``). One function, so that
    ``scripts/test-packaging-windows.sh`` can check the Windows paths from Linux."""
    return sys.platform == "win32"


def stubs() -> dict[str, str]:
    """The stubs of this platform: short name -> file name. ``LIBRARIES`` on Linux,
    ``WINDOWS_LIBRARIES`` on Windows (those with a DLL stub)."""
    return dict(WINDOWS_LIBRARIES if _on_windows() else LIBRARIES)


def lib_dir() -> str:
    """The folder of the stubs: ``lib`` (Windows: ``bin``, the DLLs a program loads; the
    import libraries a linker reads are in :func:`implib_dir`)."""
    return str(_ROOT / ("bin" if _on_windows() else "lib"))


def implib_dir() -> str:
    """The folder a linker reads (``-L``): ``lib``. On Linux the stubs themselves (the same as
    :func:`lib_dir`); on Windows their import libraries, ``stubs_<name>.lib`` (MSVC) and
    ``libstubs_<name>.dll.a`` (MinGW), with ``stubs_cudart_abi12`` for CUDA 12 headers."""
    return str(_ROOT / "lib")


def include_dir() -> str:
    """The folder of ``cuda_stubs.h``."""
    return str(_ROOT / "include")


def cmake_dir() -> str:
    """The folder of ``cuda-stubsConfig.cmake``: pass it as ``-Dcuda-stubs_DIR=...``."""
    return str(_ROOT / "lib" / "cmake" / "cuda-stubs")


def pkgconfig_dir() -> str:
    """The folder of ``cuda-stubs-{cudart,nvrtc,cuda,nvjitlink}.pc``: add it to
    ``PKG_CONFIG_PATH``. Raises ``OSError`` on Windows, whose package has no pkg-config files."""
    if _on_windows():
        raise OSError("no pkg-config files on Windows: use the CMake package (cmake_dir())")
    return str(_ROOT / "lib" / "pkgconfig")


def library_path(name: str) -> str:
    """The path of one stub: ``library_path("nvrtc")`` is ``.../lib/libstubs_nvrtc.so``
    (Windows: ``...\\bin\\stubs_nvrtc.dll``). Raises ``KeyError`` for a library without a stub
    on this platform."""
    files = stubs()
    if name not in files:
        raise KeyError(f"no stub of {name!r} here: the stubs are {', '.join(files)}")
    return str(Path(lib_dir()) / files[name])


def _cudart_link_name(abi: int) -> str:
    if abi not in CUDART_ABIS:
        raise ValueError(
            f"no cudart ABI for CUDA {abi} headers: the stub exports those of CUDA "
            + " and ".join(map(str, CUDART_ABIS))
        )
    return "stubs_cudart" if abi == CUDART_ABIS[-1] else f"stubs_cudart_abi{abi}"


def cudart_abi_of_headers(include_dir: str) -> int:
    """The CUDA major of the ``cuda_runtime_api.h`` in ``include_dir`` (its ``CUDART_VERSION``
    divided by 1000). Raises ``FileNotFoundError`` or ``ValueError``."""
    header = Path(include_dir) / "cuda_runtime_api.h"
    for line in header.read_text(errors="replace").splitlines():
        words = line.split()
        if len(words) >= 3 and words[:2] == ["#define", "CUDART_VERSION"]:
            return int(words[2]) // 1000
    raise ValueError(f"{header} defines no CUDART_VERSION")


def ldflags(abi: int | None = None) -> str:
    """Linker flags for all the stubs, with an RPATH to this folder (for local builds; a
    wheel you ship should use an ``$ORIGIN``-relative RPATH instead).

    ``abi``: the CUDA major of the headers the code is compiled against, 12 or 13 (default: the
    newest, 13). Code compiled against 12.x headers links ``-lstubs_cudart_abi12``, so that its
    calls of the names whose prototype changed in 13.0 reach the stub's CUDA 12 implementation;
    it still needs and loads ``libstubs_cudart.so``. Raises ``ValueError`` for another major.

    Windows: MinGW's flags (``-L<implib_dir> -lstubs_cudart ...``: GNU ld links the
    ``libstubs_<name>.dll.a`` import libraries; ``-lstubs_cudart_abi12`` imports the CUDA 12
    exports of ``stubs_cudart.dll``). There is no RPATH: the program finds the DLLs beside itself,
    or a Python extension through ``os.add_dll_directory(lib_dir())``. MSVC links the ``.lib``
    files of :func:`implib_dir` by name."""
    cudart = _cudart_link_name(CUDART_ABIS[-1] if abi is None else abi)
    if _on_windows():
        names = [cudart if n == "cudart" else f[: -len(".dll")] for n, f in stubs().items()]
        return f"-L{implib_dir()} " + " ".join(f"-l{n}" for n in names)
    d = lib_dir()
    libs = " ".join(
        f"-l{cudart}" if name == "cudart" else f"-l{f[3:-3]}" for name, f in LIBRARIES.items()
    )
    return f"-L{d} {libs} -Wl,-rpath,{d}"


def link_dir(abi: int | None = None) -> str:
    """The link folder: NVIDIA's link names (``libcudart.so``, ``libcublas.so``,
    ``libcudart_static.a``, ...: :data:`LINK_NAMES`), each a GNU ld linker script naming the stub,
    so that ``-L<link_dir()>`` ahead of the CUDA toolkit's folders makes ``-lcudart -lcublas``
    (nvcc's default ``-lcudart_static`` too) record ``libstubs_*.so`` in ``DT_NEEDED``.
    ``lib/cuda-stubs-link/abi<N>``: ``abi`` as for :func:`ldflags` (the CUDA major of the headers
    the code is compiled against; default the newest), which decides the cudart file its
    ``libcudart.so`` names. The program still needs to find the stubs when it runs (an RPATH to
    :func:`lib_dir`, as :func:`ldflags` gives). Raises ``ValueError`` for another major, and
    ``OSError`` on Windows (no link folder there yet: link the import libraries of
    :func:`implib_dir`)."""
    if _on_windows():
        raise OSError("no link folder on Windows yet: link stubs_<name>.lib of implib_dir()")
    abi = CUDART_ABIS[-1] if abi is None else abi
    _cudart_link_name(abi)
    return str(_ROOT / "lib" / "cuda-stubs-link" / f"abi{abi}")


class _Status(ctypes.Structure):
    # struct cuda_stubs_status of cuda_stubs.h.
    _fields_ = [
        ("bound", ctypes.c_int),
        ("version", ctypes.c_int),
        ("path", ctypes.c_char_p),
        ("found_by", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
        ("resolved", ctypes.c_uint32),
        ("missing", ctypes.c_uint32),
    ]


class _DriverStatus(ctypes.Structure):
    # struct cuda_stubs_driver_status of cuda_stubs.h (versioned by its first field, size).
    _fields_ = [
        ("size", ctypes.c_uint32),
        ("cuda_version", ctypes.c_int),
        ("fit", ctypes.c_int),
        ("path", ctypes.c_char_p),
        ("fit_name", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
    ]


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8", "replace")


def status() -> dict[str, dict[str, object]]:
    """What each stub bound, from its status API (``cuda_stubs_<name>_status``).

    Loads the stubs of this package (which makes each search for its real library if nothing
    in the process has called it yet) and returns, per short name (``cudart``, ``nvrtc``,
    ``cuda``, ``nvjitlink``, ...: :func:`stubs`): ``bound``, ``version`` (``1000 * major + 10 *
    minor``), ``path``, ``found_by``, ``message``, ``resolved``, ``missing``, and ``driver``:
    the CUDA driver the stub knew (``cuda_version``, ``1000 * major + 10 * minor``, 0 when none
    was known; its ``path``) and how the bound release stands with it (``fit``: ``runs``, the
    newest release found that the driver runs; ``driver-unknown``; ``override-beyond``,
    ``loaded-beyond``, ``compiler-beyond``: bound beyond the driver, with a warning in
    ``message``; ``release-unknown``, ``not-bound``, ``of-the-driver``), from
    ``cuda_stubs_<name>_driver_status``. On Windows each DLL is loaded by its full path
    (``bin\\stubs_<name>.dll``), which needs no DLL search.
    """
    out: dict[str, dict[str, object]] = {}
    for name in stubs():
        lib = ctypes.CDLL(library_path(name))
        fn = getattr(lib, f"cuda_stubs_{name}_status")
        fn.argtypes = [ctypes.POINTER(_Status)]
        fn.restype = ctypes.c_int
        s = _Status()
        if fn(ctypes.byref(s)) != 0:
            raise RuntimeError(f"cuda_stubs_{name}_status failed")
        out[name] = {
            "bound": bool(s.bound),
            "version": s.version,
            "path": _text(s.path),
            "found_by": _text(s.found_by),
            "message": _text(s.message),
            "resolved": s.resolved,
            "missing": s.missing,
            "driver": _driver_status(lib, name),
        }
    return out


def _driver_status(lib: ctypes.CDLL, name: str) -> dict[str, object]:
    """``cuda_stubs_<name>_driver_status`` of one stub, as :func:`status` gives it."""
    fn = getattr(lib, f"cuda_stubs_{name}_driver_status")
    fn.argtypes = [ctypes.POINTER(_DriverStatus)]
    fn.restype = ctypes.c_int
    d = _DriverStatus()
    d.size = ctypes.sizeof(_DriverStatus)
    if fn(ctypes.byref(d)) != 0:
        raise RuntimeError(f"cuda_stubs_{name}_driver_status failed")
    return {
        "cuda_version": d.cuda_version,
        "path": _text(d.path),
        "fit": _text(d.fit_name),
        "message": _text(d.message),
    }


# The compatibility libraries (``cuda_stubs.compat.enable()``, ``--compatdir``): imported last,
# it uses the functions above.
from . import compat  # noqa: E402
