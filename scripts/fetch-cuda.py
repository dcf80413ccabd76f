#!/usr/bin/env python3
"""Fetch NVIDIA's real CUDA runtime, NVRTC and nvJitLink libraries (and headers) from their pip
wheels.

Each CUDA major is unpacked into its own site-packages-like tree under the cache:

    <cache>/cuda-11/nvidia/cuda_runtime/lib/libcudart.so.11.0   (11.8.89)
    <cache>/cuda-12/nvidia/cuda_nvrtc/lib/libnvrtc.so.12        (12.9.x)
    <cache>/cuda-13/nvidia/cu13/lib/libcudart.so.13             (13.5.x)
    <cache>/cuda-12/nvidia/nvjitlink/lib/libnvJitLink.so.12     (12.9.86)

and described by <cache>/cuda-<major>/layout.json (library and include folders), which the
tests, the example and codegen read. Which wheel holds each library, where the library lies in
it and its include folder come from scripts/libraries.json, which codegen writes from the
libraries' specs (stub-spec/src/libraries/); this script adds only its own tooling (TOOLS: the
crt headers, nvcc, nvvm). <cache> is $CUDA_STUBS_CACHE, else
${XDG_CACHE_HOME:-~/.cache}/cuda-stubs. Wheels are fetched once; a second run is a no-op. A
downloaded wheel is deleted once its major's tree is complete, but the runtime's and NVRTC's,
which the Python tests install with pip (INSTALLED); `--prune` does only that, offline.

13.x is the newest 13.x (13.5.37): the stubs must cover every function of the major, and 13.5
exports NVRTC calls 13.0 lacks (bundled headers, TileIR). nvJitLink exists from CUDA 12.0: 12 and 13
get `nvidia-nvjitlink-cu12` 12.9.86 and `nvidia-nvjitlink` 13.5.37 (layout.json "nvjitlink"). It runs on a 13.0 driver (580) by
CUDA's minor-version compatibility; the example loads CUBIN, not PTX, on the GPU for that reason.

The runtime wheels lack crt/host_defines.h, which cuda_runtime_api.h includes: it is taken
from nvidia-cuda-nvcc-cu11 11.8.89 and nvidia-cuda-nvcc-cu12 12.9.86 (same versions as the
runtimes; only their include/ folder is unpacked) and from nvidia-cuda-crt 13.5.37.

13.x also gets a working nvcc (layout.json "nvcc"), for the test that compiles a real .cu
program and launches its kernels through the stub: nvidia-cuda-nvcc 13.5.37 (nvcc, cudafe++,
ptxas, fatbinary, nvlink in nvidia/cu13/bin) and nvidia-nvvm 13.5.37 (cicc and libdevice in
nvidia/cu13/nvvm). Together with the crt/ and runtime headers already in nvidia/cu13/include
the tree has the toolkit's own layout, so nvcc's bin/nvcc.profile (paths relative to its own
folder) finds everything; the host compiler is the machine's gcc/g++. nvcc runs cicc, never
libNVVM: libnvvm.so.4 (nvidia/cu13/lib) and 11.x's and 12.x's nvvm/lib64/libnvvm.so come as the
nvvm spec's test wheels (libraries.json), like any library's. Nothing else nvcc does not run is
unpacked.
Zip entries keep their Unix permission bits: the tools must be executable.

aarch64 (`--arch aarch64`, for scripts/test-aarch64.sh): NVIDIA's sbsa wheels of the same
versions (`manylinux2014_aarch64`), unpacked under <cache>/aarch64/cuda-<major> and fetched into
<cache>/aarch64/wheels, so the x86-64 layout above is untouched. Libraries and headers only:
nvcc (13.x's bin/ and nvvm/) is not unpacked, the .cu test it serves runs on x86-64 only. A
library wheel NVIDIA publishes for x86-64 only (`nvidia-nccl-cu11`: pip finds no aarch64 build)
is left out of that major's aarch64 layout.json and named in its "unavailable" list; the tests
skip the library there.

Partial wheels: a library whose spec says `unpack: Unpack::LibraryAndHeaders` (libraries.json
"unpack": "library_and_headers") is not downloaded: its wheel on the index (PEP 691's JSON
simple API, pypi.org or $PIP_INDEX_URL) is read by HTTP range requests, and only the library's
file, the library it cannot be called without ("lazy_dependency": cuDNN's libcudnn_graph.so.9)
and its include folder are unpacked, and the files of other wheels it cannot be loaded without
("beside": cuFFTMp's libnvshmem_host.so.3, read off NVSHMEM's wheel the same way) (cuDNN 9: 1.4 to 53 MB of a 400 to 770 MB wheel). An index
that serves no JSON gets the whole wheel downloaded, as for every other library.

A tree of the current LAYOUT_VERSION whose layout.json lacks a library libraries.json now lists
(one added since, NCCL) is completed with that library's wheel only, and its layout.json renamed
over, keeping the keys of libraries other checkouts sharing the cache added (never rewritten in place, so a tree copied with `cp -al` leaves the original's alone).

Windows (`--arch win_amd64`): NVIDIA's `win_amd64` wheels of the same versions, of every
library with a Windows DLL stub that a wheel ships (WINDOWS_LIBRARIES: those libraries.json gives
a "windows" entry; not the driver's nvcuda.dll or nvml.dll, which ship with the driver), unpacked
under <cache>/windows/cuda-<major>. Only the DLLs the tests load are unpacked (no headers, no
.lib import libraries, no tools, not cudart32_110.dll, nvrtc64_120_0.alt.dll, cufftw, nvblas or
cusolverMg), each read off the index by HTTP range requests (`remote_wheel`: a math library's
wheel is 58 MB to 553 MB, most of it the DLL the tests load but not all: 12.x's cuSOLVER wheel
is 326 MB, its cusolverMg 125 MB of it); a wheel
already downloaded into <cache>/windows/wheels (older checkouts fetched them whole) is read from
there, and an index without PEP 691's JSON gets the whole wheel downloaded there. Every version
libraries.json names has a win_amd64 wheel, so none is substituted. The DLLs lie in the wheels'
bin/ folders, one per wheel in 11.x and 12.x, one for all in 13.x:

    cuda-11/nvidia/cuda_runtime/bin/cudart64_110.dll
    cuda-11/nvidia/cuda_nvrtc/bin/nvrtc64_112_0.dll, nvrtc-builtins64_118.dll
    cuda-12/nvidia/cuda_runtime/bin/cudart64_12.dll
    cuda-12/nvidia/cusolver/bin/cusolver64_11.dll           (each library in its wheel's bin/)
    cuda-13/nvidia/cu13/bin/x86_64/cudart64_13.dll, nvrtc64_130_0.dll,
                                   nvrtc-builtins64_135.dll, cusolver64_12.dll, ...

and <cache>/windows/cuda-<major>/layout.json names them, relative to its own folder and found by
name in each wheel (libraries.json's "windows": the specs' DLL names and companion prefix), as
{"layout_version": LAYOUT_VERSION, "major": 12, "version": "12.9.79", "dlls": {"cudart": ...,
"nvrtc": ..., "nvrtc_companion": ..., "nvjitlink": ..., "curand": ..., ...}}; "version" is the
runtime wheel's, and 11 has no "nvjitlink". A layout.json that has every DLL this checkout's
libraries.json names is complete; one that lacks some is completed (the DLLs it has are not
read again), keeping the keys another checkout sharing the cache added.

Usage: fetch-cuda.py [--arch x86_64|aarch64|win_amd64] [--print-cache]
"""
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile

# The libraries' wheels, one per library and major, with the library's path in the unpacked tree
# and its include folder: written by codegen from each library's spec
# (stub-spec/src/libraries/), never edited here.
LIBRARIES = json.loads((pathlib.Path(__file__).with_name("libraries.json")).read_text())["libraries"]

# This script's own tooling per major, beside the libraries: the crt/ headers
# cuda_runtime_api.h includes, and 13.x's nvcc (see the module docstring). A wheel is a pip
# requirement (all of its nvidia/ tree unpacked) or (requirement, folder prefixes to unpack).
TOOLS = {
    11: {
        "wheels": [("nvidia-cuda-nvcc-cu11==11.8.89", "nvidia/cuda_nvcc/include/")],
        "include": ["nvidia/cuda_nvcc/include"],
    },
    12: {
        "wheels": [("nvidia-cuda-nvcc-cu12==12.9.86", "nvidia/cuda_nvcc/include/")],
        "include": ["nvidia/cuda_nvcc/include"],
    },
    13: {
        "wheels": ["nvidia-cuda-crt==13.5.37",
                   ("nvidia-cuda-nvcc==13.5.37", ("nvidia/cu13/bin/", "nvidia/cu13/include/")),
                   ("nvidia-nvvm==13.5.37", ("nvidia/cu13/nvvm/",))],
        "include": ["nvidia/cu13/include"],
        "nvcc": "nvidia/cu13/bin/nvcc",
    },
}

# The library whose wheel version is the major's "version" in layout.json (the toolkit release
# the major stands for; the other libraries' wheels have patch numbers of their own).
RUNTIME = "cudart"

# The libraries whose paths layout.json lists before "include", and whose include folders come
# before the tools': the order the file had before nvJitLink was added, kept so that a fresh
# cache writes the same layout.json as an existing one.
FIRST_LIBRARIES = ("cudart", "nvrtc")

# The libraries whose wheels the suite installs with pip, so <cache>/wheels keeps them after
# unpacking: the runtime's and NVRTC's (scripts/test-example-python.sh installs both into its
# venvs, scripts/test-aarch64.sh NVRTC's). Every other wheel is deleted once its major's tree is
# complete (`prune_wheels`): the tests read the tree, and the wheels were 10 GB (x86-64 and
# aarch64) of a CI disk that once had 11 GB free (docs/src/tests.md, Disk).
INSTALLED = ("cudart", "nvrtc")

# Bumped whenever the wheel list changes, so existing caches are completed.
LAYOUT_VERSION = 4

# The libraries a layout.json names. A layout of the current version that lacks one its major's
# spec lists (a library added since, nvJitLink) is completed too, without a LAYOUT_VERSION bump:
# checkouts from before the addition then keep reading the same tree as complete (the added
# key is one more they ignore) instead of unpacking it again each time either runs.
LIBRARY_KEYS = tuple(library["name"] for library in LIBRARIES)


def major_spec(major: int) -> dict:
    """One major's wheels and layout: each library's wheel of that major (in libraries.json's
    order), then the tools'."""
    libraries = {lib["name"]: wheel for lib in LIBRARIES for wheel in lib["wheels"]
                 if wheel["major"] == major}
    runtime = libraries[RUNTIME]["wheel"]
    tools = TOOLS[major]
    first = [name for name in libraries if name in FIRST_LIBRARIES]
    later = [name for name in libraries if name not in FIRST_LIBRARIES]
    include = [libraries[name]["include"] for name in first] + tools["include"] + [
        libraries[name]["include"] for name in later]
    spec = {
        # Once each: cuBLAS and cuBLASLt come in one wheel.
        "wheels": list(dict.fromkeys(libraries[name]["wheel"] for name in libraries)) + tools["wheels"],
        "version": runtime.split("==")[1],
        "first": {name: libraries[name]["library"] for name in first},
        "later": {name: libraries[name]["library"] for name in later},
        # Without repeats (CUDA 13's wheels share one folder), in order.
        "include": list(dict.fromkeys(include)),
        # The libraries each library wheel holds (cuBLAS and cuBLASLt share one).
        "holds": {wheel: [name for name in libraries if libraries[name]["wheel"] == wheel]
                  for wheel in dict.fromkeys(libraries[name]["wheel"] for name in libraries)},
    }
    if "nvcc" in tools:
        spec["nvcc"] = tools["nvcc"]
    return spec


MAJORS = sorted({wheel["major"] for library in LIBRARIES for wheel in library["wheels"]})

PLATFORMS = {
    # manylinux1 (manylinux_2_5): the tag of nvidia-nvfatbin-cu12's x86-64 wheel.
    "x86_64": ["manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_12_x86_64",
               "manylinux2010_x86_64", "manylinux_2_25_x86_64", "manylinux_2_27_x86_64",
               "manylinux_2_28_x86_64", "manylinux1_x86_64", "manylinux_2_5_x86_64"],
    "aarch64": ["manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_25_aarch64",
                "manylinux_2_27_aarch64", "manylinux_2_28_aarch64"],
    "win_amd64": ["win_amd64"],
}

# The cache folder of each arch but x86-64 (which keeps the cache's top level).
ARCH_DIRS = {"aarch64": "aarch64", "win_amd64": "windows"}

# The libraries with a Windows DLL stub a wheel ships and the DLL of each major (libraries.json's
# "windows", from the specs' RealLibrary::windows): layout.json key -> pattern of the DLL's file
# name, matched against the wheel's entries (exactly one must match: the 64-bit DLL, not
# cudart32_110.dll or nvrtc64_120_0.alt.dll). The driver's nvcuda.dll and nvml.dll ship with the
# driver, in no wheel.
def windows_dlls(library: dict, major: int) -> dict:
    windows = library.get("windows") or {}
    dll = windows.get("dlls", {}).get(str(major))
    # A DLL named after the library's own release (CUPTI's cupti64_2025.2.1.dll), or a listed
    # name (13.5's cupti64_13.dll).
    named = windows.get("release_named")
    patterns = ([re.escape(dll)] if dll else []) + \
        ([re.escape(named) + r"\d+\.\d+\.\d+\.dll"] if named else [])
    if not patterns:
        return {}
    dlls = {library["name"]: "|".join(patterns)}
    if windows.get("companion"):
        dlls[library["name"] + "_companion"] = re.escape(windows["companion"]) + r"\d+\.dll"
    # The DLL the real one cannot run without, beside it (cuDNN's cudnn_graph64_9.dll).
    if windows.get("lazy_dependency"):
        dlls[library["name"] + "_lazy_dependency"] = re.escape(windows["lazy_dependency"])
    return dlls


WINDOWS_LIBRARIES = tuple(lib["name"] for lib in LIBRARIES if lib.get("windows"))


def cache_dir(arch: str = "x86_64") -> pathlib.Path:
    if os.environ.get("CUDA_STUBS_CACHE"):
        cache = pathlib.Path(os.environ["CUDA_STUBS_CACHE"])
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        cache = pathlib.Path(base) / "cuda-stubs"
    # x86-64 keeps the cache's top level (the layout other tools and older checkouts read).
    return cache if arch == "x86_64" else cache / ARCH_DIRS[arch]


def aarch64_spec(spec: dict) -> dict:
    """One major's wheels for aarch64: the libraries and every header folder, without nvcc's
    tools (bin/, nvvm/): those would have to run on the host (see the module docstring)."""
    wheels = []
    for item in spec["wheels"]:
        if not isinstance(item, tuple):
            # A library's wheel: what `library_prefixes` says, as on x86-64.
            wheels.append(item)
            continue
        name, prefixes = item
        if isinstance(prefixes, str):
            prefixes = (prefixes,)
        if prefixes != ("nvidia/",):
            prefixes = tuple(p for p in prefixes if p.endswith("/include/"))
            if not prefixes:
                continue
        wheels.append((name, prefixes))
    return {**{k: v for k, v in spec.items() if k != "nvcc"}, "wheels": wheels}


def download(spec: str, dest: pathlib.Path, arch: str = "x86_64",
             optional: bool = False) -> pathlib.Path | None:
    """The wheel of `spec` for `arch`, downloaded once into `dest`. With `optional`, None when
    the index has no build of it for the arch (pip's "No matching distribution"; any other
    failure still stops the script)."""
    name, version = spec.split("==")
    stem = name.replace("-", "_") + "-" + version + "-"
    found = [p for p in dest.glob("*.whl") if p.name.startswith(stem)]
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
               "--python-version", "3.11", "-d", str(dest), spec]
        for plat in PLATFORMS[arch]:
            cmd += ["--platform", plat]
        run = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr)
            if optional and "No matching distribution found" in run.stderr:
                return None
            raise SystemExit(f"fetch-cuda: pip download {spec} failed")
        found = [p for p in dest.glob("*.whl") if p.name.startswith(stem)]
    if len(found) != 1:
        raise SystemExit(f"fetch-cuda: expected one wheel for {spec} in {dest}, found {found}")
    return found[0]


# The package index's simple API (PEP 691, JSON): pip's default index, or $PIP_INDEX_URL.
INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")


class NoRanges(OSError):
    """The index answered a range request with the whole file (HTTP 200): no range reads."""


class RemoteFile(io.RawIOBase):
    """A file on the index read by HTTP range requests: what `zipfile` needs of a wheel (its
    central directory at the end, then the members asked for), without downloading the rest."""

    def __init__(self, url: str):
        super().__init__()
        self.url, self.pos = url, 0
        # The first request (the last byte) also says the file's size.
        self.size = int(self._get(-1, None)[1].rsplit("/", 1)[1])

    def _get(self, start: int, end: int | None) -> tuple:
        span = f"bytes={start}-{end}" if start >= 0 else f"bytes={start}"
        for attempt in range(5):
            try:
                req = urllib.request.Request(self.url, headers={"Range": span})
                with urllib.request.urlopen(req, timeout=120) as resp:
                    if resp.status != 206:
                        raise NoRanges(f"HTTP {resp.status} to a range request")
                    return resp.read(), resp.headers["Content-Range"]
            except NoRanges:
                raise
            except OSError as e:
                if attempt == 4:
                    raise SystemExit(f"fetch-cuda: {self.url} {span}: {e}")
                time.sleep(2 ** attempt)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: self.size}[whence]
        self.pos = base + offset
        return self.pos

    def readinto(self, buffer) -> int:
        if self.pos >= self.size:
            return 0
        end = min(self.pos + len(buffer), self.size) - 1
        data = self._get(self.pos, end)[0]
        buffer[:len(data)] = data
        self.pos += len(data)
        return len(data)


def remote_wheel(spec: str, arch: str) -> io.BufferedReader | None:
    """The wheel of `spec` for `arch` on the index, opened for range reads (buffered in 8 MiB
    requests: a member is read in a few large requests, not zipfile's 4 KiB ones), or None when
    the index has none for the arch, does not speak PEP 691's JSON or ignores ranges."""
    name, version = spec.split("==")
    project = re.sub(r"[-_.]+", "-", name).lower()
    req = urllib.request.Request(f"{INDEX}/{project}/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            files = json.load(resp)["files"]
    except (OSError, ValueError, KeyError) as e:
        print(f"fetch-cuda: no JSON index for {name} ({e}): whole wheel")
        return None
    for platform in PLATFORMS[arch]:
        for f in files:
            parts = f["filename"][:-len(".whl")].split("-") if f["filename"].endswith(".whl") else []
            if (len(parts) == 5 and parts[1] == version and not f.get("yanked")
                    and platform in parts[4].split(".")):
                try:
                    remote = RemoteFile(f["url"])
                except NoRanges as e:
                    # Its first request (the size) says so: the whole wheel instead.
                    print(f"fetch-cuda: {f['url']}: {e}: whole wheel")
                    return None
                return io.BufferedReader(remote, buffer_size=8 << 20)
    return None


def unpack(wheel, root: pathlib.Path, prefixes: tuple, suffix: str = "") -> None:
    """Unpacks the wheel's entries under one of the prefixes (a folder, or one file's whole
    path) and, with a suffix, only the files whose names end in it (case-insensitive). The
    wheel is a downloaded file or a `remote_wheel`."""
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if not info.filename.startswith(prefixes) or ".dist-info/" in info.filename:
                continue
            if suffix and (info.is_dir() or not info.filename.lower().endswith(suffix)):
                continue
            path = root / info.filename
            if info.is_dir():
                path.mkdir(parents=True, exist_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written beside and renamed over: a cache refreshed (LAYOUT_VERSION bumped) while
            # another process has the old library mapped must not truncate it under that
            # process (SIGBUS); the rename leaves the old inode to it.
            tmp = path.with_name(path.name + f".tmp{os.getpid()}")
            with z.open(info) as src, open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
            # The high 16 bits of external_attr are the Unix mode the wheel was built with
            # (zipfile's own extract drops it; nvcc and its tools must stay executable).
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(tmp, mode or 0o644)
            os.replace(tmp, path)


def library_prefixes(major: int, held: list) -> tuple:
    """What a library wheel's entries are unpacked from: with every library it holds
    `"unpack": "library_and_headers"` (libraries.json, from the specs' `TestWheel::unpack`), the
    libraries' files and include folders only; else the top folder of each library it holds
    (`nvidia/` for NVIDIA's CUDA wheels, `cutensor/` for cuTENSOR's)."""
    wheels = [wheel for lib in LIBRARIES if lib["name"] in held
              for wheel in lib["wheels"] if wheel["major"] == major]
    if wheels and all(wheel.get("unpack") == "library_and_headers" for wheel in wheels):
        # With the library the real one cannot be called without, where the spec names one
        # (cuDNN's front library aborts without libcudnn_graph.so.9 beside it).
        return tuple(dict.fromkeys(
            path for wheel in wheels
            for path in (wheel["library"], wheel.get("lazy_dependency"), wheel["include"] + "/")
            if path))
    return tuple(dict.fromkeys(wheel["library"].split("/")[0] + "/" for wheel in wheels)) or (
        "nvidia/",)


def beside_files(major: int, held: list) -> list:
    """The other wheels' files the held libraries of `major` need beside them (libraries.json's
    "beside", from the specs' `Unpack::LibraryAndHeadersBeside`): (requirement, entries) pairs."""
    found = {}
    for lib in LIBRARIES:
        if lib["name"] in held:
            for wheel in lib["wheels"]:
                if wheel["major"] == major:
                    for entry in wheel.get("beside", []):
                        found.setdefault(entry["wheel"], []).append(entry)
    return list(found.items())


def partial(major: int, held: list) -> bool:
    """Whether a library wheel is read member by member off the index (`library_prefixes`)."""
    return bool(held) and all(
        wheel.get("unpack") == "library_and_headers" for lib in LIBRARIES if lib["name"] in held
        for wheel in lib["wheels"] if wheel["major"] == major)


def fetch(major: int, cache: pathlib.Path, arch: str = "x86_64") -> dict:
    spec = major_spec(major) if arch == "x86_64" else aarch64_spec(major_spec(major))
    root = cache / f"cuda-{major}"
    layout_file = root / "layout.json"
    # Libraries NVIDIA publishes no wheel of for this arch (aarch64 has no nvidia-nccl-cu11):
    # left out of layout.json and listed under "unavailable", so the tests skip that major.
    unavailable = []
    # With a tree of this layout version that lacks a library added since: what it has.
    present = None
    if layout_file.exists():
        layout = json.loads(layout_file.read_text())
        libraries = {**spec["first"], **spec["later"]}
        if layout.get("layout_version") == LAYOUT_VERSION:
            unavailable = list(layout.get("unavailable", []))
            present = {key for key in LIBRARY_KEYS if key in layout} | set(unavailable)
            # Its include folders too: a checkout whose libraries.json lacks this one's may
            # have rewritten the list since.
            includes = {str(root / d) for d in spec["include"]}
            if all(key in present for key in LIBRARY_KEYS if key in libraries) \
                    and includes <= set(layout.get("include", [])):
                return layout
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    for item in spec["wheels"]:
        wheel_spec, prefixes = item if isinstance(item, tuple) else (item, None)
        if isinstance(prefixes, str):
            prefixes = (prefixes,)
        held = spec["holds"].get(wheel_spec, [])
        if prefixes is None:
            prefixes = library_prefixes(major, held)
        # Completing such a tree: only the wheels of the libraries it lacks are unpacked (the
        # rest is there already; NCCL's 1 GB, not the major's 2 GB again).
        if present is not None and all(name in present for name in held):
            continue
        # Never the runtime's wheel, which names the major's version.
        optional = arch != "x86_64" and bool(held) and RUNTIME not in held
        # Only the library and its headers, off the index, where the spec asks for no more
        # (else, or where the index cannot serve ranges, the whole wheel as before).
        wheel = remote_wheel(wheel_spec, arch) if partial(major, held) else None
        if wheel is not None:
            print(f"fetch-cuda: {wheel_spec} ({arch}): {', '.join(prefixes)} only")
        else:
            wheel = download(wheel_spec, wheels, arch, optional)
        if wheel is None:
            print(f"fetch-cuda: no {arch} wheel of {wheel_spec}: {', '.join(held)} left out")
            unavailable += held
            continue
        unpack(wheel, root, prefixes)
        # Files of another wheel the library cannot be loaded without, where its spec names
        # some (cuFFTMp's libnvshmem_host.so.3, of NVSHMEM's wheel): read off that wheel the
        # same way, into the same tree, where the library's RPATH finds them.
        for beside in beside_files(major, held):
            files = tuple(dict.fromkeys(entry["file"] for entry in beside[1]))
            other = remote_wheel(beside[0], arch)
            if other is not None:
                print(f"fetch-cuda: {beside[0]} ({arch}): {', '.join(files)} only")
            else:
                other = download(beside[0], wheels, arch, False)
            unpack(other, root, files)
    for name in unavailable:
        spec["first"].pop(name, None)
        spec["later"].pop(name, None)
    layout = {
        "layout_version": LAYOUT_VERSION,
        "major": major,
        "version": spec["version"],
        "root": str(root),
        **{key: str(root / path) for key, path in spec["first"].items()},
        "include": [str(root / d) for d in spec["include"]],
        **{key: str(root / path) for key, path in spec["later"].items()},
    }
    if present is not None:
        # Keys of libraries this checkout's libraries.json does not list (another checkout,
        # newer or older, completed the shared tree with them): kept, so that checkouts sharing
        # one cache do not undo each other's completions.
        old = json.loads(layout_file.read_text())
        layout.update({key: value for key, value in old.items()
                       if key not in layout and key not in ("unavailable",)})
        # Their include folders too, after this checkout's (without them another checkout's
        # codegen no longer finds its library's headers).
        layout["include"] += [d for d in old.get("include", []) if d not in layout["include"]]
    if unavailable:
        layout["unavailable"] = unavailable
    if "nvcc" in spec:
        layout["nvcc"] = str(root / spec["nvcc"])
        if not os.access(layout["nvcc"], os.X_OK):
            raise SystemExit(f"fetch-cuda: {layout['nvcc']} missing or not executable")
    for key in (k for k in LIBRARY_KEYS if k in layout):
        if not pathlib.Path(layout[key]).is_file():
            raise SystemExit(f"fetch-cuda: {layout[key]} missing after unpacking")
    # Written last: its presence means the tree is complete. Renamed over, never rewritten in
    # place: a tree copied with hard links (`cp -al`) keeps the original's file untouched.
    tmp = layout_file.with_name(f"layout.json.tmp{os.getpid()}")
    tmp.write_text(json.dumps(layout, indent=2) + "\n")
    os.replace(tmp, layout_file)
    return layout


def fetch_windows(major: int, cache: pathlib.Path) -> dict:
    """One major's Windows DLLs (see the module docstring); layout.json's paths are relative.
    A wheel already in <cache>/windows/wheels is read from there; else only its DLLs are read
    off the index by range requests (`remote_wheel`; the whole wheel where the index cannot).
    A DLL already unpacked at its size is not read again."""
    patterns = {lib["name"]: windows_dlls(lib, major) for lib in LIBRARIES}
    wheels = {lib["name"]: wheel["wheel"] for lib in LIBRARIES for wheel in lib["wheels"]
              if wheel["major"] == major and patterns[lib["name"]]}
    root = cache / f"cuda-{major}"
    layout_file = root / "layout.json"
    keys = [key for name in wheels for key in patterns[name]]
    old = {}
    if layout_file.exists():
        layout = json.loads(layout_file.read_text())
        if layout.get("layout_version") == LAYOUT_VERSION:
            old = layout.get("dlls", {})
            # Complete when it has every DLL this checkout's libraries.json names (another
            # checkout sharing the cache may have added more).
            if all(key in old for key in keys):
                return layout
    wheel_dir = cache / "wheels"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    dlls = {}
    # Once per wheel: cuBLAS and cuBLASLt share one.
    for wheel_spec in dict.fromkeys(wheels.values()):
        names = [name for name in wheels if wheels[name] == wheel_spec]
        name, version = wheel_spec.split("==")
        stem = name.replace("-", "_") + "-" + version + "-"
        local = [w for w in wheel_dir.glob("*.whl") if w.name.startswith(stem)]
        wheel = local[0] if local else remote_wheel(wheel_spec, "win_amd64")
        if wheel is None:
            wheel = download(wheel_spec, wheel_dir, "win_amd64")
        with zipfile.ZipFile(wheel) as z:
            infos = z.infolist()
        wanted = {}
        for key, pattern in ((k, p) for n in names for k, p in patterns[n].items()):
            found = [i for i in infos if re.fullmatch(pattern, i.filename.rsplit("/", 1)[-1])]
            if len(found) != 1:
                raise SystemExit(f"fetch-cuda: expected one {key} DLL in {wheel_spec} "
                                 f"(win_amd64), found {[i.filename for i in found]}")
            dlls[key] = found[0].filename
            wanted[found[0].filename] = found[0]
        missing = tuple(path for path, info in wanted.items()
                        if not ((root / path).is_file()
                                and (root / path).stat().st_size == info.file_size))
        if missing:
            size = sum(wanted[path].compress_size for path in missing)
            how = "unpacked" if isinstance(wheel, pathlib.Path) else "read off the index"
            print(f"fetch-cuda: {wheel_spec} (win_amd64): {', '.join(missing)} "
                  f"({size / 1e6:.0f} MB compressed, {how})")
            unpack(wheel, root, missing)
    for path in dlls.values():
        with open(root / path, "rb") as f:
            if f.read(2) != b"MZ":
                raise SystemExit(f"fetch-cuda: {root / path} is not a DLL")
    layout = {
        "layout_version": LAYOUT_VERSION,
        "major": major,
        "version": wheels[RUNTIME].split("==")[1],
        # Another checkout's DLLs (libraries this one's libraries.json lacks) are kept.
        "dlls": {**{key: dlls[key] for key in keys},
                 **{key: path for key, path in old.items() if key not in dlls}},
    }
    # Written last (its presence means the tree is complete), and renamed over.
    tmp = layout_file.with_name(f"layout.json.tmp{os.getpid()}")
    tmp.write_text(json.dumps(layout, indent=2) + "\n")
    os.replace(tmp, layout_file)
    return layout


def prune_wheels(wheels: pathlib.Path) -> None:
    """Deletes the downloaded wheels in `wheels` but those of the INSTALLED libraries (of any
    major): a wheel is read once, into its major's tree; a later change of the tree (a library
    added to a wheel already unpacked, a LAYOUT_VERSION bump) downloads it again."""
    kept = tuple(wheel["wheel"].split("==")[0].replace("-", "_") + "-"
                 + wheel["wheel"].split("==")[1] + "-"
                 for lib in LIBRARIES if lib["name"] in INSTALLED for wheel in lib["wheels"])
    for path in wheels.glob("*.whl"):
        if not path.name.startswith(kept):
            path.unlink()


def main() -> None:
    args = sys.argv[1:]
    arch = "x86_64"
    if args[:1] == ["--arch"] and len(args) >= 2:
        arch, args = args[1], args[2:]
    if arch not in PLATFORMS or args not in ([], ["--print-cache"], ["--prune"]):
        raise SystemExit(
            "usage: fetch-cuda.py [--arch x86_64|aarch64|win_amd64] [--print-cache | --prune]")
    cache = cache_dir(arch)
    if args == ["--print-cache"]:
        print(cache)
        return
    if args == ["--prune"]:
        # Offline, at once: scripts/test.sh measures the free disk after it (a cache filled
        # by an older checkout still holds every wheel).
        prune_wheels(cache / "wheels")
        return
    for major in MAJORS:
        if arch == "win_amd64":
            layout = fetch_windows(major, cache)
            print(f"cuda {layout['version']}: {cache / f'cuda-{major}'}")
        else:
            layout = fetch(major, cache, arch)
            print(f"cuda {layout['version']}: {layout['root']}")
        # After each major, not at the end: a fresh cache then never holds more than one
        # major's wheels at once.
        prune_wheels(cache / "wheels")


if __name__ == "__main__":
    main()
