#!/usr/bin/env bash
# GPU launch-rate bench: builds benches/gpu/launch_rate.cu twice with nvcc (linked against
# NVIDIA's libcudart + libcuda, and -cudart=none against libstubs_cudart + libstubs_cuda), runs
# them interleaved and prints a table with the stub/direct rate ratio (target >= 0.99).
# The stub variant is pinned to the same libcudart/libcuda files the direct one loads.
#
# Run from the repository root on a GPU machine with nvcc on PATH (or $NVCC), the stub .so files
# in .device/bin/ (or $STUBS_DIR):   benches/gpu/run.sh [launches=100000] [rounds=3]
set -euo pipefail
cd "$(dirname "$0")/../.."

n=${1:-100000}
rounds=${2:-3}
nvcc=${NVCC:-nvcc}
stubs=$(realpath "${STUBS_DIR:-.device/bin}")
out=${OUT_DIR:-target/gpu-bench}
mkdir -p "$out"
src=benches/gpu/launch_rate.cu

arch=(-arch=native)
"$nvcc" --help 2>/dev/null | grep -- 'native' >/dev/null || arch=()
echo "== nvcc: $("$nvcc" --version | tail -1); stubs from $stubs"

# What the stub variant needs from libstubs_cudart (nvcc's registration entry points included).
need_rt="cudaFree cudaRuntimeGetVersion cudaStreamCreate cudaLaunchKernel cudaStreamSynchronize
 cudaGetFuncBySymbol cudaMallocHost cudaMalloc cudaMemcpyAsync cudaFreeHost cudaStreamDestroy
 cudaGetErrorString __cudaRegisterFatBinary __cudaRegisterFatBinaryEnd __cudaRegisterFunction
 __cudaUnregisterFatBinary"
need_dr="cuDriverGetVersion cuInit cuDeviceGet cuDeviceGetName cuLaunchKernel"
missing=()
# Read each table once: `nm | grep -q` under pipefail fails when grep exits early (SIGPIPE).
rt_syms=$(nm -D --defined-only "$stubs/libstubs_cudart.so")
dr_syms=$(nm -D --defined-only "$stubs/libstubs_cuda.so")
for s in $need_rt; do grep -qw "$s" <<<"$rt_syms" || missing+=("$s"); done
for s in $need_dr; do grep -qw "$s" <<<"$dr_syms" || missing+=("$s"); done

"$nvcc" -O2 -std=c++17 "${arch[@]}" -cudart=shared -o "$out/launch_rate-direct" "$src" -lcuda
if [ ${#missing[@]} -gt 0 ]; then
  echo "stub variant NOT built: the stubs do not export ${missing[*]}"
  "$out/launch_rate-direct" "$n"
  exit 1
fi
"$nvcc" -O2 -std=c++17 "${arch[@]}" -cudart=none -o "$out/launch_rate-stub" "$src" \
  -L"$stubs" -lstubs_cudart -lstubs_cuda -Xlinker -rpath -Xlinker "$stubs"
echo "direct needs: $(readelf -d "$out/launch_rate-direct" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs)"
echo "stub needs:   $(readelf -d "$out/launch_rate-stub" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs)"

# Pin the stubs to the very files the direct build loads.
real() { ldd "$out/launch_rate-direct" | awk -v l="$1" '$1 ~ l {print $3; exit}'; }
cudart=$(real libcudart.so); libcuda=$(real libcuda.so)
echo "real libraries: $cudart, $libcuda"

# Both variants on the same core: a launch loop that migrates between cores measures the
# scheduler, not the call path.
pin=""
command -v taskset >/dev/null && pin="taskset -c ${BENCH_CPU:-2}"
raw=$out/raw.txt
: >"$raw"
for r in $(seq "$rounds"); do
  # Alternate which variant runs first, so that a drift within a round (clocks, the driver's
  # state after the previous process) does not favour either.
  order="direct stub"
  [ $((r % 2)) = 0 ] && order="stub direct"
  for v in $order; do
    echo "-- round $r: $v"
    CUDA_STUBS_CUDART_PATH=$cudart CUDA_STUBS_CUDA_PATH=$libcuda $pin "$out/launch_rate-$v" "$n" 5 |
      tee /dev/stderr | sed "s/^/$v /" >>"$raw"
  done
done 2>&1

echo
grep '^direct info' "$raw" | head -1 | sed 's/^direct info /machine: /'
echo "median over $rounds rounds of (median of 5 x $n operations), operations per second:"
awk '
  $2 != "info" { split($3, a, "="); v[$1 "," $2] = v[$1 "," $2] " " a[2]; ops[$2] = 1 }
  function med(s,   x, n, i, j, t) {
    n = split(s, x, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
  }
  END {
    printf "| %-16s | %14s | %14s | %10s | %-10s |\n", "operation", "direct ops/s", "stub ops/s", "stub/direct", "≥ 0.99"
    printf "|------------------|----------------|----------------|------------|------------|\n"
    split("cudaLaunchKernel cuLaunchKernel cudaMemcpyAsync", order, " ")
    for (k = 1; k <= 3; k++) {
      o = order[k]; if (!(o in ops)) continue
      d = med(v["direct," o]); s = med(v["stub," o]); q = d > 0 ? s / d : 0
      printf "| %-16s | %14.0f | %14.0f | %10.3f | %-10s |\n", o, d, s, q, (q >= 0.99 ? "yes" : "NO")
    }
  }' "$raw"
