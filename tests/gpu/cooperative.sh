#!/usr/bin/env bash
# On the GPU machine (issue 47): tests/cuda/mock_cooperative.cu (cooperative launches: a
# multi-block reduction whose blocks wait at a grid-wide barrier over the driver's grid
# workspace, %envreg1:%envreg2, through cudaLaunchCooperativeKernel, cudaLaunchKernelExC with
# the cooperative attribute, cuLaunchCooperativeKernel and cuLaunchKernelEx; a grid past the
# resident blocks, 720; the barrier in a plain launch, which traps, 719) built by the machine's
# nvcc with PTX only (compute_90, as for the mock), run on the board (NVIDIA's runtime) and
# under the mock of the same board (the stubs); each case's line compared (`ex_cluster`, a
# launch in clusters of two blocks, rc=0 on both; tests/gpu/clusters.sh runs clusters). The
# driver case loads the kernel's PTX, its .version lowered to 9.0 (what
# the h200/h100 profiles' 13.0 driver loads; the kernel uses nothing newer).
# STUBS_DIR holds libstubs_cudart.so and libcuda_stubs_mock.so (and nvJitLink 13.x must be on
# LD_LIBRARY_PATH for the mock when the machine's nvcc writes PTX newer than 9.0).
#   tests/gpu/cooperative.sh STUBS_DIR        (writes under $OUT)
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/cooperative.sh STUBS_DIR}")
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
profile=h200
case "$name" in *H100*) profile=h100 ;; esac
src=tests/cuda/mock_cooperative.cu
gencode="-gencode arch=compute_90,code=compute_90"
nvcc $gencode -ptx -o "$OUT/coop.ptx" $src
sed -i 's/^\.version 9\.[1-9]$/.version 9.0/' "$OUT/coop.ptx"
nvcc $gencode -cudart shared -o "$OUT/real_coop" $src
nvcc $gencode -cudart none -o "$OUT/mock_coop" $src \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D"
for c in cooperative too_large ex driver plain; do
  args=$c; [ "$c" = driver ] && args="driver $OUT/coop.ptx"
  timeout 300 "$OUT/real_coop" $args > "$OUT/real_$c.txt" 2>&1; echo "board $c rc=$?"
  CUDA_STUBS_MOCK=$profile timeout 600 "$OUT/mock_coop" $args > "$OUT/mock_$c.txt" 2>&1
  echo "mock ($profile) $c rc=$?"
  if diff "$OUT/real_$c.txt" "$OUT/mock_$c.txt" > "$OUT/diff_$c.txt"; then
    echo "$c: the mock's lines are the board's"
  else
    echo "$c: differ:"; cat "$OUT/diff_$c.txt"
  fi
  echo "--- the board's lines ($c)"; cat "$OUT/real_$c.txt"
done
