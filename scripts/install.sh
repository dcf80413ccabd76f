#!/usr/bin/env bash
# Installs the stubs under a prefix, for projects that do not use Python:
#
#   scripts/install.sh --prefix DIR
#
# gives DIR/lib/libstubs_<name>.so of every library, DIR/include/cuda_stubs.h,
# DIR/lib/cmake/cuda-stubs/ (find_package(cuda-stubs CONFIG)), DIR/lib/pkgconfig/
# (cuda-stubs-<name>.pc) and DIR/share/doc/cuda-stubs/ (the license texts, NOTICE);
# scripts/libraries.sh lists the stubs (CUDA_STUBS_FILES,
# CUDA_STUBS_PC_MODULES), codegen writes it from the specs. Needs cargo and CMake >= 3.18
# (`pip install cmake` gives one). The tree is relocatable: move DIR anywhere.
#
# With CUDA_STUBS_CARGO_TARGET=x86_64-pc-windows-gnu, the Windows stubs instead
# (docs/src/windows.md): DIR/bin/stubs_<name>.dll of each library with one (CUDA_STUBS_WINDOWS),
# their import libraries in DIR/lib,
# cuda_stubs.h and the CMake package. Each target has its own build folder (CMake caches the
# target at the first configure).
set -euo pipefail
usage() { echo "usage: $0 --prefix DIR [--build-dir DIR]" >&2; exit 2; }
prefix= build=
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:-}; shift 2 || usage ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --build-dir) build=${2:-}; shift 2 || usage ;;
    --build-dir=*) build=${1#*=}; shift ;;
    *) usage ;;
  esac
done
[ -n "$prefix" ] || usage
root=$(cd "$(dirname "$0")/.." && pwd)
build=${build:-$root/target/cmake-install${CUDA_STUBS_CARGO_TARGET:+-$CUDA_STUBS_CARGO_TARGET}}
cmake -S "$root" -B "$build" -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$build"
cmake --install "$build"
