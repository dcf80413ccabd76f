#!/usr/bin/env bash
# On the GPU machine (issues 47, 48): tests/cuda/mock_textures.cu's texture and surface fetches
# on the board, then under the mock of the same board (h100 or h200, from nvidia-smi), case by
# case, the outputs compared line by line. The program checks itself against the CUDA C++
# Programming Guide's formulas (linear filtering's weights rounded to 1/256); on the board a
# `linear FAILED` line says the hardware rounds its weights otherwise, and the `v` lines (%a)
# give the board's exact values for the executor (stub-ptx/src/texture.rs `weight`).
# STUBS_DIR holds libstubs_cudart.so and libcuda_stubs_mock.so (cargo build --release -p
# stubs-cudart; cargo build --release --manifest-path stub-mock/Cargo.toml --target-dir target:
# target/release). The mock reads the PTX of the machine's nvcc (PTX ISA no newer than its
# driver's, so no nvJitLink is needed).
#   tests/gpu/mock_textures.sh STUBS_DIR        (writes under $OUT)
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/mock_textures.sh STUBS_DIR}")
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "toolkit: $(nvcc --version | tail -1)"
profile=h200
case "$name" in *H100*) profile=h100 ;; esac
src=tests/cuda/mock_textures.cu
# SASS for the board, PTX for the executor (the mock runs a fat binary's PTX).
nvcc -gencode arch=compute_90,code=sm_90 -cudart shared -o "$OUT/real_textures" $src || exit 1
nvcc -gencode arch=compute_90,code=compute_90 -cudart none -o "$OUT/mock_textures" $src \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D" || exit 1
same=0 differ=0
for c in nearest linear normalized_uchar surface; do
  "$OUT/real_textures" $c > "$OUT/real_$c.txt" 2>&1; r=$?
  CUDA_STUBS_MOCK=$profile CUDA_STUBS_MOCK_TIMEOUT=60 "$OUT/mock_textures" $c \
    > "$OUT/mock_$c.txt" 2>&1; m=$?
  echo "== $c: board rc=$r, mock ($profile) rc=$m"
  cat "$OUT/real_$c.txt"
  if diff "$OUT/real_$c.txt" "$OUT/mock_$c.txt" > "$OUT/diff_$c.txt"; then
    same=$((same + 1)); echo "   the mock's lines are the board's"
  else
    differ=$((differ + 1)); echo "   differs (< board, > mock):"; cat "$OUT/diff_$c.txt"
  fi
done
echo "mock_textures: $same cases alike, $differ differ"
