#!/usr/bin/env bash
# On the GPU machine (issue 48 item 5): tests/cuda/occupancy.cu (functions' attributes, the
# occupancy API of the runtime and the driver, beside NVIDIA's calculator, cuda_occupancy.h)
# built by the machine's nvcc for sm_90, linked to NVIDIA's runtime and driver, then to the stubs
# under the mock of the same board (h200, or h100 on an H100); the mock's lines compared with
# the board's, line by line. The CUBIN the driver side loads is built from the same source.
# Then tests/c/entry_points.c (cuGetProcAddress, cudaGetDriverEntryPoint) and
# tests/cuda/graph_nodes.cu and tests/c/driver_graph_nodes.c (kernel and event nodes by hand,
# graph exec updates), tests/cuda/arrays.cu and tests/c/driver_arrays.c (arrays, copies,
# texture and surface objects) the same way.
# STUBS_DIR holds libstubs_cudart.so, libstubs_cuda.so and libcuda_stubs_mock.so.
#   tests/gpu/occupancy.sh STUBS_DIR        (writes under $OUT)
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/occupancy.sh STUBS_DIR}")
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
profile=h200
case "$name" in *H100*) profile=h100 ;; esac
src=tests/cuda/occupancy.cu
nvcc -arch=sm_90 -cubin -Xptxas -v -o "$OUT/occupancy.cubin" $src 2> "$OUT/ptxas.txt"
cat "$OUT/ptxas.txt"
nvcc -arch=sm_90 -cudart shared -o "$OUT/real_occupancy" $src -lcuda
nvcc -arch=sm_90 -cudart none -o "$OUT/mock_occupancy" $src \
  -L"$D" -lstubs_cudart -lstubs_cuda -Xlinker -rpath -Xlinker "$D"
"$OUT/real_occupancy" "$OUT/occupancy.cubin" > "$OUT/real.txt" 2>&1; echo "board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_occupancy" "$OUT/occupancy.cubin" > "$OUT/mock.txt" 2>&1
echo "mock ($profile) rc=$?"
if diff "$OUT/real.txt" "$OUT/mock.txt" > "$OUT/diff.txt"; then
  echo "occupancy: the mock's lines are the board's ($(wc -l < "$OUT/real.txt") lines)"
else
  echo "occupancy: $(grep -c '^<' "$OUT/diff.txt") lines differ:"; cat "$OUT/diff.txt"
fi
echo "--- the board's lines"; cat "$OUT/real.txt"
cuda=${CUDA_HOME:-/usr/local/cuda}
gcc -std=c11 -O1 -o "$OUT/real_entry_points" tests/c/entry_points.c -I"$cuda/include" \
  -L"$cuda/lib64" -lcudart -lcuda -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -o "$OUT/mock_entry_points" tests/c/entry_points.c -I"$cuda/include" \
  -L"$D" -lstubs_cudart -lstubs_cuda -Wl,-rpath,"$D"
"$OUT/real_entry_points" > "$OUT/real_entry_points.txt" 2>&1; echo "entry points board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_entry_points" > "$OUT/mock_entry_points.txt" 2>&1
echo "entry points mock rc=$?"
if diff "$OUT/real_entry_points.txt" "$OUT/mock_entry_points.txt" > "$OUT/diff_entry_points.txt"; then
  echo "entry points: the mock's lines are the board's"
else
  echo "entry points: differ:"; cat "$OUT/diff_entry_points.txt"
fi
echo "--- the board's lines (entry points)"; cat "$OUT/real_entry_points.txt"
nvcc -arch=sm_90 -cudart shared -o "$OUT/real_graph_nodes" tests/cuda/graph_nodes.cu
nvcc -arch=sm_90 -cudart none -o "$OUT/mock_graph_nodes" tests/cuda/graph_nodes.cu \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D"
"$OUT/real_graph_nodes" > "$OUT/real_graph_nodes.txt" 2>&1; echo "graph nodes board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_graph_nodes" > "$OUT/mock_graph_nodes.txt" 2>&1
echo "graph nodes mock rc=$?"
if diff "$OUT/real_graph_nodes.txt" "$OUT/mock_graph_nodes.txt" > "$OUT/diff_graph_nodes.txt"; then
  echo "graph nodes: the mock's lines are the board's"
else
  echo "graph nodes: differ:"; cat "$OUT/diff_graph_nodes.txt"
fi
echo "--- the board's lines (graph nodes)"; cat "$OUT/real_graph_nodes.txt"
gcc -std=c11 -O1 -o "$OUT/real_driver_graph_nodes" tests/c/driver_graph_nodes.c \
  -I"$cuda/include" -L"$cuda/lib64" -lcuda -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -o "$OUT/mock_driver_graph_nodes" tests/c/driver_graph_nodes.c \
  -I"$cuda/include" -L"$D" -lstubs_cuda -Wl,-rpath,"$D"
"$OUT/real_driver_graph_nodes" > "$OUT/real_driver_graph_nodes.txt" 2>&1
echo "driver graph nodes board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_driver_graph_nodes" > "$OUT/mock_driver_graph_nodes.txt" 2>&1
echo "driver graph nodes mock rc=$?"
if diff "$OUT/real_driver_graph_nodes.txt" "$OUT/mock_driver_graph_nodes.txt" \
  > "$OUT/diff_driver_graph_nodes.txt"; then
  echo "driver graph nodes: the mock's lines are the board's"
else
  echo "driver graph nodes: differ:"; cat "$OUT/diff_driver_graph_nodes.txt"
fi
echo "--- the board's lines (driver graph nodes)"; cat "$OUT/real_driver_graph_nodes.txt"
nvcc -arch=sm_90 -cudart shared -o "$OUT/real_arrays" tests/cuda/arrays.cu
nvcc -arch=sm_90 -cudart none -o "$OUT/mock_arrays" tests/cuda/arrays.cu \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D"
"$OUT/real_arrays" > "$OUT/real_arrays.txt" 2>&1; echo "arrays board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_arrays" > "$OUT/mock_arrays.txt" 2>&1
echo "arrays mock rc=$?"
if diff "$OUT/real_arrays.txt" "$OUT/mock_arrays.txt" > "$OUT/diff_arrays.txt"; then
  echo "arrays: the mock's lines are the board's"
else
  echo "arrays: differ:"; cat "$OUT/diff_arrays.txt"
fi
echo "--- the board's lines (arrays)"; cat "$OUT/real_arrays.txt"
gcc -std=c11 -O1 -o "$OUT/real_driver_arrays" tests/c/driver_arrays.c \
  -I"$cuda/include" -L"$cuda/lib64" -lcuda -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -o "$OUT/mock_driver_arrays" tests/c/driver_arrays.c \
  -I"$cuda/include" -L"$D" -lstubs_cuda -Wl,-rpath,"$D"
"$OUT/real_driver_arrays" > "$OUT/real_driver_arrays.txt" 2>&1; echo "driver arrays board rc=$?"
CUDA_STUBS_MOCK=$profile "$OUT/mock_driver_arrays" > "$OUT/mock_driver_arrays.txt" 2>&1
echo "driver arrays mock rc=$?"
if diff "$OUT/real_driver_arrays.txt" "$OUT/mock_driver_arrays.txt" \
  > "$OUT/diff_driver_arrays.txt"; then
  echo "driver arrays: the mock's lines are the board's"
else
  echo "driver arrays: differ:"; cat "$OUT/diff_driver_arrays.txt"
fi
echo "--- the board's lines (driver arrays)"; cat "$OUT/real_driver_arrays.txt"
