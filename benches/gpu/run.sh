#!/usr/bin/env bash
# GPU launch-rate bench: builds benches/gpu/launch_rate.cu twice with nvcc (linked against
# NVIDIA's libcudart + libcuda, and -cudart=none against libstubs_cudart + libstubs_cuda), runs
# them in interleaved rounds (one process of each per round, the order alternated) and prints a
# table with the stub/direct rate ratio and its 95% confidence interval (target: ratio >= 0.99).
# The stub variant is pinned to the same libcudart/libcuda files the direct one loads.
#
# Run from the repository root on a GPU machine with nvcc on PATH (or $NVCC), the stub .so files
# in .device/bin/ (or $STUBS_DIR):
#
#   benches/gpu/run.sh [launches=20000] [rounds=10] [max_rounds=200] [target_pct=1]
#
# It runs at least `rounds` rounds (after one warm-up round that is not counted), then goes on
# until every ratio's 95% interval is within ±target_pct % of the ratio, or max_rounds rounds,
# or $MAX_SECONDS seconds of rounds (0: no limit). Each process warms each kind up (1000
# operations, repeated for $WARMUP seconds; default 0: once), then does `launches` operations of
# it $REPEATS times (default 5) and reports the median. The ratio of a round is its stub rate
# over its direct rate; the table gives the geometric mean of the rounds' ratios and a
# t-based 95% interval of the mean of their logarithms (benches/README.md, "GPU bench").
# $OUT_DIR (default target/gpu-bench) receives raw.txt (every process's lines, with its round)
# and RESULTS.md (the run as markdown: command, machine, table).
#
#   benches/gpu/run.sh --table RAW    # the table of an earlier run's raw.txt, nothing run
set -euo pipefail
cd "$(dirname "$0")/../.."

# The table and the stopping test, from raw lines "<round> <variant> <op> ops_per_s=<x> ...".
# mode=table prints the markdown table; mode=check exits 0 when every interval is within target.
stats() { # mode target_pct raw
  awk -v mode="$1" -v target="$2" '
    function tq(df,   z) { # 97.5% quantile of Student t with df degrees of freedom
      if (df <= 30) return T[df]
      z = 1.959964 # Cornish-Fisher expansion about the normal: error < 1e-4 for df > 30
      return z + (z^3 + z) / (4 * df) + (5 * z^5 + 16 * z^3 + 3 * z) / (96 * df^2)
    }
    function med(s,   x, n, i, j, t) {
      n = split(s, x, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
      return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
    }
    BEGIN {
      split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 " \
            "2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 " \
            "2.045 2.042", T, " ")
    }
    $2 != "info" && $1 > 0 { split($4, a, "="); rate[$1, $2, $3] = a[2]; rounds[$1] = 1 }
    END {
      nops = split("cudaLaunchKernel cuLaunchKernel cudaMemcpyAsync", ops, " ")
      if (mode == "table") {
        printf "| %-16s | %12s | %12s | %11s | %-15s | %7s | %-7s |\n", "operation", "direct ops/s", "stub ops/s", "stub/direct", "95% CI", "±", "≥ 0.99"
        printf "|------------------|-------------:|-------------:|------------:|-----------------|--------:|---------|\n"
      }
      met = 1
      for (k = 1; k <= nops; k++) {
        o = ops[k]; n = 0; sum = 0; sq = 0; ds = ""; ss = ""
        for (r in rounds) {
          d = rate[r, "direct", o]; s = rate[r, "stub", o]
          if (d == "" || s == "" || d <= 0 || s <= 0) continue
          n++; l[n] = log(s / d); sum += l[n]; ds = ds " " d; ss = ss " " s
        }
        if (n < 2) { met = 0; continue }
        m = sum / n
        for (i = 1; i <= n; i++) sq += (l[i] - m)^2
        h = tq(n - 1) * sqrt(sq / (n - 1) / n)
        q = exp(m); lo = exp(m - h); hi = exp(m + h); pm = (exp(h) - 1) * 100
        if (pm > target) met = 0
        verdict = lo >= 0.99 ? "yes" : (hi < 0.99 ? "NO" : "unclear")
        if (mode == "table")
          printf "| %-16s | %12.0f | %12.0f | %11.4f | %.4f – %.4f | %6.2f%% | %-7s |\n", o, med(ds), med(ss), q, lo, hi, pm, verdict
        if (k == 1) used = n
      }
      if (mode == "table") printf "\n%d paired rounds\n", used
      exit (mode == "check" ? !met : 0)
    }' "$3"
}

if [ "${1:-}" = --table ]; then
  stats table "${3:-1}" "$2"
  exit 0
fi

n=${1:-20000}
min_rounds=${2:-10}
max_rounds=${3:-200}
target=${4:-1}
repeats=${REPEATS:-5}
warmup=${WARMUP:-0}
max_seconds=${MAX_SECONDS:-0}
nvcc=${NVCC:-nvcc}
stubs=$(realpath "${STUBS_DIR:-.device/bin}")
out=${OUT_DIR:-target/gpu-bench}
mkdir -p "$out"
src=benches/gpu/launch_rate.cu
[ "$max_rounds" -ge "$min_rounds" ] || max_rounds=$min_rounds

arch=(-arch=native)
"$nvcc" --help 2>/dev/null | grep -- 'native' >/dev/null || arch=()
nvcc_version=$("$nvcc" --version | tail -1)
echo "== nvcc: $nvcc_version; stubs from $stubs"

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
cpu=${BENCH_CPU:-$(($(nproc) > 2 ? 2 : $(nproc) - 1))}
command -v taskset >/dev/null && pin="taskset -c $cpu"
raw=$out/raw.txt
: >"$raw"
one() { # round variant
  CUDA_STUBS_CUDART_PATH=$cudart CUDA_STUBS_CUDA_PATH=$libcuda $pin "$out/launch_rate-$2" "$n" "$repeats" "$warmup" |
    sed "s/^/$1 $2 /" >>"$raw"
}
start=$SECONDS
r=0
# Round 0 warms the GPU's clocks and the page cache; it is recorded but not counted.
while :; do
  # Alternate which variant runs first, so that a drift within a round (clocks, the driver's
  # state after the previous process) does not favour either.
  order="direct stub"
  [ $((r % 2)) = 0 ] && order="stub direct"
  for v in $order; do one "$r" "$v"; done
  line="-- round $r:"
  for v in direct stub; do
    line="$line $v $(awk -v r="$r" -v v="$v" '$1 == r && $2 == v && $3 != "info" { split($4, a, "="); printf " %s", a[2] }' "$raw")"
  done
  echo "$line"
  [ "$r" -ge "$min_rounds" ] && stats check "$target" "$raw" && { stop="every interval within ±$target %"; break; }
  [ "$r" -ge "$max_rounds" ] && { stop="max_rounds ($max_rounds) reached"; break; }
  [ "$max_seconds" -gt 0 ] && [ $((SECONDS - start)) -ge "$max_seconds" ] &&
    { stop="MAX_SECONDS ($max_seconds) reached"; break; }
  r=$((r + 1))
done
elapsed=$((SECONDS - start))

table=$(stats table "$target" "$raw")
info=$(awk '$2 == "direct" && $3 == "info" { $1 = ""; $2 = ""; $3 = ""; sub(/^ +/, ""); print; exit }' "$raw")
echo
echo "machine: $info"
echo "stopped after $r rounds in $elapsed s: $stop"
echo "per round: one direct and one stub process, order alternated; each $repeats x $n operations of each kind after ${warmup} s of warm-up, median"
awk '$3 != "info" && $1 > 0 { split($6, a, "="); split($7, b, "="); if (a[2] > 0) { k[$3]++; x[$3, k[$3]] = b[2] / a[2] - 1 } }
  END { for (o in k) { n = k[o]; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[o, j] < x[o, i]) { t = x[o, i]; x[o, i] = x[o, j]; x[o, j] = t }
        printf "within-process spread of %s (fastest/slowest repeat - 1), median over processes: %.1f%%\n", o, 100 * x[o, int((n + 1) / 2)] } }' "$raw"
echo "ratio: geometric mean of the rounds' stub/direct ratios; 95% CI: t interval of the mean log ratio"
echo
echo "$table"

{
  echo "\`benches/gpu/run.sh $n $min_rounds $max_rounds $target\` (REPEATS=$repeats, WARMUP=$warmup, MAX_SECONDS=$max_seconds), $(date -u '+%Y-%m-%d %H:%M') UTC"
  echo
  echo "| machine | |"
  echo "|---|---|"
  echo "| GPU | $(sed -n 's/.*gpu="\([^"]*\)".*/\1/p' <<<"$info") |"
  echo "| driver | $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1) (\`cuDriverGetVersion\` $(sed -n 's/.*driver=\([0-9]*\).*/\1/p' <<<"$info")) |"
  echo "| runtime | \`cudaRuntimeGetVersion\` $(sed -n 's/.*runtime=\([0-9]*\).*/\1/p' <<<"$info") ($cudart) |"
  echo "| nvcc | $nvcc_version |"
  echo "| CPU | $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) cores, bench pinned with \`${pin:-(no taskset)}\` |"
  echo "| rounds | $r counted (+1 warm-up) in $elapsed s; stopped: $stop |"
  echo "| per process | $repeats × $n operations of each kind after $warmup s of warm-up, median |"
  echo
  echo "$table" | sed '/paired rounds/d;/^$/d'
} >"$out/RESULTS.md"
echo
echo "== wrote $out/raw.txt, $out/RESULTS.md"
