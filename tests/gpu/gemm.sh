#!/usr/bin/env bash
# GPU proof of the cuBLAS and cuBLASLt stubs: tests/gpu/gemm.c (a 64x64 SGEMM through cublasSgemm
# and cublasLtMatmul, checked against the CPU) built against the machine's headers, linked to the
# stubs and, for comparison, normally; run on the machine's CUDA.
#
#   tests/gpu/gemm.sh PREFIX OUT      (PREFIX: `scripts/install.sh --prefix PREFIX`)
set -u
P=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
gcc -std=c11 -O1 -o "$out/gemm_normal" "$here/gemm.c" -I"$cuda/include" -L"$cuda/lib64" \
  -lcublasLt -lcublas -lcudart -lm -Wl,-rpath,"$cuda/lib64"
gcc -std=c11 -O1 -o "$out/gemm_stub" "$here/gemm.c" -I"$cuda/include" -L"$P/lib" \
  -lstubs_cublaslt -lstubs_cublas -lstubs_cudart -lm -Wl,-rpath,"$P/lib"
for exe in gemm_normal gemm_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_DEBUG=1 "$out/$exe" 2>&1 | grep -vE 'not found$|no copy already'
  echo "rc=${PIPESTATUS[0]}"
done
