"""The mock device's built-in profiles, for ``python -m cuda_stubs --mock-profiles``: the
package's own ``libcuda_stubs_mock.so`` (``cuda_stubs_mock.dll`` on Windows, beside the stubs) lists them in its status
under ``CUDA_STUBS_MOCK=list`` (the book's "Testing without a GPU")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cuda_stubs

# What the mock's status says before the entries, "; " between them
# (stub-mock/src/device/profile.rs: LIST_HEAD, behind the mock's "mock: ").
_HEAD = (
    "mock: CUDA_STUBS_MOCK=list: nothing bound (name a profile to use one); "
    "the built-in profiles: "
)

# Run in a child process: the mock chooses its profile once per process, so loading it here
# under CUDA_STUBS_MOCK=list would leave a later CUDA call of this process without a device.
_CHILD = """
import ctypes, sys
mock = ctypes.CDLL(sys.argv[1])
mock.cuda_stubs_mock_status.restype = ctypes.c_char_p
sys.stdout.write(mock.cuda_stubs_mock_status().decode("utf-8", "replace"))
"""


def mock_library() -> Path:
    """The package's mock device library, beside the stubs (``lib_dir()``: ``lib`` on Linux,
    ``bin`` on Windows); ``OSError`` when the package was built without it."""
    name = "cuda_stubs_mock.dll" if cuda_stubs._on_windows() else "libcuda_stubs_mock.so"
    path = Path(cuda_stubs.lib_dir()) / name
    if not path.is_file():
        raise OSError(f"no mock device in this package: {path}")
    return path


def mock_profiles() -> list[str]:
    """One entry per built-in profile, in the mock's order: ``h200: NVIDIA H200, sm_90, 139.8
    GiB, driver 580.159.04 (CUDA 13.0)`` (name, board, compute capability, CUDA's memory,
    driver). ``OSError`` when the package has no mock or the mock does not list them."""
    env = dict(os.environ, CUDA_STUBS_MOCK="list")
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(mock_library())],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.startswith(_HEAD):
        raise OSError(f"the mock did not list its profiles: {done.stdout or done.stderr}".strip())
    return done.stdout[len(_HEAD) :].split("; ")
