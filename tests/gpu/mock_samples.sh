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
# CUDA_STUBS_MOCK_THREADS (default: the CPUs less two; the real runs go alongside), PASSES=real
# (the real pass only, in a minute or two where the mock pass takes longer than a call may:
# its logs and table come back as $OUT/real-pass.tar.xz, and `scripts/mock-samples.sh compare`
# compares them on the CPU machine with a mock pass of the board's profile made there).
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
if [ "${PASSES:-real mock}" = real ]; then
  SAMPLE_MODE=real SAMPLE_TIMEOUT=${REAL_TIMEOUT:-60} "$here/scripts/mock-samples.sh" run "$W" "$S" \
    > "$OUT/real.log" 2>&1
  echo "real pass in $(($(date +%s) - start)) s (compare with a mock pass of profile $profile)"
  tail -1 "$OUT/real.log"
  grep -h -m4 -E 'bound|PTX' "$W"/logs/real-*.txt 2> /dev/null | head -4
  tar -C "$base" -cJf "$OUT/real-pass.tar.xz" mock-samples/logs mock-samples/table-real.tsv \
    mock-samples/table-real.md mock-samples/skipped.txt mock-samples/built.txt
  exit 0
fi
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

"$here/scripts/mock-samples.sh" compare "$W" "$W" "$OUT"
