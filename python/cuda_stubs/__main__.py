"""``python -m cuda_stubs --cmakedir | --libdir | --includedir | --pkgconfigdir | --ldflags |
--status``: prints one of the package's paths or flags (for build scripts), or the stubs'
status as JSON."""

from __future__ import annotations

import argparse
import json
import sys

import cuda_stubs


def main(argv: list[str] | None = None) -> int:
    """Parses ``argv`` and prints the one thing asked for."""
    parser = argparse.ArgumentParser(prog="python -m cuda_stubs", description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--cmakedir", action="store_true", help="folder of cuda-stubsConfig.cmake")
    group.add_argument("--libdir", action="store_true", help="folder of libstubs_*.so")
    group.add_argument("--includedir", action="store_true", help="folder of cuda_stubs.h")
    group.add_argument("--pkgconfigdir", action="store_true", help="folder of the .pc files")
    group.add_argument("--ldflags", action="store_true", help="-L/-l/-rpath flags of the stubs")
    group.add_argument("--status", action="store_true", help="what each stub binds, as JSON")
    args = parser.parse_args(argv)
    if args.status:
        print(json.dumps(cuda_stubs.status(), indent=2))
        return 0
    for flag, value in [
        ("cmakedir", cuda_stubs.cmake_dir),
        ("libdir", cuda_stubs.lib_dir),
        ("includedir", cuda_stubs.include_dir),
        ("pkgconfigdir", cuda_stubs.pkgconfig_dir),
        ("ldflags", cuda_stubs.ldflags),
    ]:
        if getattr(args, flag):
            print(value())
    return 0


if __name__ == "__main__":
    sys.exit(main())
