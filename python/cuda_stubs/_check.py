"""``python -m cuda_stubs --check FILE...``: which of NVIDIA's sonames a binary, a shared object
or the ELF files of a wheel still need (``DT_NEEDED``), and whether a stub exists for each.

The dynamic section is read with pyelftools (``elftools``); on Windows a PE file's imported DLLs
with pefile. What counts as NVIDIA's comes from the specs (codegen's ``_libraries.py``):
``NVIDIA_SONAMES`` (those with a stub), ``UNSTUBBED_SONAME_STEMS`` (known libraries without one),
``NVIDIA_DLLS`` and ``NVIDIA_DLL_RELEASE_PREFIXES`` (CUPTI's ``cupti64_2025.2.1.dll``) on Windows.
"""

from __future__ import annotations

import io
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from ._libraries import (
    NVIDIA_DLL_RELEASE_PREFIXES,
    NVIDIA_DLLS,
    NVIDIA_SONAMES,
    UNSTUBBED_SONAME_STEMS,
)

_ELF_MAGIC = b"\x7fELF"
_PE_MAGIC = b"MZ"


class CheckError(Exception):
    """A file that cannot be checked: missing, unreadable, not ELF (not PE on Windows), or a
    wheel that is no zip archive. ``python -m cuda_stubs --check`` exits 2 with its text."""


@dataclass(frozen=True)
class Finding:
    """One of NVIDIA's libraries still needed by ``file`` (``wheel.whl!path`` inside a wheel):
    its ``soname`` (Windows: the DLL name) and the stub's short name that replaces it, or
    ``None`` when no stub exists yet."""

    file: str
    soname: str
    stub: str | None


def nvidia_stub(soname: str) -> tuple[bool, str | None]:
    """Whether ``soname`` (a ``DT_NEEDED`` entry or an imported DLL name) is one of NVIDIA's
    libraries, and the stub's short name for it (``None``: no stub yet)."""
    if soname in NVIDIA_SONAMES:
        return True, NVIDIA_SONAMES[soname]
    if soname.lower() in NVIDIA_DLLS:
        return True, NVIDIA_DLLS[soname.lower()]
    for prefix, stub in NVIDIA_DLL_RELEASE_PREFIXES.items():
        if re.fullmatch(re.escape(prefix) + r"\d+\.\d+\.\d+\.dll", soname.lower()):
            return True, stub
    if any(soname.startswith(stem) for stem in UNSTUBBED_SONAME_STEMS):
        return True, None
    return False, None


def _needed_elf(stream: BinaryIO, shown: str) -> list[str]:
    try:
        from elftools.common.exceptions import ELFError
        from elftools.elf.dynamic import DynamicSection
        from elftools.elf.elffile import ELFFile
    except ImportError as e:  # pragma: no cover - a dependency of the wheel
        raise CheckError(f"--check needs pyelftools (pip install pyelftools): {e}") from e
    try:
        elf = ELFFile(stream)
        needed: list[str] = []
        for section in elf.iter_sections():
            if isinstance(section, DynamicSection):
                needed += [t.needed for t in section.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
        return needed
    except (ELFError, ValueError, OSError) as e:
        raise CheckError(f"{shown}: unreadable ELF file: {e}") from e


def _needed_pe(data: bytes, shown: str) -> list[str]:
    try:
        import pefile
    except ImportError as e:  # pragma: no cover - a dependency of the wheel on Windows
        raise CheckError(f"--check needs pefile on Windows (pip install pefile): {e}") from e
    try:
        pe = pefile.PE(data=data, fast_load=True)
        pe.parse_data_directories(
            directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_IMPORT"]]
        )
        return [e.dll.decode("ascii", "replace") for e in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])]
    except pefile.PEFormatError as e:
        raise CheckError(f"{shown}: unreadable PE file: {e}") from e


def _needed(data: bytes, shown: str, windows: bool) -> list[str]:
    if data.startswith(_ELF_MAGIC):
        return _needed_elf(io.BytesIO(data), shown)
    if windows and data.startswith(_PE_MAGIC):
        return _needed_pe(data, shown)
    kind = "an ELF or PE file" if windows else "an ELF file"
    raise CheckError(f"{shown}: not {kind} (nor a wheel)")


def _wheel_members(path: Path) -> Iterator[tuple[str, bytes]]:
    try:
        with zipfile.ZipFile(path) as wheel:
            for info in wheel.infolist():
                if info.is_dir():
                    continue
                with wheel.open(info) as member:
                    head = member.read(4)
                    if head == _ELF_MAGIC or head[:2] == _PE_MAGIC:
                        yield info.filename, head + member.read()
    except (zipfile.BadZipFile, OSError) as e:
        raise CheckError(f"{path}: not a readable wheel: {e}") from e


def check(paths: list[str], windows: bool | None = None) -> list[Finding]:
    """Every NVIDIA library the files still need, in order. ``paths``: executables, shared
    objects, or wheels (``.whl``: each ELF/PE member is read). Raises :class:`CheckError`."""
    if windows is None:
        windows = sys.platform == "win32"
    findings: list[Finding] = []
    for name in paths:
        path = Path(name)
        if not path.is_file():
            raise CheckError(f"{name}: no such file")
        if path.suffix == ".whl":
            members = [(f"{name}!{member}", data) for member, data in _wheel_members(path)]
        else:
            try:
                members = [(name, path.read_bytes())]
            except OSError as e:
                raise CheckError(f"{name}: {e}") from e
        for shown, data in members:
            for soname in _needed(data, shown, windows):
                nvidia, stub = nvidia_stub(soname)
                if nvidia:
                    findings.append(Finding(shown, soname, stub))
    return findings


def report(findings: list[Finding], out=sys.stdout) -> None:
    """Prints one line per finding and a summary line."""
    for f in findings:
        what = f"stub: {f.stub} (link it instead)" if f.stub else "no stub yet"
        print(f"{f.file}: needs {f.soname} -- {what}", file=out)
    if findings:
        print(f"cuda-stubs --check: {len(findings)} NVIDIA librar"
              f"{'y' if len(findings) == 1 else 'ies'} still needed", file=out)
    else:
        print("cuda-stubs --check: no NVIDIA library needed", file=out)
