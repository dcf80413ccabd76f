#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Sets up what it needs on a fresh machine:
# libclang for codegen's drift check, NVIDIA's wheels for the real-library tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! ldconfig -p 2>/dev/null | grep 'libclang.*\.so' >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing libclang (codegen's drift check parses NVIDIA's headers)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-dev >/dev/null
  fi
fi

if ! command -v valgrind >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing valgrind (the suite runs once under memcheck)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi

for tool in cmake pkg-config; do
  if ! command -v "$tool" >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing $tool (the packaging tests: CMake package, pkg-config files)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >/dev/null
  fi
done

echo "== fetching NVIDIA's CUDA 11.8 / 12.9 / 13.5 wheels (cached)"
python3 scripts/fetch-cuda.py

echo "== rustfmt, clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== codegen drift check: regenerate from the headers, fail on any diff"
cargo run --quiet --release -p codegen -- --check

echo "== stubs: exports, SONAMEs"
cargo build --workspace --quiet

echo "== cargo test"
cargo test --workspace --no-fail-fast

echo "== the integration suite again, every scenario process under valgrind memcheck"
STUBS_TESTS_VALGRIND=1 cargo test -p stubs-tests --no-fail-fast -- --test-threads=2

echo "== aarch64: cross-built stubs, mocks and C programs under qemu-user, NVIDIA's aarch64 wheels"
scripts/test-aarch64.sh

echo "== packaging: the wheel (pip, auditwheel) and README's install-and-use recipes"
scripts/test-packaging.sh

echo "== example/python: one extension wheel on 11.8, 12.9, 13.5 and none"
scripts/test-example-python.sh

echo "== main job: the bundled example on 11.8, 12.9, 13.5 and none"
scripts/main-job.sh
