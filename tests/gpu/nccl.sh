#!/usr/bin/env bash
# GPU proof of the NCCL stub: tests/gpu/nccl_allreduce.c (an all-reduce and a broadcast over
# every GPU of the machine in one process, checked on the host) built against NVIDIA's NCCL and
# the machine's CUDA headers, linked to the stubs and, for comparison, normally; both run on the
# machine's CUDA and the given NCCL. The two runs must print the same result lines.
#
#   tests/gpu/nccl.sh PREFIX OUT [NCCL_DIR]
#
#   PREFIX    `scripts/install.sh --prefix PREFIX` (libstubs_nccl.so, libstubs_cudart.so)
#   OUT       a folder for the programs
#   NCCL_DIR  NVIDIA's NCCL of the machine's CUDA major, with include/nccl.h and
#             lib/libnccl.so.2: a wheel's folder (`pip install nvidia-nccl-cu13`; then
#             site-packages/nvidia/nccl); by default the one `import nvidia.nccl` finds
#
# The stub build binds NCCL through CUDA_STUBS_NCCL_PATH and must report the CUDA release the
# NCCL was built for (`+cuda13.x`), the machine's runtime's major (one release per process).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
P=$1 out=$2
nccl=${3:-$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])')}
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
[ -f "$nccl/include/nccl.h" ] && [ -f "$nccl/lib/libnccl.so.2" ] \
  || { echo "no include/nccl.h and lib/libnccl.so.2 under $nccl" >&2; exit 2; }
echo "== NCCL: $(grep -aom1 'NCCL version [0-9.]*+cuda[0-9.]*' "$nccl/lib/libnccl.so.2")"
gcc -std=c11 -O1 -o "$out/nccl_normal" "$here/nccl_allreduce.c" -I"$nccl/include" -I"$cuda/include" \
  -L"$nccl/lib" -l:libnccl.so.2 -L"$cuda/lib64" -lcudart \
  -Wl,-rpath,"$nccl/lib" -Wl,-rpath,"$cuda/lib64" || exit 1
gcc -std=c11 -O1 -o "$out/nccl_stub" "$here/nccl_allreduce.c" -I"$nccl/include" -I"$cuda/include" \
  -L"$P/lib" -lstubs_nccl -lstubs_cudart -Wl,-rpath,"$P/lib" || exit 1
status=0
for exe in nccl_normal nccl_stub; do
  echo "== $exe: $(readelf -d "$out/$exe" | grep -oE 'NEEDED.*\[[^]]*\]' | grep -oE '\[[^]]*\]' | tr '\n' ' ')"
  CUDA_STUBS_NCCL_PATH=$nccl/lib/libnccl.so.2 CUDA_STUBS_DEBUG=1 "$out/$exe" >"$out/$exe.out" 2>"$out/$exe.err"
  rc=$?
  cat "$out/$exe.out"
  grep -E '^cuda-stubs\[(nccl|cudart)\]: (bound|ncclGetVersion|the process has)' "$out/$exe.err"
  echo "rc=$rc"
  [ $rc = 0 ] || status=1
done
if ! diff <(grep -E 'PASS|FAIL|ncclGetVersion' "$out/nccl_normal.out") \
          <(grep -E 'PASS|FAIL|ncclGetVersion' "$out/nccl_stub.out"); then
  echo "FAIL the stub build printed other results than the normal build"
  status=1
fi
grep -q '^cuda-stubs\[nccl\]: bound ' "$out/nccl_stub.err" || { echo "FAIL the stub bound no NCCL"; status=1; }
[ $status = 0 ] && echo "NCCL GPU PROOF: ALL PASS" || echo "NCCL GPU PROOF: SOME FAILED"
exit $status
