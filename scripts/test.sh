#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Sets up what it needs on a fresh machine:
# libclang for codegen's drift check, NVIDIA's wheels for the real-library tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! ldconfig -p 2>/dev/null | grep -q 'libclang.*\.so'; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing libclang (codegen's drift check parses NVIDIA's headers)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-dev >/dev/null
  fi
fi

echo "== fetching NVIDIA's CUDA 11.8 / 12.9 / 13.0 wheels (cached)"
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

echo "== main job: the bundled example on 11.8, 12.9, 13.0 and none"
scripts/main-job.sh
