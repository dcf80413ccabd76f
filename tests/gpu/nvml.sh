#!/usr/bin/env bash
# GPU proof of the NVML stub: tests/c/nvml_query.c built against the machine's nvml.h (and
# against 12.9's, from NVIDIA's nvidia-nvml-dev-cu12 wheel) and linked to libstubs_nvml.so, run
# on the machine's driver; the same program linked normally (-lnvidia-ml) for comparison.
# Every line but the stub's status must agree.
#
#   tests/gpu/nvml.sh PREFIX NVML12_INCLUDE OUT
#
#   PREFIX          the stubs installed by `scripts/install.sh --prefix PREFIX`
#   NVML12_INCLUDE  a folder with 12.9's nvml.h
set -u
P=$1 inc12=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../c/nvml_query.c
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
nvidia-smi --query-gpu=driver_version,name --format=csv,noheader
gcc -std=c11 -O1 -o "$out/nvml_normal" "$src" -I"$cuda/include" -L"$cuda/lib64/stubs" -lnvidia-ml
gcc -std=c11 -O1 -o "$out/nvml_stub" "$src" -DWITH_STATUS -DLEGACY_INIT -I"$P/include" \
  -I"$cuda/include" -L"$P/lib" -lstubs_nvml -Wl,-rpath,"$P/lib"
gcc -std=c11 -O1 -o "$out/nvml_stub12" "$src" -DWITH_STATUS -I"$P/include" -I"$inc12" \
  -I"$cuda/include" -L"$P/lib" -lstubs_nvml -Wl,-rpath,"$P/lib"
for exe in nvml_normal nvml_stub nvml_stub12; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_DEBUG=1 "$out/$exe" > "$out/$exe.txt" 2> "$out/$exe.err"
  echo "rc=$?"; cat "$out/$exe.txt" "$out/$exe.err"
done
strip_stub() { grep -vE '^(status|legacy) ' "$1"; }
for exe in nvml_stub nvml_stub12; do
  if diff <(strip_stub "$out/nvml_normal.txt") <(strip_stub "$out/$exe.txt") > "$out/$exe.diff"; then
    echo "$exe: same output as nvml_normal"
  else
    echo "$exe: differs from nvml_normal:"; cat "$out/$exe.diff"
  fi
done
