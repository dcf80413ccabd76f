#!/usr/bin/env bash
# On the GPU machine (issue 37): tests/c/graphs_and_copies.c linked to NVIDIA's runtime and
# driver, as is and built for the per-thread default stream, tests/c/device_state.c and
# tests/cuda/symbols.cu; then each linked to the stubs under CUDA_STUBS_MOCK=h200 (one device,
# as the board); the mock's lines compared with the board's.
# STUBS_DIR holds libstubs_cudart.so, libstubs_cuda.so and libcuda_stubs_mock.so.
#   tests/gpu/graphs.sh STUBS_DIR        (writes under $OUT)
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/graphs.sh STUBS_DIR}")
cuda=${CUDA_HOME:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# tests/cuda/symbols.cu, by the machine's nvcc: linked to NVIDIA's shared runtime, and to the
# runtime stub alone (`-cudart none`).
nvcc -arch=sm_90 -cudart shared -o "$OUT/real_symbols" tests/cuda/symbols.cu
nvcc -arch=sm_90 -cudart none -o "$OUT/mock_symbols" tests/cuda/symbols.cu \
  -L"$D" -lstubs_cudart -Xlinker -rpath -Xlinker "$D"
for v in plain ptds state symbols; do
  src=tests/c/graphs_and_copies.c; [ $v = state ] && src=tests/c/device_state.c
  def=; [ $v = ptds ] && def=-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
  if [ $v != symbols ]; then
    gcc -std=c11 -O1 $def -o "$OUT/real_$v" $src -I"$cuda/include" -Iinclude \
      -L"$cuda/lib64" -lcudart -lcuda -lpthread -Wl,-rpath,"$cuda/lib64"
    gcc -std=c11 -O1 $def -o "$OUT/mock_$v" $src -I"$cuda/include" -Iinclude \
      -L"$D" -lstubs_cudart -lstubs_cuda -lpthread -Wl,-rpath,"$D"
  fi
  "$OUT/real_$v" > "$OUT/real_$v.txt" 2>&1; echo "$v linked to NVIDIA's rc=$?"
  CUDA_STUBS_MOCK=h200 "$OUT/mock_$v" > "$OUT/mock_$v.txt" 2>&1; echo "$v on the mock rc=$?"
  if diff "$OUT/real_$v.txt" "$OUT/mock_$v.txt" > "$OUT/diff_$v.txt"; then
    echo "$v: the mock's lines are the board's"
  else
    echo "$v: differ:"; cat "$OUT/diff_$v.txt"
  fi
done
echo "--- the board's lines (plain)"; cat "$OUT/real_plain.txt"
echo "--- the board's lines (state)"; cat "$OUT/real_state.txt"
echo "--- the board's lines (symbols)"; cat "$OUT/real_symbols.txt"
echo "--- ptds vs plain on the board"; diff "$OUT/real_plain.txt" "$OUT/real_ptds.txt"
