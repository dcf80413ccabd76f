#!/usr/bin/env bash
# On the GPU machine (issue 48): the error texts of the board's runtime and driver
# (tests/gpu/error_texts.c linked to the toolkit's libcudart and the driver's libcuda), the
# capture stub-mock/data/error-texts.tsv is made of, and the same program through the stubs.
#
#   OUT=$OUT bash tests/gpu/error_texts.sh [STUBS_DIR]
#
# Writes $OUT/error-texts.tsv (the board) and, with STUBS_DIR, $OUT/error-texts-stubs.tsv (linked
# to libstubs_cudart, libstubs_cuda and libstubs_nvml) with the diff of the two; exit 0 when they are the same.
set -u
OUT=${OUT:-.}
here=$(cd "$(dirname "$0")" && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
gcc -std=c11 -O1 -I"$CUDA_HOME/include" -o "$OUT/error_texts" "$here/error_texts.c" \
  -L"$CUDA_HOME/lib64" -lcudart -lcuda -lnvidia-ml -Wl,-rpath,"$CUDA_HOME/lib64" || exit 1
"$OUT/error_texts" > "$OUT/error-texts.tsv" || exit 1
echo "board: $(wc -l < "$OUT/error-texts.tsv") lines, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
[ -n "${1:-}" ] || exit 0
D=$(realpath "$1")
gcc -std=c11 -O1 -I"$CUDA_HOME/include" -o "$OUT/error_texts_stubs" "$here/error_texts.c" \
  -L"$D" -lstubs_cudart -lstubs_cuda -lstubs_nvml -Wl,-rpath,"$D" || exit 1
# The driver stub writes its own text where the driver writes NULL (a code it does not know;
# the stubs' error texts are never NULL), with the driver's code: compared as NULL.
"$OUT/error_texts_stubs" | awk -F'\t' 'BEGIN { OFS = "\t" }
  $1 == "driver" && $3 == 1 && $5 == 1 { $4 = "(null)"; $6 = "(null)" } { print }' \
  > "$OUT/error-texts-stubs.tsv" || exit 1
if diff "$OUT/error-texts.tsv" "$OUT/error-texts-stubs.tsv" > "$OUT/error-texts.diff"; then
  echo "stubs: the same lines as the board"
else
  echo "stubs: $(grep -c '^<' "$OUT/error-texts.diff") lines differ"; exit 1
fi
