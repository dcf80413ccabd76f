#!/usr/bin/env bash
# On the GPU machine (issue 48): tests/cuda/child_graphs.cu (child graph nodes: the child copied
# when its node is added, the node's embedded graph, nested children in dependency order,
# cudaGraphAddNode and cudaGraphNodeGetParams of cudaGraphNodeTypeGraph, the graphs that cannot
# be embedded, cudaGraphClone, cudaGraphExecChildGraphNodeSetParams, cudaGraphExecUpdate, a
# capture begun into an embedded graph, a parent launched into a capture, the driver's twins, a
# child in a conditional body, a clone's node found, nodes removed, a graph moved into its node)
# built by the machine's nvcc (13.0 or newer: PTX only, compute_90, as for the mock) and run on
# the board through NVIDIA's runtime and driver; its lines are what
# tests/tests/mock_child_graphs.rs expects of the mock:
#   clone_at_add type=4 count=2 original_nodes=3 embedded_nodes=2 parent_nodes=1
#   get_graph same=1 differs=1 nodes=3 count=102
#   nested x=120 again=120
#   add_node type=4 same_graph=1 not_child=1 ownership=-1 count=3
#   rules alloc=1 free=1 conditional=1 alloc_in_embedded=1 not_child=1 ownership=1 nodes=2
#   clone nodes=1 type=4 distinct=1 copied_nodes=2 count=2
#   exec_set first=2 set=0 second=15 fewer=1 unlinked=1 types=1 after=15 node_kept=2
#   exec_update same=0 x=33 other=910 result=2
#   capture_to_child same=1 nodes=3 x=9
#   captured_launch launch=0 x=21
#   driver type=4 same_graph=1 ownership=-1 count=4 mismatch=1 null_node=1
#   in_conditional count=2 host_in_child=1
#   find_in_clone distinct=1 type=0 not_clone=1 later=1 x=10 removed=1
#   destroy_node left=1 x=0 y=7 chain=6 memory=1 mem_nodes=2
#   driver_nodes distinct=1 not_clone=1 left=2 x=2
#   move add=0 count=2
# With STUBS_DIR (libstubs_cudart.so, libstubs_cuda.so, libcuda_stubs_mock.so), the same source
# is also built against the stubs and run under the mock of the same board, and the lines are
# compared (nvJitLink 13.x must then be on LD_LIBRARY_PATH when nvcc writes PTX newer than 9.0).
# Needs only nvcc and the driver; writes everything under $OUT.
#   tests/gpu/child_graphs.sh [STUBS_DIR]
# HEADERS (optional): newer CUDA headers before the toolkit's (13.0's lack cudaGraphNodeGetParams'
# declaration the program uses: 13.5's, the wheel's nvidia/cu13/include).
set -u
OUT=${OUT:-.}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
src=tests/cuda/child_graphs.cu
gencode="-gencode arch=compute_90,code=compute_90"
nvcc $gencode ${HEADERS:+-I"$HEADERS"} -cudart shared -o "$OUT/real_child" $src -lcuda || { echo "build failed"; exit 1; }
# Every case in one process; each case's own too, so that one that fails on the board does not
# hide the others' lines.
timeout 300 "$OUT/real_child" all > "$OUT/real_all.txt" 2>&1; echo "board all rc=$?"
for c in clone_at_add get_graph nested add_node rules clone exec_set exec_update \
  capture_to_child captured_launch driver in_conditional find_in_clone destroy_node \
  driver_nodes move; do
  timeout 120 "$OUT/real_child" $c > "$OUT/real_case_$c.txt" 2>&1 || echo "board $c rc=$?"
done
echo "--- the board's lines"
cat "$OUT/real_all.txt"
echo "--- each case alone"
cat "$OUT"/real_case_*.txt
if [ $# -ge 1 ]; then
  D=$(realpath "$1")
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  profile=h200
  case "$name" in *H100*) profile=h100 ;; esac
  nvcc $gencode ${HEADERS:+-I"$HEADERS"} -cudart none -o "$OUT/mock_child" $src \
    -L"$D" -lstubs_cudart -lstubs_cuda -Xlinker -rpath -Xlinker "$D"
  for c in all; do
    CUDA_STUBS_MOCK=$profile timeout 600 "$OUT/mock_child" $c > "$OUT/mock_$c.txt" 2>&1
    echo "mock ($profile) $c rc=$?"
    if diff "$OUT/real_$c.txt" "$OUT/mock_$c.txt" > "$OUT/diff_$c.txt"; then
      echo "$c: the mock's lines are the board's"
    else
      echo "$c: differ:"; cat "$OUT/diff_$c.txt"
    fi
  done
fi
