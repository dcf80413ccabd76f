#!/usr/bin/env python3
"""Fetch an older glibc to run the stubs under: Debian 11's glibc 2.31, below 2.34 (where `dlopen`
and the pthread keys moved from libdl.so.2 / libpthread.so.0 into libc.so.6), the glibc of
Ubuntu 20.04's generation and older than RHEL 9's.

Unpacks Debian 11 (bullseye) packages into a root folder, with Debian's own tools (`apt-get
download` from a private package list, `dpkg -x`), never installing anything:

    <cache>/glibc-2.31/root/lib64/ld-linux-x86-64.so.2       (x86-64; aarch64: <cache>/aarch64/…,
    <cache>/glibc-2.31/root/lib/x86_64-linux-gnu/libc.so.6     lib/ld-linux-aarch64.so.1)
    <cache>/glibc-2.31/root/usr/include, usr/lib/…/crt1.o, libc.so …

`libc6` (the C library, libdl, libpthread, the dynamic loader), `libc6-dev` and `linux-libc-dev`
(headers, start files: a program is compiled against this glibc with `gcc --sysroot`),
`libgcc-s1` and `libstdc++6` (NVRTC's builtins library needs them, and the machine's own need
glibc 2.34+). Absolute symbolic links inside the packages (`lib64/ld-linux-x86-64.so.2 ->
/lib/x86_64-linux-gnu/ld-2.31.so`) are made relative, so the root works where it lies.

tests/tests/glibc_floor.rs runs it (once per test process) and prints nothing else of it. <cache>
is fetch-cuda.py's (`$CUDA_STUBS_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/cuda-stubs`, with
`aarch64/` for that architecture). A second run is a no-op.

Usage: fetch-old-glibc.py [--arch x86_64|aarch64]   (prints the root folder)
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

SUITE = "bullseye"
GLIBC = "2.31"
PACKAGES = ["libc6", "libc6-dev", "linux-libc-dev", "libgcc-s1", "libstdc++6"]
DEBIAN_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}
MIRROR = "http://deb.debian.org/debian"


def cache_dir(arch: str) -> pathlib.Path:
    """fetch-cuda.py's cache folder for `arch`: one definition of where the tests' downloads go."""
    path = pathlib.Path(__file__).with_name("fetch-cuda.py")
    spec = importlib.util.spec_from_file_location("fetch_cuda", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.cache_dir(arch)


def apt_options(state: pathlib.Path, arch: str) -> list:
    """apt-get options that read and write only `state`: its own sources list, package lists and
    archive cache, for one foreign or native architecture; the machine's apt setup is untouched."""
    return [
        "-q",
        f"-oDir::Etc::SourceList={state / 'sources.list'}",
        "-oDir::Etc::SourceParts=/dev/null",
        f"-oDir::State::Lists={state / 'lists'}",
        f"-oDir::Cache={state / 'cache'}",
        f"-oAPT::Architecture={arch}",
        f"-oAPT::Architectures={arch}",
        # The files are the caller's own (the cache), not the _apt user's.
        "-oAPT::Sandbox::User=root",
    ]


def relative_links(root: pathlib.Path) -> None:
    """Points every absolute symbolic link under `root` at the same path inside `root`."""
    for link in root.rglob("*"):
        if link.is_symlink():
            target = os.readlink(link)
            if target.startswith("/"):
                inside = root / target.lstrip("/")
                link.unlink()
                link.symlink_to(os.path.relpath(inside, link.parent))


def fetch(arch: str) -> pathlib.Path:
    top = cache_dir(arch) / f"glibc-{GLIBC}"
    root = top / "root"
    done = top / "done"
    if done.is_file():
        return root
    if top.exists():
        shutil.rmtree(top)
    state = top / "apt"
    debs = top / "debs"
    for d in (state / "lists" / "partial", state / "cache" / "archives" / "partial", debs, root):
        d.mkdir(parents=True, exist_ok=True)
    (state / "sources.list").write_text(f"deb [arch={DEBIAN_ARCH[arch]}] {MIRROR} {SUITE} main\n")
    options = apt_options(state, DEBIAN_ARCH[arch])
    quiet = {"stdout": subprocess.DEVNULL}
    subprocess.run(["apt-get", *options, "update"], check=True, **quiet)
    subprocess.run(
        ["apt-get", *options, "download", *[f"{p}:{DEBIAN_ARCH[arch]}/{SUITE}" for p in PACKAGES]],
        check=True, cwd=debs, **quiet)
    for deb in sorted(debs.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    relative_links(root)
    shutil.rmtree(state)
    shutil.rmtree(debs)
    done.write_text(f"Debian {SUITE} glibc {GLIBC}: {' '.join(PACKAGES)}\n")
    return root


def main() -> None:
    args = sys.argv[1:]
    arch = "x86_64"
    if args[:1] == ["--arch"] and len(args) == 2:
        arch = args[1]
    elif args:
        arch = ""
    if arch not in DEBIAN_ARCH:
        raise SystemExit("usage: fetch-old-glibc.py [--arch x86_64|aarch64]")
    print(fetch(arch))


if __name__ == "__main__":
    main()
