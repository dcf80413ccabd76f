#!/usr/bin/env bash
# On the GPU machine (issue 48 item 5): tests/c/samples_api.c, the calls NVIDIA's cuda-samples
# make beyond memory, streams and kernels (profiler, stream attributes, prefetch, memory pools,
# memcpy nodes of 3D parameters, graph memory attributes, stream-ordered allocation in a
# capture), linked to NVIDIA's runtime and driver, then to the stubs under CUDA_STUBS_MOCK=h200;
# the mock's lines compared with the board's (tests/tests/mock_samples_api.rs states the
# mock's).
# STUBS_DIR holds libstubs_cudart.so, libstubs_cuda.so and libcuda_stubs_mock.so.
#   tests/gpu/samples_api.sh STUBS_DIR        (writes under $OUT)
# HEADERS (optional): a folder of newer CUDA headers put before the toolkit's (the program uses
# enumerators newer than a 13.0 toolkit's, `cudaMemPoolAttrLocationType`: 13.5's headers, the
# wheel's nvidia/cu13/include, compile it against the board's 13.0 runtime, which answers them
# as it does).
set -u
OUT=${OUT:-.}
D=$(realpath "${1:?usage: tests/gpu/samples_api.sh STUBS_DIR}")
cuda=${CUDA_HOME:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -std=c11 -O1 -o "$OUT/real_samples_api" tests/c/samples_api.c ${HEADERS:+-I"$HEADERS"} -I"$cuda/include" -Iinclude \
  -L"$cuda/lib64" -lcudart -L"$cuda/lib64/stubs" -lcuda -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -o "$OUT/mock_samples_api" tests/c/samples_api.c ${HEADERS:+-I"$HEADERS"} -I"$cuda/include" -Iinclude \
  -L"$D" -lstubs_cudart -lstubs_cuda -Wl,-rpath,"$D"
"$OUT/real_samples_api" > "$OUT/real_samples_api.txt" 2>&1
echo "linked to NVIDIA's rc=$?"
CUDA_STUBS_MOCK=h200 "$OUT/mock_samples_api" > "$OUT/mock_samples_api.txt" 2>&1
echo "on the mock rc=$?"
if diff "$OUT/real_samples_api.txt" "$OUT/mock_samples_api.txt" > "$OUT/diff_samples_api.txt"; then
  echo "the mock's lines are the board's"
else
  echo "differ (< board, > mock):"; cat "$OUT/diff_samples_api.txt"
fi
echo "--- the board's lines"; cat "$OUT/real_samples_api.txt"
