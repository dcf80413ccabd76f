#!/usr/bin/env bash
# The benchmarks: the stubs' per-call overhead against direct linking and Implib.so-style
# trampolines (ns and instructions per call), process start-up, first call and size. Prints the
# raw output and regenerates benches/RESULTS.md. benches/README.md says what each number means.
#
# Usage: scripts/bench.sh [--quick] [--cuda 11|12|13] [--size-only]   (default: CUDA 13, full
# repeats; --size-only: the size sections alone, printed, RESULTS.md left as it is)
# Needs valgrind (instruction counts) and hyperfine (start-up), installed by
# scripts/setup-machine.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null || { echo "bench.sh: $1 is required" >&2; exit 1; }; }
scripts/setup-machine.sh bench
need valgrind; need nm; need strip; need readelf

echo "== fetching NVIDIA's wheels (cached), building the stubs and the bench runner"
python3 scripts/fetch-cuda.py >/dev/null
cache=$(python3 scripts/fetch-cuda.py --print-cache)
# Every stub (the size of every stub; the three benchmarked are the runtime, NVRTC and driver).
source scripts/libraries.sh
crates=()
for c in "${CUDA_STUBS_CRATES[@]}"; do crates+=(-p "$c"); done
cargo build --release --quiet "${crates[@]}" -p stubs-benches
# The aarch64 build too, for its sizes, where the target and its cross binutils are installed
# (scripts/test-aarch64.sh sets them up): the same linker settings as there.
aarch64=()
if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu \
  && command -v aarch64-linux-gnu-gcc >/dev/null && command -v aarch64-linux-gnu-strip >/dev/null; then
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
    cargo build --release --quiet --target aarch64-unknown-linux-gnu "${crates[@]}"
  aarch64=(--stubs-aarch64 target/aarch64-unknown-linux-gnu/release)
else
  echo "(no aarch64 target or aarch64-linux-gnu binutils: sizes of x86-64 only)"
fi

echo "== the stub's hot path (expect jmp *slot(%rip))"
objdump -d --no-show-raw-insn target/release/libstubs_nvrtc.so | grep -A2 '<nvrtcVersion>:'

exec target/release/stubs-benches --cache "$cache" --stubs target/release \
  --work target/bench --results benches/RESULTS.md "${aarch64[@]}" "$@"
