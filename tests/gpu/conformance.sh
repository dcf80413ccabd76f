#!/usr/bin/env bash
# On the GPU machine (issue 47, item 6): records the expected values of the mock executor's
# conformance tests. Builds tests/c/conformance_runner.c against the machine's own CUDA toolkit
# (its cuda.h and nvrtc.h, NVIDIA's libcuda and libnvrtc: no stub involved, nothing carried), runs
# every family of tests/cuda/conformance/*.cu (or the FAMILY arguments) on the board and writes
# one file per family, <family>.txt: a first comment line naming this command, the GPU, the
# driver, NVRTC and the date, then the runner's lines for that family. The device tool returns
# at most 8 files from $OUT, so they come packed: $OUT/conformance.tar.gz (the files at its top
# level) and $OUT/conformance.err (the runner's stderr). Unpack into tests/data/conformance/
# (replacing the placeholders) and commit; tests/tests/mock_kernels.rs compares the mock with them:
#
#   OUT=$OUT bash tests/gpu/conformance.sh [FAMILY...]         (on the GPU machine)
#   tar xzf <files_at>/conformance.tar.gz -C tests/data/conformance   (here)
#
# CUDA_HOME (environment) picks the toolkit (default /usr/local/cuda).
set -u
OUT=${OUT:-.}
CUDA=${CUDA_HOME:-/usr/local/cuda}
src=tests/cuda/conformance
dest=$(mktemp -d)
if [ $# -gt 0 ]; then
  families=("$@")
else
  families=()
  for f in "$src"/*.cu; do families+=("$(basename "$f" .cu)"); done
fi
runner=$OUT/conformance_runner
gcc -std=c11 -O1 -Wall -Wextra -I"$CUDA/include" -o "$runner" tests/c/conformance_runner.c \
  -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lnvrtc -lcuda -Wl,-rpath,"$CUDA/lib64" || { echo "building the runner failed"; exit 1; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
nvrtc=$("$CUDA/bin/nvcc" --version | tail -1)
when=$(date -u +%Y-%m-%dT%H:%MZ)
echo "$gpu, driver $driver, NVRTC of $nvrtc, ${#families[@]} families"
start=$(date +%s)
CONFORMANCE_INCLUDE="$CUDA/include" "$runner" "$src" "${families[@]}" > "$dest/all.log" 2> "$OUT/conformance.err"
rc=$?
echo "runner rc=$rc in $(($(date +%s) - start)) s"
head -c 2000 "$OUT/conformance.err"
grep 'error' "$dest/all.log" | head -20
for f in "${families[@]}"; do
  {
    echo "# recorded by: OUT=\$OUT bash tests/gpu/conformance.sh ($gpu, driver $driver, $nvrtc, $when)"
    grep "^$f " "$dest/all.log"
  } > "$dest/$f.txt"
  echo "$f: $(($(wc -l < "$dest/$f.txt") - 1)) lines"
done
rm -f "$runner" "$dest/all.log"
tar czf "$OUT/conformance.tar.gz" -C "$dest" .
rm -rf "$dest"
echo "$OUT/conformance.tar.gz: $(stat -c %s "$OUT/conformance.tar.gz") bytes"
exit $rc
