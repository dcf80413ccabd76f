#!/usr/bin/env bash
# On the GPU machine (issue 47): tests/cuda/mock_clusters.cu (thread-block clusters: clusters
# of 2 and 4 blocks reading and adding to each other's shared arrays through distributed shared
# memory, the Programming Guide's DSMEM histogram, a __cluster_dims__ kernel through <<<>>>,
# the shapes a board refuses, cuLaunchKernelEx on the program's PTX as a module) built by the machine's nvcc with PTX only (compute_90, as for the
# mock; cooperative groups' cluster_group, the toolkit's CCCL at hand), run on the board
# (NVIDIA's runtime) and under the mock of the same board (the stubs); each case's lines
# compared. STUBS_DIR holds libstubs_cudart.so and libcuda_stubs_mock.so (and nvJitLink 13.x
# must be on LD_LIBRARY_PATH for the mock when the machine's nvcc writes PTX newer than 9.0).
#   tests/gpu/clusters.sh STUBS_DIR        (writes under $OUT)
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/clusters.sh STUBS_DIR}")
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
profile=h200
case "$name" in *H100*) profile=h100 ;; esac
src=tests/cuda/mock_clusters.cu
gencode="-gencode arch=compute_90,code=compute_90"
nvcc $gencode -ptx -o "$OUT/clusters.ptx" $src
sed -i 's/^\.version 9\.[1-9]$/.version 9.0/' "$OUT/clusters.ptx"
nvcc $gencode -cudart shared -o "$OUT/real_clusters" $src
nvcc $gencode -cudart none -o "$OUT/mock_clusters" $src \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D"
for c in ring histogram dims limits driver; do
  args=$c; [ "$c" = driver ] && args="driver $OUT/clusters.ptx"
  timeout 300 "$OUT/real_clusters" $args > "$OUT/real_$c.txt" 2>&1; echo "board $c rc=$?"
  CUDA_STUBS_MOCK=$profile timeout 600 "$OUT/mock_clusters" $args > "$OUT/mock_$c.txt" 2>&1
  echo "mock ($profile) $c rc=$?"
  if diff "$OUT/real_$c.txt" "$OUT/mock_$c.txt" > "$OUT/diff_$c.txt"; then
    echo "$c: the mock's lines are the board's"
  else
    echo "$c: differ:"; cat "$OUT/diff_$c.txt"
  fi
  echo "--- the board's lines ($c)"; cat "$OUT/real_$c.txt"
done
