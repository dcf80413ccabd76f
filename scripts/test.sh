#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Sets up what it needs on a fresh machine:
# the Debian packages, rustup target and mdbook of scripts/setup-machine.sh, NVIDIA's wheels for
# the real-library tests.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-machine.sh test

echo "== fetching NVIDIA's CUDA 11.8 / 12.9 / 13.5 wheels (cached), Linux and win_amd64"
python3 scripts/fetch-cuda.py
python3 scripts/fetch-cuda.py --arch win_amd64

echo "== rustfmt, clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The Windows code paths of the loader (stub-loader/src/os/windows/) and every DLL stub's crate
# (scripts/libraries.sh, from the specs: stubs_<name> is the crate stubs-<name>).
source scripts/libraries.sh
windows_crates=()
for stem in "${CUDA_STUBS_WINDOWS[@]}"; do windows_crates+=(-p "${stem//_/-}"); done
cargo clippy --target x86_64-pc-windows-gnu --quiet -p stub-loader "${windows_crates[@]}" -- -D warnings

echo "== stub-loader: one OS boundary (os/), no import circle"
# Only the loader's os/ tests the OS in a cfg (stub-loader/src/os/mod.rs says why).
if grep -rlE 'cfg!?\((.*)(windows|unix|target_os|target_family)' stub-loader/src | grep -v '/os/'; then
  echo "cfg on the OS outside stub-loader/src/os/ (above)" >&2
  exit 1
fi
python3 scripts/check-module-cycles.py stub-loader/src

echo "== docs: mdbook build docs (no warning), links checked"
scripts/check-docs.sh

echo "== codegen drift check: regenerate from the headers, fail on any diff"
cargo run --quiet --release -p codegen -- --check
echo "== hand-kept lists of the libraries: none outside the specs and generated files"
scripts/check-lists.sh

echo "== stubs: exports, SONAMEs"
cargo build --workspace --quiet

echo "== cargo test"
cargo test --workspace --no-fail-fast

echo "== the integration suite again, every scenario process under valgrind memcheck"
STUBS_TESTS_VALGRIND=1 cargo test -p stubs-tests --no-fail-fast -- --test-threads=2

echo "== aarch64: cross-built stubs, mocks and C programs under qemu-user, NVIDIA's aarch64 wheels"
scripts/test-aarch64.sh

echo "== packaging: the wheel (pip, auditwheel) and the install-and-use recipes (README, docs/)"
scripts/test-packaging.sh

echo "== packaging for Windows: the win_amd64 wheel, CMake (MinGW, MSVC's import libraries), under wine"
scripts/test-packaging-windows.sh

echo "== example/python: one extension wheel on 11.8, 12.9, 13.5 and none"
scripts/test-example-python.sh

echo "== main job: the bundled example on 11.8, 12.9, 13.5 and none"
scripts/main-job.sh
