"""``python -m cuda_stubs`` with no option: a table of what each stub binds (library, bound,
version, how found, how its release stands with the CUDA driver, path, after the driver's line;
the JSON is ``--status``). With one option, one of the package's
paths or flags for build scripts: ``--cmakedir | --libdir | --implibdir | --includedir |
--pkgconfigdir | --compatdir | --linkdir [--abi 12|13] [--cuda-include DIR] | --ldflags [--abi 12|13]
[--cuda-include DIR] | --status``; or ``--capture-profile [--device N] [-o FILE] [--keep-ids]``,
a mock-device profile of this machine's GPU (the package's ``bin/cuda-stubs-capture``); or
``--check FILE...``, the audit of binaries, shared objects or
wheels: each of NVIDIA's sonames still in ``DT_NEEDED``, whether a stub exists for it, exit 1
when one is left (2: a missing file, not ELF, an unreadable wheel); or ``--mock-profiles``, the
mock device's built-in profiles (``CUDA_STUBS_MOCK=NAME``), one line each: name, board,
compute capability, memory, driver (exit 2 where the package has no mock: Windows).

On Windows ``--libdir`` is the DLLs' folder (``bin``), ``--implibdir`` that of their import
libraries (``lib``), ``--ldflags`` MinGW's flags, and ``--pkgconfigdir`` and ``--linkdir`` fail
(exit 2): the Windows package has no pkg-config files and no link folder.

``--ldflags`` and ``--linkdir`` follow the ABI of the CUDA headers the code is compiled against:
``--abi``, else the ``cuda_runtime_api.h`` found in ``--cuda-include``, else the newest (13).
When both are given and disagree it fails (exit 2) instead of linking calls compiled against
one header's prototypes to the other's."""

from __future__ import annotations

import argparse
import json
import sys

import cuda_stubs
from cuda_stubs import _capture, _check


def main(argv: list[str] | None = None) -> int:
    """Parses ``argv`` and prints the one thing asked for."""
    given = sys.argv[1:] if argv is None else list(argv)
    if "--capture-profile" in given:
        # Its own options (--device, -o, --keep-ids, --name) are the capture program's.
        return _capture.main(cuda_stubs._ROOT, [a for a in given if a != "--capture-profile"])
    parser = argparse.ArgumentParser(prog="python -m cuda_stubs", description=__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--cmakedir", action="store_true", help="folder of cuda-stubsConfig.cmake")
    group.add_argument(
        "--libdir", action="store_true", help="folder of libstubs_*.so (Windows: stubs_*.dll)"
    )
    group.add_argument(
        "--implibdir",
        action="store_true",
        help="folder the linker reads (Windows: the import libraries; Linux: --libdir)",
    )
    group.add_argument("--includedir", action="store_true", help="folder of cuda_stubs.h")
    group.add_argument("--pkgconfigdir", action="store_true", help="folder of the .pc files")
    group.add_argument(
        "--compatdir",
        action="store_true",
        help="opt-in folder of libcudart.so.12/.13, libnvrtc.so.12/.13 forwarding to the stubs, "
        "for binaries linked against NVIDIA's runtime (on no search path; Linux only)",
    )
    group.add_argument("--ldflags", action="store_true", help="-L/-l/-rpath flags of the stubs")
    group.add_argument(
        "--linkdir",
        action="store_true",
        help="folder of NVIDIA's link names (libcudart.so, libcublas.so, ...) naming the stubs",
    )
    group.add_argument("--status", action="store_true", help="what each stub binds, as JSON")
    group.add_argument(
        "--mock-profiles",
        action="store_true",
        help="the mock device's built-in profiles (CUDA_STUBS_MOCK=NAME), one line each",
    )
    group.add_argument(
        "--capture-profile",
        action="store_true",
        help="write a mock-device profile of this machine's GPU (CUDA_STUBS_MOCK=FILE): "
        "[--device N] [-o FILE] [--keep-ids] [--name NAME], bin/cuda-stubs-capture's options",
    )
    group.add_argument(
        "--check",
        nargs="+",
        metavar="FILE",
        help="list NVIDIA sonames still needed by binaries, shared objects or wheels; exit 1 if any",
    )
    parser.add_argument(
        "--abi",
        type=int,
        choices=cuda_stubs.CUDART_ABIS,
        help="with --ldflags, --linkdir: the CUDA major of the headers the code is compiled against",
    )
    parser.add_argument(
        "--cuda-include",
        metavar="DIR",
        help="with --ldflags, --linkdir: the folder of the cuda_runtime_api.h the code is compiled "
        "against",
    )
    args = parser.parse_args(argv)
    if (args.abi is not None or args.cuda_include) and not (args.ldflags or args.linkdir):
        parser.error("--abi and --cuda-include go with --ldflags or --linkdir")
    if args.check:
        try:
            findings = _check.check(args.check)
        except _check.CheckError as e:
            parser.error(str(e))
        _check.report(findings)
        return 1 if findings else 0
    if args.ldflags or args.linkdir:
        abi = args.abi
        if args.cuda_include:
            try:
                headers = cuda_stubs.cudart_abi_of_headers(args.cuda_include)
            except (OSError, ValueError) as e:
                parser.error(f"--cuda-include: {e}")
            if abi is not None and abi != headers:
                parser.error(
                    f"--abi {abi}, but {args.cuda_include}/cuda_runtime_api.h is CUDA "
                    f"{headers}.x: code compiled against it calls cudaMemAdvise, "
                    "cudaGraphAddDependencies and the other names whose prototype changed in "
                    f"13.0 with {headers}.x's prototypes; link with --abi {headers}"
                )
            abi = headers
        try:
            print(cuda_stubs.ldflags(abi) if args.ldflags else cuda_stubs.link_dir(abi))
        except (OSError, ValueError) as e:
            parser.error(str(e))
        return 0
    if args.status:
        print(json.dumps(cuda_stubs.status(), indent=2))
        return 0
    if args.mock_profiles:
        from cuda_stubs import _mock  # only here: it starts a child process

        try:
            print("\n".join(_mock.mock_profiles()))
        except OSError as e:
            parser.error(str(e))
        return 0
    if not any(vars(args).values()):
        _table(cuda_stubs.status())
        return 0
    for flag, value in [
        ("cmakedir", cuda_stubs.cmake_dir),
        ("libdir", cuda_stubs.lib_dir),
        ("implibdir", cuda_stubs.implib_dir),
        ("includedir", cuda_stubs.include_dir),
        ("pkgconfigdir", cuda_stubs.pkgconfig_dir),
        ("compatdir", cuda_stubs.compat.compat_dir),
    ]:
        if getattr(args, flag):
            try:
                print(value())
            except OSError as e:
                parser.error(str(e))
    return 0


def _version(version: int) -> str:
    """``12040`` as ``12.4``."""
    return f"{version // 1000}.{version % 1000 // 10}"


def _table(status: dict[str, dict[str, object]]) -> None:
    """The driver first (the CUDA version it runs, its file: the newest any stub knew), then one
    line per stub: library, bound or not, CUDA version, how found, how its release stands with
    the driver, path (or why not); a release bound beyond the driver adds its warning."""
    drivers = [s["driver"] for s in status.values() if s["driver"]["cuda_version"]]
    if drivers:
        d = max(drivers, key=lambda d: d["cuda_version"])
        print(f"driver: CUDA {_version(d['cuda_version'])} ({d['path']})")
    else:
        print("driver: none known")
    rows = [("library", "bound", "version", "found by", "driver", "path")]
    warnings = []
    for name, s in status.items():
        version = s["version"]
        shown = _version(version) if s["bound"] and version else "-"
        fit = str(s["driver"]["fit"] or "-")
        rows.append(
            (
                name,
                "yes" if s["bound"] else "no",
                shown,
                str(s["found_by"] or "-"),
                fit,
                str(s["path"] if s["bound"] else (s["message"] or "-")),
            )
        )
        if fit.endswith("-beyond"):
            warnings.append(str(s["driver"]["message"]))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[5])
    for warning in warnings:
        print(warning)


if __name__ == "__main__":
    sys.exit(main())
