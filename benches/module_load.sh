#!/usr/bin/env bash
# What a module load that needs no JIT costs through the driver stub, against the same driver
# linked directly (issue 36's target: <= 1 us more). No GPU: the driver is the stand-in
# (tests/mocks/stand_in_driver.c, built here), the image a CUBIN header it accepts; the stub
# reads the image's first bytes (ELF: passed through) and forwards. Two measures of
# benches/c/module_load.c's loop of cuModuleLoadData + cuModuleUnload pairs: instructions per
# pair under callgrind (exact, machine-independent) and wall-clock ns per pair, in interleaved
# rounds (min and median of each). Prints a table for benches/RESULTS.md.
#
#   benches/module_load.sh [ROUNDS]   (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
work=target/bench/module-load
mkdir -p "$work/driver"
cc=${CC:-cc}
"$cc" -O2 -shared -fPIC -o "$work/driver/libcuda.so.1" -Wl,-soname,libcuda.so.1 \
  tests/mocks/stand_in_driver.c -lpthread
cargo build --release --quiet -p stubs-cuda
stubs=$PWD/target/release
"$cc" -O2 -o "$work/direct" benches/c/module_load.c -L"$work/driver" -l:libcuda.so.1 \
  -Wl,-rpath,"$PWD/$work/driver"
"$cc" -O2 -o "$work/stub" benches/c/module_load.c -L"$stubs" -lstubs_cuda -Wl,-rpath,"$stubs"
export CUDA_STUBS_CUDA_PATH=$PWD/$work/driver/libcuda.so.1 STAND_IN_DRIVER_VERSION=13000
unset CUDA_STUBS_DEBUG CUDA_STUBS_TRACE CUDA_STUBS_FAULT STAND_IN_DRIVER_LOG

instructions() { # EXE N: instructions in run_loop per pair
  valgrind --tool=callgrind --toggle-collect=run_loop --callgrind-out-file="$work/cg.$1.out" \
    "$work/$1" "$2" >/dev/null 2>"$work/cg.$1.log"
  awk -v n="$2" '/^summary:/ { printf "%.1f", $2 / n }' "$work/cg.$1.out"
}
n=2000
ir_direct=$(instructions direct $n)
ir_stub=$(instructions stub $n)
declare -a direct=() stub=()
for ((i = 0; i < rounds; i++)); do
  direct+=("$("$work/direct" 100000 | sed -n 's/.*ns_per_pair=\([0-9.]*\).*/\1/p')")
  stub+=("$("$work/stub" 100000 | sed -n 's/.*ns_per_pair=\([0-9.]*\).*/\1/p')")
done
stat() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f %.1f", v[1], v[int((NR + 1) / 2)] }'; }
read -r d_min d_med <<<"$(stat "${direct[@]}")"
read -r s_min s_med <<<"$(stat "${stub[@]}")"
echo "| linked against | instructions / pair | ns / pair, min of $rounds | median |"
echo "|---|---|---|---|"
echo "| the driver (stand-in), directly | $ir_direct | $d_min | $d_med |"
echo "| libstubs_cuda.so → the same driver | $ir_stub | $s_min | $s_med |"
awk -v a="$ir_direct" -v b="$ir_stub" -v c="$d_min" -v d="$s_min" -v e="$d_med" -v f="$s_med" \
  'BEGIN { printf "| stub − direct | %+.1f | %+.1f | %+.1f |\n", b - a, d - c, f - e }'
