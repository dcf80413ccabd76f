#!/usr/bin/env bash
# GPU proof of the mock's kernel executor (issue 47 item 7): the SAME binaries, built on a
# CPU-only machine by `scripts/mock-samples.sh` (NVIDIA's cuda-samples, PTX only, linked to the
# runtime stub; and tests/cuda/mock_programs.cu, one run per case), run on the lent GPU twice:
#   real  through the stubs on the board's driver and the toolkit's CUDA runtime (nvJitLink 13.5,
#         carried, turns nvcc 13.5's PTX 9.5 into the board's CUBIN: the 13.0 driver reads 9.0)
#   mock  under CUDA_STUBS_MOCK=<the board's profile> (h100 or h200, from nvidia-smi): the
#         kernels run on the CPU
# and compares each run's output line by line after an explicit filter (FILTER below: the
# stubs' debug lines dropped, numbers in timing and bandwidth lines, device names and hex
# addresses masked), printing a summary and the differing lines.
#
# Made on the CPU machine (the tarball is git-ignored under .device/, at most ~40 MB):
#   scripts/mock-samples.sh build /work/.mirror/NVIDIA+cuda-samples/repo /tmp/ms   (SAMPLE_INCLUDES: see it)
#   scripts/mock-samples.sh pack /tmp/ms .device/mock-samples.tar.xz target/release
# On the GPU machine, in the repository's copy (writes under $OUT):
#   tests/gpu/mock_samples.sh .device/mock-samples.tar.xz
# Environment: REAL_TIMEOUT (seconds per run, default 60), MOCK_TIMEOUT (default 40),
# CUDA_STUBS_MOCK_THREADS (default: the CPUs less two; the real runs go alongside).
set -u
OUT=${OUT:-.}
tarball=$(realpath "${1:?usage: tests/gpu/mock_samples.sh MOCK_SAMPLES.tar.xz}")
here=$(cd "$(dirname "$0")/../.." && pwd)
base=${TMPDIR:-/tmp}/mock-samples-gpu
rm -rf "$base"
mkdir -p "$base" "$OUT"
tar -xJf "$tarball" -C "$base" || exit 1
W=$base/mock-samples S=$W/stubs
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "GPU: $gpu; toolkit: $(nvcc --version 2> /dev/null | tail -1)"
case $gpu in
  *H200*) profile=h200 ;;
  *) profile=h100 ;;
esac
threads=${CUDA_STUBS_MOCK_THREADS:-$(($(nproc) > 4 ? $(nproc) - 2 : 2))}
start=$(date +%s)
# The two passes side by side: the real one on the GPU, the mock one on the CPUs.
SAMPLE_MODE=real SAMPLE_TIMEOUT=${REAL_TIMEOUT:-60} "$here/scripts/mock-samples.sh" run "$W" "$S" \
  > "$OUT/real.log" 2>&1 &
real_pid=$!
SAMPLE_MODE=mock MOCK_PROFILE=$profile CUDA_STUBS_MOCK_THREADS=$threads SAMPLE_TIMEOUT=${MOCK_TIMEOUT:-40} \
  "$here/scripts/mock-samples.sh" run "$W" "$S" > "$OUT/mock.log" 2>&1
wait "$real_pid"
echo "both passes in $(($(date +%s) - start)) s (mock profile $profile, $threads threads)"
tail -1 "$OUT/real.log"
tail -1 "$OUT/mock.log"
# What the real pass bound (the first sample's debug lines): the stubs on the board's runtime.
grep -h -m4 -E 'bound|PTX' "$W"/logs/real-*.txt 2> /dev/null | head -4

# FILTER: what is not compared. Each rule is one sed expression:
#  - the stubs' debug log (CUDA_STUBS_DEBUG lines);
#  - the device's name (the board's and the profile's are the same part, but the real
#    name carries the memory size) -> <GPU>;
#  - hex addresses (pointers printed by some samples) -> <hex>;
#  - every number on a line about time, speed or clock counts -> # (the executor runs at CPU
#    speed, and the board's own times vary run to run).
FILTER=(
  -e '/^cuda-stubs\[/d'
  -e 's/NVIDIA H[12]00[^"]*/<GPU>/g'
  -e 's/\b0x[0-9a-fA-F]+/<hex>/g'
  -e '/[Tt]ime|[^a-z]ms\b|msec|[Ss]ec(ond)?s?\b|[0-9]s\b|GB\/s|MB\/s|[GM]flop|GFLOP|TFLOP|[Tt]hroughput|[Bb]andwidth|[Cc]locks?|[Ee]lapsed|[Pp]erf|MOPS|[Oo]ptions\/s|[Ss]peedup|\/s\b/s/[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/#/g'
)
echo "filter: sed -E ${FILTER[*]}"
equal=0 differ=0 total=0
: > "$OUT/differences.txt"
while IFS=$'\t' read -r label rc _; do
  [ "$label" = sample ] && continue
  total=$((total + 1))
  f=${label// /_}
  sed -E "${FILTER[@]}" "$W/logs/real-$f.txt" > "$OUT/real-$f.txt"
  sed -E "${FILTER[@]}" "$W/logs/mock-$f.txt" > "$OUT/mock-$f.txt"
  mrc=$(awk -F'\t' -v l="$label" '$1 == l {print $2}' "$W/table-mock.tsv")
  if [ "$rc" = "$mrc" ] && diff -q "$OUT/real-$f.txt" "$OUT/mock-$f.txt" > /dev/null; then
    equal=$((equal + 1))
  else
    differ=$((differ + 1))
    {
      echo "=== $label: real rc=$rc, mock rc=$mrc"
      diff "$OUT/real-$f.txt" "$OUT/mock-$f.txt" | head -12
    } >> "$OUT/differences.txt"
  fi
done < "$W/table-real.tsv"
cp "$W"/table-*.md "$W"/table-*.tsv "$W/skipped.txt" "$OUT/"
echo "real vs mock, line by line after the filter: $equal equal, $differ differ, of $total runs"
echo "--- runs that differ (first lines of each diff: < real, > mock)"
cat "$OUT/differences.txt"
