"""``python -m cuda_stubs --capture-profile [--device N] [-o FILE] [--keep-ids] [--name NAME]``:
a profile of this machine's GPU that the mock device loads as it is (``CUDA_STUBS_MOCK=FILE``).

One implementation: this runs the package's ``bin/cuda-stubs-capture`` (the C program
``packaging/capture/cuda-stubs-capture.c``, installed by CMakeLists.txt beside the stubs), with
the same options and exit status: 0 written; 1 no driver, no GPU, or a call the profile needs
failed; 2 bad arguments; 3 several devices and no ``--device``; 4 the output not written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: The program, relative to the package (the wheel's ``cuda_stubs/bin/``, a prefix's ``bin/``).
PROGRAM = Path("bin") / "cuda-stubs-capture"


def program(root: Path) -> Path:
    """The capture program of the package installed at ``root``; ``OSError`` if it has none (a
    Windows package, or a build without a C compiler)."""
    exe = root / PROGRAM
    if not exe.is_file():
        raise OSError(
            f"{exe}: no cuda-stubs-capture in this installation (Linux only; the build needs a C "
            "compiler)"
        )
    return exe


def main(root: Path, argv: list[str]) -> int:
    """Runs the capture program with ``argv`` (the options after ``--capture-profile``); its
    exit status, or 2 when the package has no such program."""
    try:
        exe = program(root)
    except OSError as e:
        print(f"python -m cuda_stubs --capture-profile: {e}", file=sys.stderr)
        return 2
    return subprocess.run([str(exe), *argv], check=False).returncode
