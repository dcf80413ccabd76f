#!/usr/bin/env bash
# On the GPU machine (issue 48): tests/cuda/conditional_nodes.cu (conditional graph nodes: If of
# one and two bodies, While, a While joined to a stream capture with its body captured by
# cudaStreamBeginCaptureToGraph, Switch, cudaGraphCondAssignDefault at each launch, the driver's
# cuGraphConditionalHandleCreate and cuGraphAddNode, a graph launched into a capture, the
# codes of the rules, and a kernel setting a handle outside its graph's launch) built by the machine's nvcc (13.0 or newer: PTX
# only, compute_90, as for the mock) and run on the board through NVIDIA's runtime and driver;
# its lines are what tests/tests/mock_conditional_nodes.rs expects of the mock:
#   if1 type=13 flag0=0 flag1=1 marks=1
#   if2 flag0=20 flag1=10
#   while count=7
#   while_capture same_body=1 nodes=3 before=1 count=4 after=1
#   switch 0=100 1=101 2=102 3=-1
#   default_reset launches=3 count=3
#   driver_if count=1
#   captured_launch launch=900 end=901 graph=0 count=0
#   rules host_body=1 if3=1 while2=1 switch0=1 foreign_handle=1
#   outside launch=0 sync=700
# With STUBS_DIR (libstubs_cudart.so, libstubs_cuda.so, libcuda_stubs_mock.so), the same source
# is also built against the stubs and run under the mock of the same board, and the lines are
# compared (nvJitLink 13.x must then be on LD_LIBRARY_PATH when nvcc writes PTX newer than 9.0).
# Needs only nvcc and the driver; writes everything under $OUT.
#   tests/gpu/conditional_nodes.sh [STUBS_DIR]
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
src=tests/cuda/conditional_nodes.cu
gencode="-gencode arch=compute_90,code=compute_90"
nvcc $gencode -cudart shared -o "$OUT/real_cond" $src -lcuda || { echo "build failed"; exit 1; }
# Every case in one process, then the one whose outcome the documentation leaves open, alone.
timeout 300 "$OUT/real_cond" all > "$OUT/real_all.txt" 2>&1; echo "board all rc=$?"
timeout 120 "$OUT/real_cond" outside > "$OUT/real_outside.txt" 2>&1; echo "board outside rc=$?"
echo "--- the board's lines"
cat "$OUT/real_all.txt" "$OUT/real_outside.txt"
if [ $# -ge 1 ]; then
  D=$(realpath "$1")
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  profile=h200
  case "$name" in *H100*) profile=h100 ;; esac
  nvcc $gencode -cudart none -o "$OUT/mock_cond" $src \
    -L"$D" -lstubs_cudart -lstubs_cuda -Xlinker -rpath -Xlinker "$D"
  for c in all outside; do
    CUDA_STUBS_MOCK=$profile timeout 600 "$OUT/mock_cond" $c > "$OUT/mock_$c.txt" 2>&1
    echo "mock ($profile) $c rc=$?"
    if diff "$OUT/real_$c.txt" "$OUT/mock_$c.txt" > "$OUT/diff_$c.txt"; then
      echo "$c: the mock's lines are the board's"
    else
      echo "$c: differ:"; cat "$OUT/diff_$c.txt"
    fi
  done
fi
