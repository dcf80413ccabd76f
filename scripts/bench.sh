#!/usr/bin/env bash
# The benchmarks: the stubs' per-call overhead against direct linking and Implib.so-style
# trampolines (ns and instructions per call), process start-up, first call and size. Prints the
# raw output and regenerates benches/RESULTS.md. benches/README.md says what each number means.
#
# Usage: scripts/bench.sh [--quick] [--cuda 11|12|13]   (default: CUDA 13, full repeats)
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
cargo build --release --quiet -p stubs-cudart -p stubs-nvrtc -p stubs-cuda -p stubs-benches

echo "== the stub's hot path (expect jmp *slot(%rip))"
objdump -d --no-show-raw-insn target/release/libstubs_nvrtc.so | grep -A2 '<nvrtcVersion>:'

exec target/release/stubs-benches --cache "$cache" --stubs target/release \
  --work target/bench --results benches/RESULTS.md "$@"
