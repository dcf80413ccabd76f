#!/usr/bin/env bash
# What the test scripts need beyond the machine image (Debian 12, rustup's stable toolchain, gcc,
# CPython with pip), in one list, installed when missing: Debian packages, tools built by
# `cargo install`, rustup targets. Called by scripts/test.sh (stages `test aarch64`: the
# aarch64 stage's packages too, in the same apt run), scripts/test-aarch64.sh (`aarch64`: a no-op
# after test.sh's) and scripts/bench.sh (`bench`); the main job needs nothing from here.
#
# Each Debian package is checked by dpkg's own status of that package, not by a file that some
# other package may also provide: a guard that looked for `libclang.*\.so` in the loader cache
# matched the image's libclang-cpp.so.14, so libclang-dev (what bindgen loads, with clang's
# builtin headers) was never installed on a fresh machine (issue 19).
#
# Usage: scripts/setup-machine.sh STAGE...   (STAGE: test, aarch64, bench)
#
# Several stages at once (scripts/test.sh: `test aarch64`) install in one `apt-get update` and
# one `apt-get install`, not one of each per stage.
set -euo pipefail

# Whether the python3 on PATH has its C headers (`Python.h` in sysconfig's include folder).
python3_has_headers() {
  python3 -c 'import os, sysconfig
raise SystemExit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
}

# stage -> Debian packages, each with the step that uses it.
packages() {
  case "$1" in
    test)
      # codegen --check: bindgen loads libclang.so and parses with clang's builtin headers.
      echo libclang-dev
      # STUBS_TESTS_VALGRIND=1: the integration suite under memcheck.
      echo valgrind
      # packaging.rs, test-packaging.sh, test-example-python.sh: CMake packages, .pc files.
      echo cmake pkg-config
      # test-example-python.sh: the example extension compiles against the C headers of the
      # python3 that builds it (scikit-build-core's FindPython, Development.Module). A Python
      # built from source (pyenv) has them; Debian's python3 needs python3-dev.
      python3_has_headers || echo python3-dev
      # windows.rs, test-packaging-windows.sh: the DLL stubs' C programs and stand-in driver
      # (MinGW, whose binutils' dlltool writes the MinGW import libraries), wine 8 to run them,
      # llvm-dlltool for the MSVC import libraries.
      echo gcc-mingw-w64-x86-64 wine64 llvm
      ;;
    aarch64)
      # The aarch64 cross compiler and C library; qemu-user runs every aarch64 program. cmake
      # for the cross-built wheel.
      echo gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user cmake
      ;;
    bench)
      echo valgrind hyperfine
      ;;
    *) echo "setup-machine.sh: unknown stage $1 (test, aarch64, bench)" >&2; exit 2 ;;
  esac
}

# stage -> cargo-installed tools, `crate@version`, each with the step that uses it. Debian 12 has
# no mdbook package; the pinned release builds from crates.io in about a minute without its
# default features (serve, watch: the live-reload server; search: the book's search box).
tools() {
  case "$1" in
    # scripts/check-docs.sh: the book under docs/.
    test) echo mdbook@0.4.52 ;;
  esac
}

# stage -> rustup targets.
targets() {
  case "$1" in
    test) echo x86_64-pc-windows-gnu ;;
    aarch64) echo aarch64-unknown-linux-gnu ;;
  esac
}

# The aarch64 guests' libz.so.1, for cuda-stubs' cudnn suite: NVIDIA's aarch64
# libcudnn_graph.so.9 needs it (DT_NEEDED), and the cross C library (libc6-dev-arm64-cross,
# the sysroot qemu-user's -L names) has none. Not Debian's arm64 zlib1g by multiarch: it brings
# an arm64 libc6 into /lib/aarch64-linux-gnu, which the emulated loader then prefers to the
# sysroot's own, and every guest hangs in the mismatched pair. The same zlib1g (Debian 12's,
# pinned by its hash) is unpacked and its library copied into the sysroot instead.
sysroot_libz() {
  local sysroot=/usr/aarch64-linux-gnu/lib deb=zlib1g_1.2.13.dfsg-1_arm64.deb
  local sha=52b8b8a145bbe1956bba82034f77022cbef0c3d0885c9e32d9817a7932fe1913
  [ -e "$sysroot/libz.so.1" ] && return
  if [ "$(id -u)" != 0 ]; then
    echo "setup-machine.sh: no $sysroot/libz.so.1 (aarch64 zlib): run as root to add it" >&2
    exit 1
  fi
  local tmp
  tmp=$(mktemp -d)
  echo "== $sysroot/libz.so.1 from Debian's $deb"
  # Python's urllib, not curl: the CI image has Python, not necessarily curl (a fresh
  # Debian root has none: scripts/check-fresh-machine.sh).
  python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
    "http://deb.debian.org/debian/pool/main/z/zlib/$deb" "$tmp/$deb"
  echo "$sha  $tmp/$deb" | sha256sum -c --quiet
  dpkg-deb -x "$tmp/$deb" "$tmp/root"
  cp -a "$tmp"/root/lib/aarch64-linux-gnu/libz.so.1* "$sysroot/"
  rm -rf "$tmp"
}

usage="usage: scripts/setup-machine.sh test|aarch64|bench..."
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
# Checked here: `packages` exiting inside the `for` word list below would not stop the script.
for stage in "$@"; do
  case "$stage" in
    test | aarch64 | bench) ;;
    *) echo "$usage (not '$stage')" >&2; exit 2 ;;
  esac
done
missing=()
for stage in "$@"; do
  for pkg in $(packages "$stage"); do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = installed ] || [[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
  done
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "setup-machine.sh: missing Debian packages ${missing[*]}: install them (or run as root with apt)" >&2
    exit 1
  fi
  echo "== installing ${missing[*]}"
  apt-get update -qq
  # --no-install-recommends: qemu-user recommends qemu-user-binfmt, which would run aarch64
  # programs transparently and hide a scenario that forgot the runner.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for stage in "$@"; do
  [ "$stage" != aarch64 ] || sysroot_libz
  for tool in $(tools "$stage"); do
    name=${tool%@*} version=${tool#*@}
    # `mdbook --version` prints `mdbook v0.4.52`: the pinned release or nothing else.
    if [ "$("$name" --version 2>/dev/null)" != "$name v$version" ]; then
      echo "== cargo install $name $version"
      cargo install --quiet --locked --no-default-features --version "$version" "$name"
    fi
  done
  for triple in $(targets "$stage"); do
    if ! rustup target list --installed | grep -qx "$triple"; then
      echo "== rustup target add $triple"
      rustup target add "$triple"
    fi
  done
done
